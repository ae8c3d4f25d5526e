// Expectation texts: the metric names and the "METRIC OP NUMBER" grammar, shared by the loader's
// validation and grove-cli check, so both refuse the same texts with the same words.
#include "core/graph/Expectation.h"

#include "core/base/Diagnostic.h"
#include "core/base/NumberText.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace grove {

namespace {

constexpr std::array<const char *, 8> kNames = {"count", "density", "tightest", "too_close",
                                                "clearing", "coverage", "low_freq", "anisotropy"};

struct OpSpelling
{
    const char *text;
    Expectation::Op op;
};
// Two-character operators first, so ">=" is not read as ">" followed by "=5".
constexpr std::array<OpSpelling, 6> kOps = {{{">=", Expectation::Op::AtLeast},
                                             {"<=", Expectation::Op::AtMost},
                                             {"==", Expectation::Op::Equal},
                                             {"!=", Expectation::Op::NotEqual},
                                             {">", Expectation::Op::Above},
                                             {"<", Expectation::Op::Below}}};

std::string trim(const std::string &s)
{
    const auto begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos)
        return {};
    return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

bool isNameChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

} // namespace

const char *metricName(Metric metric) { return kNames[static_cast<std::size_t>(metric)]; }

const std::vector<std::string> &metricNames()
{
    static const std::vector<std::string> names(kNames.begin(), kNames.end());
    return names;
}

std::optional<Metric> metricFromName(const std::string &name)
{
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (name == kNames[i])
            return static_cast<Metric>(i);
    return std::nullopt;
}

const char *Expectation::opText(Op op)
{
    for (const auto &o : kOps)
        if (o.op == op)
            return o.text;
    return "?";
}

bool Expectation::holds(double measured) const
{
    switch (op) {
    case Op::AtLeast: return measured >= value;
    case Op::AtMost: return measured <= value;
    case Op::Above: return measured > value;
    case Op::Below: return measured < value;
    case Op::Equal: return measured == value;
    case Op::NotEqual: return measured != value;
    }
    return false;
}

std::optional<Expectation> parseExpectation(const std::string &text, std::string *error)
{
    auto fail = [&](const std::string &why) -> std::optional<Expectation> {
        if (error)
            *error = "expectation " + quote(text) + ": " + why;
        return std::nullopt;
    };
    const std::string form = "write METRIC OP NUMBER, such as 'count >= 400' (OP: >= <= > < == !=)";
    const std::string s = trim(text);
    std::size_t nameEnd = 0;
    while (nameEnd < s.size() && isNameChar(s[nameEnd]))
        ++nameEnd;
    const std::string name = s.substr(0, nameEnd);
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])))
        return fail("no metric; " + form);
    const std::string rest = trim(s.substr(nameEnd));
    const OpSpelling *op = nullptr;
    for (const auto &o : kOps)
        if (rest.rfind(o.text, 0) == 0) {
            op = &o;
            break;
        }
    const auto metric = metricFromName(name);
    if (!metric) {
        const std::string guess = didYouMean(name, metricNames());
        return fail("unknown metric " + quote(name)
                    + (guess.empty() ? "; the metrics are count, density, tightest, too_close, clearing, coverage, "
                                       "low_freq and anisotropy"
                                     : guess));
    }
    if (!op)
        return fail("no comparison after " + quote(name) + "; " + form);
    const std::string number = trim(rest.substr(std::char_traits<char>::length(op->text)));
    double value = 0;
    std::string word = !number.empty() && (number[0] == '+' || number[0] == '-') ? number.substr(1) : number;
    for (char &c : word)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (word == "inf" || word == "infinity" || word == "nan")  // C's spellings: a number, but not finite
        return fail("the number must be finite, got " + quote(number));
    if (!parseNumber(number, value))
        return fail(number.empty() ? "no number after " + std::string(op->text) + "; " + form
                                   : quote(number) + " is not a number; " + form);
    if (!std::isfinite(value))
        return fail("the number must be finite, got " + quote(number));
    Expectation e;
    e.metric = *metric;
    e.op = op->op;
    e.value = value;
    return e;
}

std::optional<std::pair<std::string, std::string>> splitLayerExpectation(const std::string &text)
{
    const std::string s = trim(text);
    const auto dot = s.find('.');
    const auto op = s.find_first_of("<>=!");
    if (dot == std::string::npos || dot == 0 || (op != std::string::npos && dot > op))
        return std::nullopt;
    return std::make_pair(s.substr(0, dot), s.substr(dot + 1));
}

} // namespace grove
