// `grove-cli inputs`: the graph file and every file its evaluation reads, for copying a graph to
// machines that share no folder with this one (app/deploy).
#pragma once

#include <ostream>
#include <string>
#include <vector>

// Prints the graph's absolute path, then each file it reads (absolute, sorted), one a line.
// Exit status: 0 listed, 1 the graph has problems or reads a file that is missing (nothing
// printed on out), 2 bad usage.
int runInputs(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
