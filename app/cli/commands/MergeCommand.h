// `grove-cli merge PART... [-o OUT]`: the parts of `eval --shard` joined into the whole export.
#pragma once

#include <ostream>
#include <string>
#include <vector>

// Writes the whole grove.points JSON to OUT (stdout without -o, or with -o -). Exit status: 0
// joined, 1 the parts do not make one whole (the reason on err), 2 bad usage, 130 interrupted.
int runMerge(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
