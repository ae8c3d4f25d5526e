// `grove-cli bench`: timings a user can reproduce, medians and ratios against plain references.
#pragma once

#include <ostream>
#include <string>
#include <vector>

int runBench(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
