// `grove-cli diff OLD NEW`: what changed between two graphs (or two exports) of a world.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace grove::cli {

// Exit status like diff(1): 0 the same, 1 different, 2 trouble (130 interrupted).
int runDiff(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace grove::cli
