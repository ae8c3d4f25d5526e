// Diagnostic formatting and the did-you-mean suggestion shared by the loader, overrides and the CLI.
#include "core/base/Diagnostic.h"

#include "core/base/TextEscape.h"

#include <algorithm>

namespace grove {

std::string Diagnostic::format() const
{
    std::string out = file.empty() ? std::string("<graph>") : file;
    if (line > 0) {
        out += ':' + std::to_string(line);
        if (column > 0)
            out += ':' + std::to_string(column);
    }
    out += severity == Severity::Error ? ": error: " : ": warning: ";
    out += message;
    if (!path.empty())
        out += " (at " + path + ")";
    return out;
}

std::string quote(const std::string &name)
{
    std::string out = "'";
    size_t limit = 60;
    size_t cut = name.size() <= limit ? name.size() : limit;
    while (cut > 0 && cut < name.size() && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
        --cut;  // do not split a UTF-8 sequence
    for (size_t i = 0; i < cut; ++i) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        if (c < 0x20 || c == 0x7f)
            appendHexEscape(out, c);
        else
            out += static_cast<char>(c);
    }
    if (cut < name.size())
        out += "...";
    return out + "'";
}

bool hasErrors(const Diagnostics &diagnostics)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic &d) { return d.severity == Diagnostic::Severity::Error; });
}

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
// transpositions ("raduis" -> "radius") each cost one.
static size_t editDistance(const std::string &a, const std::string &b)
{
    std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                cur[j] = std::min(cur[j], prev2[j - 2] + 1);
        }
        prev2.swap(prev);
        prev.swap(cur);
    }
    return prev[b.size()];
}

std::string closestMatch(const std::string &word, const std::vector<std::string> &candidates)
{
    if (word.size() > 256)
        return {};
    std::string best;
    size_t bestDistance = SIZE_MAX;
    for (const auto &c : candidates) {
        size_t d = editDistance(word, c);
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    // close enough: at most a third of the word changed (and at least one edit allowed)
    size_t limit = std::max<size_t>(1, (std::max(word.size(), best.size()) + 2) / 3);
    return bestDistance <= limit ? best : std::string();
}

std::string commaList(const std::vector<std::string> &words)
{
    std::string out;
    for (const std::string &w : words)
        out += (out.empty() ? "" : ", ") + w;
    return out;
}

std::string didYouMean(const std::string &word, const std::vector<std::string> &candidates)
{
    std::string best = closestMatch(word, candidates);
    return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

} // namespace grove
