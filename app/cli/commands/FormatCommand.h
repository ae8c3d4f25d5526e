// `grove-cli format FILE... [--check]`: graphs rewritten in their canonical form.
#pragma once

#include <ostream>
#include <string>
#include <vector>

// Rewrites each graph that loads cleanly and is not canonical ("FILE: formatted" on err); with
// --check only reports it ("FILE: not in canonical form"). A graph with problems is never
// rewritten. Exit status: 0 all canonical (or rewritten), 1 a problem or an unwritten or
// (--check) non-canonical file, 2 bad usage.
int runFormat(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
