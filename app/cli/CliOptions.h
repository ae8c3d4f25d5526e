// A command's options as a table: each flag, the value it takes, and what it does with it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace grove::cli {

// A usage problem, or nothing.
using Problem = std::optional<std::string>;

struct Option
{
    std::vector<std::string> flags;  // e.g. {"-o", "--out"}
    // What the value is, for "FLAG needs ..." (e.g. "a PATH"); empty: a switch without a value.
    std::string value;
    std::function<Problem(const std::string &value)> apply;
};

// Reads `args` against `options`: "FLAG VALUE" and "--flag=VALUE" for options that take a value,
// FLAG alone for switches; anything else not starting with '-' (and "-") goes to `positional`.
Problem parseOptions(const std::vector<std::string> &args, const std::string &command, const std::vector<Option> &options,
                     const std::function<Problem(const std::string &)> &positional);

// A whole number within [min, max], or nothing.
std::optional<long long> wholeNumber(const std::string &text, long long min, long long max);

} // namespace grove::cli
