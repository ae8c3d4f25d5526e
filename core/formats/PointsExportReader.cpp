// PointsExportReader: grove.points JSON through nlohmann's SAX interface (events, no tree) and
// Grove CSV through the shared CsvReader, both parsed from the stream as it is read; numbers parsed to
// the nearest double, as they were written.
#include "core/formats/PointsExportReader.h"

#include "core/base/CsvReader.h"
#include "core/base/Limits.h"
#include "core/base/NumberText.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <istream>
#include <limits>
#include <string_view>
#include <iterator>
#include <cmath>
#include <map>

namespace grove {

namespace {

using json = nlohmann::json;

// A stream read as it is parsed: 64 KiB at a time, never more than `limit` bytes in all, with the
// line and column of the bytes just read (for messages). Past the limit, or past a run of
// kMaxTokenBytes without a parser event (one endless string, number or space), it ends early
// and says why, so nothing is held whole.
class ByteSource
{
public:
    static constexpr std::uint64_t kMaxTokenBytes = std::uint64_t(64) << 20;

    ByteSource(std::istream &in, std::uint64_t limit) : m_in(in), m_limit(limit) {}

    // The next byte, or -1 at the end (of the stream, or where reading stopped).
    int peek()
    {
        if (m_at == m_buffer.size() && !fill())
            return -1;
        return static_cast<unsigned char>(m_buffer[m_at]);
    }
    int get()
    {
        const int c = peek();
        if (c < 0)
            return c;
        ++m_at;
        m_last[m_read & 7] = m_next;
        ++m_read;
        if (c == '\n')
            m_next = {m_next.line + 1, 1};
        else
            ++m_next.column;
        if (m_keep && m_keep->size() <= m_keepLimit)
            m_keep->push_back(static_cast<char>(c));
        return c;
    }
    // The bytes in the buffer not read yet (at least the first 64 KiB of a stream when nothing
    // was read yet), for telling the kind of a file.
    std::string_view ahead()
    {
        peek();
        return std::string_view(m_buffer).substr(m_at);
    }

    std::uint64_t read() const { return m_read; }
    // "LINE:COL" of the next byte, and of one of the last eight read (offset from 0).
    std::string next() const { return m_next.text(); }
    std::string at(std::uint64_t offset) const
    {
        return offset < m_read && offset + 8 >= m_read ? m_last[offset & 7].text() : next();
    }
    // Every byte read from now on is appended to `keep` (up to keepLimit + 1 bytes); null: no more.
    void keep(std::string *keep, std::uint64_t keepLimit)
    {
        m_keep = keep;
        m_keepLimit = keepLimit;
    }
    // The parser saw an event: a run without one starts here.
    void event() { m_lastEvent = m_read; }
    // Why the stream ended early ("" when it did not).
    const std::string &stopped() const { return m_stopped; }
    bool overLimit() const { return m_overLimit; }

private:
    struct Position
    {
        std::uint64_t line = 1, column = 1;
        std::string text() const { return std::to_string(line) + ":" + std::to_string(column); }
    };

    bool fill()
    {
        if (!m_stopped.empty())
            return false;
        if (m_read - m_lastEvent > kMaxTokenBytes) {
            m_stopped = m_next.text() + ": more than " + std::to_string(kMaxTokenBytes >> 20)
                        + " MiB without a complete JSON value (one endless string, number or space)";
            return false;
        }
        m_buffer.resize(std::size_t(1) << 16);
        m_in.read(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
        m_buffer.resize(static_cast<std::size_t>(m_in.gcount()));
        m_at = 0;
        if (m_read + m_buffer.size() > m_limit) {
            // keep what fits, then stop: the byte beyond the limit is never handed out
            m_buffer.resize(static_cast<std::size_t>(m_limit - m_read));
            m_overLimit = true;
            m_stopped = "larger than the " + std::to_string(m_limit >> 20) + " MiB export limit";
        }
        return !m_buffer.empty();
    }

    std::istream &m_in;
    std::uint64_t m_limit;
    std::string m_buffer;
    std::size_t m_at = 0;
    std::uint64_t m_read = 0, m_lastEvent = 0;
    Position m_next, m_last[8];
    std::string *m_keep = nullptr;
    std::uint64_t m_keepLimit = 0;
    std::string m_stopped;
    bool m_overLimit = false;
};

// The source as a character iterator for nlohmann's parser (which only reads forward and
// compares with the end).
struct SourceIterator
{
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = char;

    ByteSource *source = nullptr;  // null: the end

    char operator*() const { return static_cast<char>(source->peek()); }
    SourceIterator &operator++()
    {
        source->get();
        return *this;
    }
    SourceIterator operator++(int)
    {
        SourceIterator before = *this;
        ++*this;
        return before;
    }
    bool atEnd() const { return !source || source->peek() < 0; }
    bool operator==(const SourceIterator &o) const { return atEnd() == o.atEnd(); }
    bool operator!=(const SourceIterator &o) const { return !(*this == o); }
};

// The events of one grove.points file, kept by where they are: the root's "format" and
// "bounds", each layer's "name", each point's id, x, y and r. Everything else is skipped.
class ExportSax : public nlohmann::json_sax<json>
{
public:
    // The kind is told on the way: until the root's "format" says grove.points, a problem makes
    // the text JSON of another kind (or, for a syntax error, not JSON at all: a graph in YAML's
    // flow style, perhaps); from then on it is an error in the export.
    ExportSax(ByteSource &source, PointsExportNeeds needs)
        : m_source(source), m_required(needs == PointsExportNeeds::IdAndRadius ? 15 : 6)
    {
    }

    std::string format;
    bool formatSeen = false;
    PointsTextKind kind = PointsTextKind::OtherJson;
    PointsExportRead read;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t v) override
    {
        m_source.event();
        if (v < 0)
            return inPoint() && m_frames.back().key == "id" ? fail("a point id is negative") : number(static_cast<double>(v));
        return whole(static_cast<std::uint64_t>(v));
    }
    bool number_unsigned(number_unsigned_t v) override { return whole(v); }
    bool number_float(number_float_t v, const string_t &) override
    {
        m_source.event();
        if (inPoint() && m_frames.back().key == "id")
            return fail("point " + pointName() + ": its id is not a whole number");
        return number(v);
    }
    bool string(string_t &s) override
    {
        m_source.event();
        if (m_frames.size() == 1 && m_frames[0].key == "format" && !formatSeen) {
            format = s;
            formatSeen = true;
            if (s != "grove.points")
                return false;  // JSON of another kind: nothing more to read
            kind = PointsTextKind::GrovePointsJson;
            m_source.keep(nullptr, 0);
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
        m_source.event();
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
            m_pointStart = m_source.at(m_source.read() - 1);  // the '{' just read
        }
        m_frames.push_back({true, {}});
        return true;
    }
    bool end_object() override
    {
        m_source.event();
        if (inPoint()) {
            if ((m_have & m_required) != m_required)
                return fail("point " + pointName() + " has no " + missing(), m_pointStart);  // where it starts
            if (!(m_have & 8))
                m_point.r = std::numeric_limits<double>::quiet_NaN();  // none given (allowed by the caller's needs)
            read.layers.back().points.push_back(m_point);
        } else if (inLayer() && !m_layerNamed) {
            return fail("layer " + std::to_string(read.layers.size() - 1) + " has no name");
        } else if (m_frames.size() == 1) {
            if (!formatSeen)
                return fail("no \"format\": \"grove.points\" member");
        }
        m_frames.pop_back();
        return true;
    }
    bool start_array(std::size_t) override
    {
        m_source.event();
        if (m_frames.empty())
            return fail("a JSON array, not a grove.points object");
        if (m_frames.size() >= static_cast<std::size_t>(limits::maxJsonDepth))
            return fail("nested deeper than " + std::to_string(limits::maxJsonDepth) + " levels");
        m_frames.push_back({false, {}});
        return true;
    }
    bool end_array() override
    {
        m_source.event();
        m_frames.pop_back();
        return true;
    }
    bool key(string_t &k) override
    {
        m_source.event();
        m_frames.back().key = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &ex) override
    {
        if (!formatSeen)
            kind = PointsTextKind::Other;
        if (read.error.empty()) {
            // nlohmann's message starts "[json.exception.parse_error.101] parse error at line 1, column 2: "
            std::string what = ex.what();
            if (auto colon = what.find(": "); colon != std::string::npos && what.find("parse error") < colon)
                what = what.substr(colon + 2);
            read.error = m_source.stopped().empty() ? m_source.at(position > 0 ? position - 1 : 0) + ": not valid JSON: " + what
                                                    : m_source.stopped();
        }
        return false;
    }

private:
    struct Frame
    {
        bool object;
        std::string key;  // the member being read (objects)
    };

    bool fail(const std::string &message, const std::string &where = {})
    {
        if (read.error.empty())
            read.error = (where.empty() ? m_source.next() : where) + ": " + message;
        return false;
    }
    bool value()
    {
        m_source.event();
        return m_frames.empty() ? fail("a JSON value, not a grove.points object") : true; }
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
            if ((m_required & (1 << i)) && !(m_have & (1 << i)))
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

    ByteSource &m_source;
    bool m_started = false;
    std::vector<Frame> m_frames;
    DiffPoint m_point;
    std::string m_pointStart;  // "LINE:COL" of the point being read
    int m_have = 0;
    int m_required;  // the bits of id, x, y, r a point must have
    bool m_layerNamed = false;
    Region m_bounds;
};

// The source as CSV input: the reader bounds each field itself, so every byte counts as an event
// (the JSON bound on a run without one does not apply).
class CsvSource final : public CsvInput
{
public:
    explicit CsvSource(ByteSource &source) : m_source(source) {}
    int peek() override { return m_source.peek(); }
    int get() override
    {
        m_source.event();
        return m_source.get();
    }
    std::string stopped() const override { return m_source.stopped(); }

private:
    ByteSource &m_source;
};

// A Grove CSV export from its first byte.
PointsExportRead readCsv(ByteSource &source)
{
    PointsExportRead read;
    read.kind = PointsTextKind::GroveCsv;
    CsvSource input(source);
    CsvReader csv(input);
    std::vector<std::string> fields;
    csv.next(fields);
    read.error = csv.error();
    int column[5] = {-1, -1, -1, -1, -1};
    const char *names[5] = {"layer", "id", "x", "y", "r"};
    for (std::size_t i = 0; i < fields.size(); ++i)
        for (int k = 0; k < 5; ++k)
            if (fields[i] == names[k] && column[k] < 0)
                column[k] = static_cast<int>(i);
    for (int k = 0; k < 5 && read.error.empty(); ++k)
        if (column[k] < 0) {
            read.error = "1:1: the CSV header has no '" + std::string(names[k]) + "' column";
            return read;
        }
    std::map<std::string, std::size_t> layerIndex;
    while (read.error.empty() && csv.next(fields)) {
        if (fields.size() == 1 && fields[0].empty())
            continue;  // a blank line (the last newline's)
        auto where = [&](const std::string &what) { return csv.recordStart() + ": " + what; };
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
    if (read.error.empty())
        read.error = csv.error();
    if (!read.error.empty())
        read.layers.clear();
    return read;
}

} // namespace

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

PointsExportRead readPointsExport(std::istream &in, std::uint64_t maxBytes, std::string *other, std::uint64_t maxOtherBytes,
                                  PointsExportNeeds needs)
{
    ByteSource source(in, maxBytes);
    PointsExportRead read;
    const auto tooLarge = [&](const std::string &why) {
        read.layers.clear();
        read.error = why;
        read.tooLarge = true;
    };
    std::string jsonError;  // why text that starts like JSON is not JSON
    // the kind, from the first bytes: JSON, a CSV header, or else (a graph) the whole text
    const std::string_view ahead = source.ahead();
    std::size_t i = ahead.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    while (i < ahead.size() && (ahead[i] == ' ' || ahead[i] == '\t' || ahead[i] == '\n' || ahead[i] == '\r'))
        ++i;
    const std::size_t eol = ahead.find_first_of("\r\n", i);
    if (i < ahead.size() && (ahead[i] == '{' || ahead[i] == '[')) {
        if (other)
            source.keep(other, maxOtherBytes);  // until the format says grove.points
        ExportSax sax(source, needs);
        json::sax_parse(SourceIterator{&source}, SourceIterator{}, &sax);
        read = std::move(sax.read);
        read.kind = sax.kind;
        if (source.overLimit())
            tooLarge(source.stopped());
        else if (!read.ok())
            read.layers.clear();
        if (read.kind != PointsTextKind::Other || read.tooLarge)
            return read;
        jsonError = std::move(read.error);
        read.error.clear();
    } else if (ahead.substr(i, eol == std::string_view::npos ? eol : eol - i).starts_with("layer,id,x,y,r")) {
        read = readCsv(source);
        if (source.overLimit())
            tooLarge(source.stopped());
        return read;
    } else {
        read.kind = PointsTextKind::Other;
        if (other)
            source.keep(other, maxOtherBytes);
    }
    // not an export: the whole text, for the caller to read as a graph
    if (!other)
        return read;
    while (source.get() >= 0 && other->size() <= maxOtherBytes) {
    }
    if (other->size() > maxOtherBytes && !jsonError.empty())
        read.error = jsonError + " (and too large to be a graph)";  // an endless '{{{...', say
    else if (other->size() > maxOtherBytes)
        tooLarge("larger than the " + std::to_string(maxOtherBytes >> 20) + " MiB graph limit");
    else if (!source.stopped().empty())
        tooLarge(source.stopped());
    return read;
}

} // namespace grove
