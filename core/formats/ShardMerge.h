// grove-cli merge: the partial exports of `eval --shard K/N` joined into the bytes one run gives.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace grove {

// Checks that `parts` come from one graph and region and cover its chunks exactly once, then
// writes the whole export to `out` (empty: standard output), atomically for a file. The reason
// on failure ("FILE: error: ..." lines), with nothing written; "interrupted" when `cancel` was set.
std::optional<std::string> mergeShards(const std::vector<std::string> &parts, const std::string &out,
                                       const std::atomic<bool> *cancel = nullptr);

} // namespace grove
