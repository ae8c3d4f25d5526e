// `grove-cli eval FILE [options]`: a graph evaluated headless, its layers exported.
#pragma once

#include <ostream>
#include <string>
#include <vector>

// The export on out (or in the files -o, --split and --png name), problems and --stats on err.
// Exit status: 0 written, 1 an invalid graph, a failed evaluation or a failed write (nothing
// half written), 2 bad usage, 130 interrupted (nothing written).
int runEval(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
