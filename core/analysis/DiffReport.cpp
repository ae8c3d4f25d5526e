// DiffReport: the text and JSON of grove-cli diff; numbers in shortest round-trip form.
#include "core/analysis/DiffReport.h"

#include "core/base/TextEscape.h"
#include "core/base/Value.h"
#include "core/math/ExactHypot.h"

#include <cmath>

namespace grove {

namespace {

struct Counts
{
    std::size_t kept = 0, keptSameId = 0, moved = 0, added = 0, removed = 0;

    Counts &operator+=(const Counts &c)
    {
        kept += c.kept;
        keptSameId += c.keptSameId;
        moved += c.moved;
        added += c.added;
        removed += c.removed;
        return *this;
    }
};

Counts countsOf(const LayerDiff &l)
{
    return {l.kept, l.keptSameId, l.moved.size(), l.added.size(), l.removed.size()};
}

std::string countsText(const Counts &c)
{
    std::string s = std::to_string(c.kept) + " kept (" + std::to_string(c.keptSameId) + " same id";
    if (c.kept != c.keptSameId)
        s += ", " + std::to_string(c.kept - c.keptSameId) + " renumbered";
    return s + "), " + std::to_string(c.moved) + " moved, " + std::to_string(c.added) + " added, " + std::to_string(c.removed)
           + " removed";
}

void number(std::string &out, double v)
{
    char buf[kMaxNumberChars];
    if (std::isfinite(v))
        out.append(buf, writeNumber(buf, v));
    else
        out += "null";
}

void point(std::string &out, const DiffPoint &p)
{
    out += "{\"id\": " + std::to_string(p.id) + ", \"x\": ";
    number(out, p.x);
    out += ", \"y\": ";
    number(out, p.y);
    out += ", \"r\": ";
    number(out, p.r);
    out += "}";
}

void countsJson(std::string &out, const Counts &c)
{
    out += "{\"kept\": " + std::to_string(c.kept) + ", \"keptSameId\": " + std::to_string(c.keptSameId)
           + ", \"renumbered\": " + std::to_string(c.kept - c.keptSameId) + ", \"moved\": " + std::to_string(c.moved)
           + ", \"added\": " + std::to_string(c.added) + ", \"removed\": " + std::to_string(c.removed) + "}";
}

template<typename List, typename Write>
void list(std::string &out, const char *name, const List &items, Write write, bool last)
{
    out += "      \"" + std::string(name) + "\": [";
    for (std::size_t i = 0; i < items.size(); ++i) {
        out += i ? ",\n        " : "\n        ";
        write(items[i]);
    }
    out += items.empty() ? "]" : "\n      ]";
    out += last ? "\n" : ",\n";
}

} // namespace

std::string diffText(const PointDiff &diff)
{
    std::string text;
    Counts total;
    for (const LayerDiff &l : diff.layers) {
        const Counts c = countsOf(l);
        total += c;
        text += l.name + ": ";
        if (!l.inNew)
            text += "only in OLD, " + std::to_string(c.removed) + " removed\n";
        else if (!l.inOld)
            text += "only in NEW, " + std::to_string(c.added) + " added\n";
        else
            text += countsText(c) + "\n";
    }
    text += "total: " + countsText(total) + (diff.same() ? ": the same\n" : ": different\n");
    return text;
}

std::string diffJson(const PointDiff &diff, const std::string &oldName, const std::string &newName)
{
    std::string out = "{\n  \"format\": \"grove.diff\",\n  \"formatVersion\": 1,\n";
    out += "  \"old\": " + jsonQuote(oldName) + ",\n  \"new\": " + jsonQuote(newName) + ",\n";
    out += std::string("  \"same\": ") + (diff.same() ? "true" : "false") + ",\n";
    Counts total;
    out += "  \"layers\": [";
    for (std::size_t li = 0; li < diff.layers.size(); ++li) {
        const LayerDiff &l = diff.layers[li];
        const Counts c = countsOf(l);
        total += c;
        out += li ? ",\n    {\n" : "\n    {\n";
        out += "      \"name\": " + jsonQuote(l.name) + ",\n";
        out += std::string("      \"inOld\": ") + (l.inOld ? "true" : "false") + ", \"inNew\": " + (l.inNew ? "true" : "false")
               + ",\n";
        out += "      \"oldCount\": " + std::to_string(l.oldCount) + ", \"newCount\": " + std::to_string(l.newCount)
               + ", \"tolerance\": ";
        number(out, l.tolerance);
        out += ",\n      \"counts\": ";
        countsJson(out, c);
        out += ",\n";
        list(out, "renumbered", l.renumberedPoints, [&](const DiffPair &m) {
            out += "{\"from\": ";
            point(out, m.from);
            out += ", \"to\": ";
            point(out, m.to);
            out += "}";
        }, false);
        list(out, "moved", l.moved, [&](const DiffPair &m) {
            out += "{\"from\": ";
            point(out, m.from);
            out += ", \"to\": ";
            point(out, m.to);
            out += ", \"distance\": ";
            number(out, exactHypot(m.to.x - m.from.x, m.to.y - m.from.y));
            out += "}";
        }, false);
        list(out, "added", l.added, [&](const DiffPoint &p) { point(out, p); }, false);
        list(out, "removed", l.removed, [&](const DiffPoint &p) { point(out, p); }, true);
        out += "    }";
    }
    out += diff.layers.empty() ? "],\n" : "\n  ],\n";
    out += "  \"total\": ";
    countsJson(out, total);
    out += "\n}\n";
    return out;
}

} // namespace grove
