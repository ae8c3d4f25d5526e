// `grove-cli nodes [--json|--markdown]`: the node catalog, from the node descriptors.
#pragma once

#include <ostream>
#include <string>
#include <vector>

// The catalog on out as text, JSON or Markdown. Exit status: 0, or 2 for any other argument.
int runNodes(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
