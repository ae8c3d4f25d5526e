// The option table reader behind grove-cli's commands.
#include "CliOptions.h"

#include <charconv>

namespace grove::cli {

Problem parseOptions(const std::vector<std::string> &args, const std::string &command, const std::vector<Option> &options,
                     const std::function<Problem(const std::string &)> &positional)
{
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        const Option *matched = nullptr;
        std::string value;
        bool inline_ = false;
        for (const Option &o : options) {
            for (const std::string &flag : o.flags) {
                if (a == flag) {
                    matched = &o;
                } else if (!o.value.empty() && flag.rfind("--", 0) == 0 && a.rfind(flag + "=", 0) == 0) {
                    matched = &o;
                    value = a.substr(flag.size() + 1);
                    inline_ = true;
                }
                if (matched)
                    break;
            }
            if (matched)
                break;
        }
        if (!matched) {
            if (!a.empty() && a[0] == '-' && a != "-")
                return "unknown option for " + command + ": " + a;
            if (Problem p = positional(a))
                return p;
            continue;
        }
        if (!matched->value.empty() && !inline_) {
            if (i + 1 >= args.size())
                return a + " needs " + matched->value;
            value = args[++i];
        }
        if (Problem p = matched->apply(value))
            return p;
    }
    return std::nullopt;
}

std::optional<long long> wholeNumber(const std::string &text, long long min, long long max)
{
    long long v = 0;
    const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size() || v < min || v > max)
        return std::nullopt;
    return v;
}

} // namespace grove::cli
