// What grove-cli's commands say as they stop: the exit statuses, a usage error, a graph's
// problems, an interruption.
#pragma once

#include "core/base/Diagnostic.h"

#include <ostream>
#include <string>

namespace grove::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;  // an invalid graph, a failed evaluation or a failed write
inline constexpr int kExitUsage = 2;

// "grove-cli: MESSAGE" and where the usage is; returns kExitUsage.
int usageError(std::ostream &err, const std::string &message);
// Each problem on a line of its own, FILE:LINE:COL first.
void printDiagnostics(std::ostream &err, const Diagnostics &diagnostics);
// Ctrl+C stopped the command before it wrote anything; returns kExitInterrupted.
int interrupted(std::ostream &err);

} // namespace grove::cli
