// `grove-cli check`: evaluates graphs and holds their layers to expectations (count, spacing,
// coverage, blue noise), for CI; paints a layer's periodogram with --spectrum.
#pragma once

#include <ostream>
#include <string>
#include <vector>

// Exit status: 0 every expectation holds, 1 one fails or a graph is invalid, 2 bad usage
// (including --expect naming a layer or metric that does not exist), 130 interrupted.
int runCheck(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
