// `grove-cli validate FILE...`: every problem of each graph, its groups' included.
#pragma once

#include <ostream>
#include <string>
#include <vector>

// Prints "FILE: ok (N nodes, HASH)" on out for a clean graph, its problems and their count on
// err for the others. Exit status: 0 every graph is clean, 1 one has a problem, 2 bad usage.
int runValidate(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
