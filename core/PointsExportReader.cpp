// PointsExportReader: grove.points JSON through nlohmann's SAX interface (events, no tree) and
// Grove CSV with RFC 4180 quoting; numbers parsed to the nearest double, as they were written.
#include "PointsExportReader.h"

#include "Limits.h"
#include "NumberText.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <iterator>
#include <cmath>
#include <map>

namespace grove {

namespace {

using json = nlohmann::json;

std::size_t firstNonSpace(const std::string &text)
{
    std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
    return i;
}

// "LINE:COL" of a byte offset, both from 1.
std::string lineColumn(const std::string &text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

// A character iterator that tells how far the parser has read, so a problem the SAX handler
// finds (a point without x) can say its line and column.
struct TrackedIterator
{
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = const char &;

    const char *p = nullptr;
    const char **reached = nullptr;

    reference operator*() const { return *p; }
    TrackedIterator &operator++()
    {
        *reached = ++p;
        return *this;
    }
    TrackedIterator operator++(int)
    {
        TrackedIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackedIterator &o) const { return p == o.p; }
    bool operator!=(const TrackedIterator &o) const { return p != o.p; }
};

// The events of one grove.points file, kept by where they are: the root's "format" and
// "bounds", each layer's "name", each point's id, x, y and r. Everything else is skipped.
class ExportSax : public nlohmann::json_sax<json>
{
public:
    // classifyOnly: stop at the root's "format" (telling the kind needs no more)
    ExportSax(const std::string &text, bool classifyOnly) : m_text(text), m_classifyOnly(classifyOnly) {}

    std::string format;
    bool formatSeen = false;
    PointsExportRead read;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t v) override
    {
        if (v < 0)
            return inPoint() && m_frames.back().key == "id" ? fail("a point id is negative") : number(static_cast<double>(v));
        return whole(static_cast<std::uint64_t>(v));
    }
    bool number_unsigned(number_unsigned_t v) override { return whole(v); }
    bool number_float(number_float_t v, const string_t &) override
    {
        if (inPoint() && m_frames.back().key == "id")
            return fail("point " + pointName() + ": its id is not a whole number");
        return number(v);
    }
    bool string(string_t &s) override
    {
        if (m_frames.size() == 1 && m_frames[0].key == "format") {
            format = s;
            formatSeen = true;
            if (m_classifyOnly)
                return false;
            if (s != "grove.points")
                return fail("its format is '" + s + "', not grove.points");
            return true;
        }
        if (inLayer() && m_frames.back().key == "name") {
            read.layers.back().name = s;
            m_layerNamed = true;
            return true;
        }
        return value();
    }
    bool binary(binary_t &) override { return value(); }
    bool start_object(std::size_t) override
    {
        if (m_frames.empty() && m_started)
            return fail("more than one JSON value");
        m_started = true;
        if (m_frames.size() >= static_cast<std::size_t>(limits::maxJsonDepth))
            return fail("nested deeper than " + std::to_string(limits::maxJsonDepth) + " levels");
        if (inLayerList()) {
            read.layers.emplace_back();
            m_layerNamed = false;
        } else if (inPointList()) {
            m_point = {};
            m_have = 0;
            m_pointStart = m_reached ? m_reached - 1 : nullptr;  // the '{' just read
        }
        m_frames.push_back({true, {}});
        return true;
    }
    bool end_object() override
    {
        if (inPoint()) {
            if ((m_have & 15) != 15) {
                m_reached = m_pointStart;  // where the incomplete point starts
                return fail("point " + pointName() + " has no " + missing());
            }
            read.layers.back().points.push_back(m_point);
        } else if (inLayer() && !m_layerNamed) {
            return fail("layer " + std::to_string(read.layers.size() - 1) + " has no name");
        } else if (m_frames.size() == 1 && !m_classifyOnly) {
            if (!formatSeen)
                return fail("no \"format\": \"grove.points\" member");
        }
        m_frames.pop_back();
        return true;
    }
    bool start_array(std::size_t) override
    {
        if (m_frames.empty())
            return fail(m_classifyOnly ? "" : "a JSON array, not a grove.points object");
        if (m_frames.size() >= static_cast<std::size_t>(limits::maxJsonDepth))
            return fail("nested deeper than " + std::to_string(limits::maxJsonDepth) + " levels");
        m_frames.push_back({false, {}});
        return true;
    }
    bool end_array() override
    {
        m_frames.pop_back();
        return true;
    }
    bool key(string_t &k) override
    {
        m_frames.back().key = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &ex) override
    {
        if (read.error.empty()) {
            // nlohmann's message starts "[json.exception.parse_error.101] parse error at line 1, column 2: "
            std::string what = ex.what();
            if (auto colon = what.find(": "); colon != std::string::npos && what.find("parse error") < colon)
                what = what.substr(colon + 2);
            read.error = lineColumn(m_text, position > 0 ? position - 1 : 0) + ": not valid JSON: " + what;
        }
        return false;
    }

private:
    struct Frame
    {
        bool object;
        std::string key;  // the member being read (objects)
    };

    bool fail(const std::string &message)
    {
        if (read.error.empty())
            read.error = m_reached ? lineColumn(m_text, static_cast<std::size_t>(m_reached - m_text.data())) + ": " + message
                                   : message;
        return false;
    }
    bool value() { return m_frames.empty() ? fail("a JSON value, not a grove.points object") : true; }
    // [root at "layers", the array]
    bool inLayerList() const { return m_frames.size() == 2 && m_frames[0].key == "layers" && !m_frames[1].object; }
    bool inLayer() const { return m_frames.size() == 3 && m_frames[0].key == "layers" && !m_frames[1].object && m_frames[2].object; }
    bool inPointList() const { return m_frames.size() == 4 && inLayerAt() && m_frames[2].key == "points" && !m_frames[3].object; }
    bool inPoint() const { return m_frames.size() == 5 && inLayerAt() && m_frames[2].key == "points" && !m_frames[3].object && m_frames[4].object; }
    bool inLayerAt() const { return m_frames[0].key == "layers" && !m_frames[1].object && m_frames[2].object; }
    bool inBounds() const { return m_frames.size() == 2 && m_frames[0].key == "bounds" && m_frames[1].object; }

    std::string pointName() const
    {
        return std::to_string(read.layers.back().points.size()) + " of layer '" + read.layers.back().name + "'";
    }
    std::string missing() const
    {
        const char *names[] = {"id", "x", "y", "r"};
        for (int i = 0; i < 4; ++i)
            if (!(m_have & (1 << i)))
                return names[i];
        return {};
    }

    bool whole(std::uint64_t v)
    {
        if (inPoint() && m_frames.back().key == "id") {
            m_point.id = v;
            m_have |= 1;
            return true;
        }
        return number(static_cast<double>(v));
    }
    bool number(double v)
    {
        if (inPoint()) {
            const std::string &k = m_frames.back().key;
            if (k == "x") {
                m_point.x = v;
                m_have |= 2;
            } else if (k == "y") {
                m_point.y = v;
                m_have |= 4;
            } else if (k == "r") {
                m_point.r = v;
                m_have |= 8;
            }
            return true;
        }
        if (inBounds()) {
            const std::string &k = m_frames.back().key;
            Region &b = m_bounds;
            if (k == "minX")
                b.x0 = v;
            else if (k == "minY")
                b.y0 = v;
            else if (k == "maxX")
                b.x1 = v;
            else if (k == "maxY")
                b.y1 = v;
            read.bounds = b;
            return true;
        }
        return value();
    }

public:
    const char *m_reached = nullptr;  // how far the parser read (TrackedIterator)

private:
    const std::string &m_text;
    bool m_classifyOnly;
    bool m_started = false;
    std::vector<Frame> m_frames;
    DiffPoint m_point;
    const char *m_pointStart = nullptr;
    int m_have = 0;
    bool m_layerNamed = false;
    Region m_bounds;
};

// One CSV record from `pos` (quoted fields may hold commas, quotes and line breaks); false at
// the end of the text or for an unclosed quote (then *error says where).
bool csvRecord(const std::string &text, std::size_t &pos, std::vector<std::string> &fields, std::string *error)
{
    fields.clear();
    if (pos >= text.size())
        return false;
    std::string field;
    bool quoted = false;
    const std::size_t start = pos;
    while (pos < text.size()) {
        const char c = text[pos++];
        if (quoted) {
            if (c == '"') {
                if (pos < text.size() && text[pos] == '"') {
                    field += '"';
                    ++pos;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && pos < text.size() && text[pos] == '\n')
                ++pos;
            fields.push_back(std::move(field));
            return true;
        } else {
            field += c;
        }
    }
    if (quoted) {
        *error = lineColumn(text, start) + ": a quoted field is never closed";
        return false;
    }
    fields.push_back(std::move(field));
    return true;
}

PointsExportRead readCsv(const std::string &text)
{
    PointsExportRead read;
    read.kind = PointsTextKind::GroveCsv;
    std::size_t pos = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
    std::vector<std::string> fields;
    csvRecord(text, pos, fields, &read.error);
    int column[5] = {-1, -1, -1, -1, -1};
    const char *names[5] = {"layer", "id", "x", "y", "r"};
    for (std::size_t i = 0; i < fields.size(); ++i)
        for (int k = 0; k < 5; ++k)
            if (fields[i] == names[k] && column[k] < 0)
                column[k] = static_cast<int>(i);
    for (int k = 0; k < 5; ++k)
        if (column[k] < 0) {
            read.error = "1:1: the CSV header has no '" + std::string(names[k]) + "' column";
            return read;
        }
    std::map<std::string, std::size_t> layerIndex;
    for (;;) {
        const std::size_t start = pos;
        if (!csvRecord(text, pos, fields, &read.error))
            break;
        if (fields.size() == 1 && fields[0].empty())
            continue;  // a blank line (the last newline's)
        auto where = [&](const std::string &what) { return lineColumn(text, start) + ": " + what; };
        for (int k = 0; k < 5; ++k)
            if (static_cast<std::size_t>(column[k]) >= fields.size()) {
                read.error = where("the row has " + std::to_string(fields.size()) + " fields, no " + names[k]);
                return read;
            }
        DiffPoint p;
        const std::string &id = fields[static_cast<std::size_t>(column[1])];
        const auto res = std::from_chars(id.data(), id.data() + id.size(), p.id);
        if (id.empty() || res.ec != std::errc() || res.ptr != id.data() + id.size()) {
            read.error = where("id '" + id + "' is not a whole number");
            return read;
        }
        double *targets[3] = {&p.x, &p.y, &p.r};
        for (int k = 2; k < 5; ++k) {
            const std::string &f = fields[static_cast<std::size_t>(column[k])];
            if (!parseNumber(f, *targets[k - 2])) {
                read.error = where(std::string(names[k]) + " '" + f + "' is not a number");
                return read;
            }
        }
        const std::string &name = fields[static_cast<std::size_t>(column[0])];
        auto [it, added] = layerIndex.emplace(name, read.layers.size());
        if (added)
            read.layers.push_back({name, {}});
        read.layers[it->second].points.push_back(p);
    }
    if (!read.error.empty())
        read.layers.clear();
    return read;
}

} // namespace

PointsTextKind pointsTextKind(const std::string &text)
{
    const std::size_t i = firstNonSpace(text);
    if (i < text.size() && (text[i] == '{' || text[i] == '[')) {
        ExportSax sax(text, true);
        json::sax_parse(text.begin() + static_cast<std::ptrdiff_t>(i), text.end(), &sax);
        if (sax.formatSeen && sax.format == "grove.points")
            return PointsTextKind::GrovePointsJson;
        // a document that fails early as JSON is a graph in YAML's flow style at most
        return sax.read.error.find("not valid JSON") == std::string::npos || sax.formatSeen ? PointsTextKind::OtherJson
                                                                                             : PointsTextKind::Other;
    }
    const std::size_t eol = text.find_first_of("\r\n", i);
    const std::string header = text.substr(i, eol == std::string::npos ? std::string::npos : eol - i);
    if (header.rfind("layer,id,x,y,r", 0) == 0)
        return PointsTextKind::GroveCsv;
    return PointsTextKind::Other;
}

const char *pointsTextKindName(PointsTextKind kind)
{
    switch (kind) {
    case PointsTextKind::GrovePointsJson: return "a grove.points JSON export";
    case PointsTextKind::OtherJson: return "JSON that is not a grove.points export";
    case PointsTextKind::GroveCsv: return "a CSV export";
    case PointsTextKind::Other: return "neither a grove.points JSON nor a CSV export";
    }
    return "";
}

PointsExportRead readPointsExport(const std::string &text)
{
    const PointsTextKind kind = pointsTextKind(text);
    if (kind == PointsTextKind::GroveCsv)
        return readCsv(text);
    PointsExportRead read;
    read.kind = kind;
    if (kind != PointsTextKind::GrovePointsJson) {
        read.error = std::string("1:1: ") + pointsTextKindName(kind);
        return read;
    }
    ExportSax sax(text, false);
    sax.m_reached = text.data();
    TrackedIterator begin{text.data(), &sax.m_reached}, end{text.data() + text.size(), &sax.m_reached};
    json::sax_parse(begin, end, &sax);
    read = std::move(sax.read);
    read.kind = kind;
    if (!read.ok())
        read.layers.clear();
    return read;
}

} // namespace grove
