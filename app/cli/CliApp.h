// grove-cli as a function, so tests and the CLI fuzzer can run it in-process.
#pragma once

#include <ostream>
#include <string>
#include <vector>

// Runs grove-cli with `args` (without the program name): data on `out`, messages on `err`.
// Returns the exit status: 0 success, 1 invalid graph or failed evaluation, 2 bad usage (diff:
// 0 same, 1 different, 2 trouble).
int runCli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
