// Shard parts are read line by line in the layout the JSON export writes (one point a line), so
// each layer's points are found as a byte range and copied, never held in memory.
#include "core/formats/ShardMerge.h"

#include "core/base/FileInput.h"
#include "core/formats/StreamExport.h"
#include "core/base/SafeFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <unistd.h>
#include <vector>

namespace grove {

namespace {

struct PartLayer
{
    std::string name, node, types;  // their lines as written
    std::string tags;                // its tags line, or empty for a layer without tags
    std::uint64_t count = 0;
    std::uint64_t begin = 0, end = 0;  // the points: "\n        {...},\n        {...}"
};

struct Part
{
    std::string path;
    std::vector<std::string> head;  // the lines before "layers", without the shard line
    std::string hash;
    std::size_t index = 0, count = 0, begin = 0, end = 0, total = 0;
    std::string region;
    std::vector<PartLayer> layers;
};

// A part's lines are short (a point, a key); one longer than this is not a part, and reading it
// whole (a device, a file without newlines) would hold it all in memory.
constexpr std::size_t kMaxPartLine = std::size_t(64) << 20;
// The lines before "layers" (format, graph, world, sources, shard) are kept: at most this much.
constexpr std::size_t kMaxPartHead = std::size_t(64) << 20;

class Lines
{
public:
    explicit Lines(std::FILE *f) : m_file(f), m_buffer(std::size_t(1) << 16) {}
    // The next line without its newline; false at the end, or at a line longer than kMaxPartLine
    // (then tooLong()).
    bool next(std::string &line)
    {
        m_offset = m_nextOffset;
        line.clear();
        bool any = false;
        while (true) {
            if (m_pos == m_len) {
                m_len = std::fread(m_buffer.data(), 1, m_buffer.size(), m_file);
                m_pos = 0;
                if (m_len == 0)
                    break;
            }
            any = true;
            const char *start = m_buffer.data() + m_pos;
            const auto *newline = static_cast<const char *>(std::memchr(start, '\n', m_len - m_pos));
            const std::size_t take = newline ? static_cast<std::size_t>(newline - start) + 1 : m_len - m_pos;
            if (line.size() + take > kMaxPartLine) {
                m_tooLong = true;
                return false;
            }
            line.append(start, take);
            m_pos += take;
            if (newline)
                break;
        }
        if (!any)
            return false;
        ++m_number;
        m_nextOffset += line.size();
        if (line.back() == '\n')
            line.pop_back();
        return true;
    }
    std::uint64_t offset() const { return m_offset; }  // where the last line read starts
    std::size_t number() const { return m_number; }
    bool tooLong() const { return m_tooLong; }

private:
    std::FILE *m_file;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0, m_len = 0;
    std::uint64_t m_offset = 0, m_nextOffset = 0;
    std::size_t m_number = 0;
    bool m_tooLong = false;
};

bool startsWith(const std::string &s, const std::string &prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

// Reads one part; the reason when it is not a part grove-cli eval --shard wrote.
std::optional<std::string> readPart(const std::string &path, Part &part)
{
    part.path = path;
    if (auto problem = notRegularFile(path))  // a pipe is never opened: that waits for a writer
        return path + ": error: cannot read it: " + *problem;
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file)
        return path + ": error: cannot read it: " + std::strerror(errno);
    Lines lines(file.get());
    std::string line;
    auto bad = [&](const std::string &what) {
        if (lines.tooLong())
            return path + ":" + std::to_string(lines.number() + 1) + ": error: not a shard part of grove-cli eval --shard: "
                   + "a line longer than " + std::to_string(kMaxPartLine >> 20) + " MiB";
        return path + ":" + std::to_string(lines.number()) + ": error: not a shard part of grove-cli eval --shard: " + what;
    };
    std::size_t headBytes = 0;
    if (!lines.next(line) || line != "{")
        return bad("expected '{' opening a JSON object (is it JSON?)");
    if (!lines.next(line) || line != "  \"format\": \"grove.points\",")
        return bad("expected \"format\": \"grove.points\"");
    part.head.push_back(line);
    bool shard = false;
    while (true) {
        if (!lines.next(line))
            return bad("the file ends before \"layers\"");
        if (startsWith(line, "  \"layers\": ["))
            break;
        if (startsWith(line, "  \"shard\": ") && line.back() == ',') {
            auto j = nlohmann::json::parse(line.substr(11, line.size() - 12), nullptr, false);
            const auto whole = [&](const char *key, const nlohmann::json &in) {
                return in.contains(key) && in[key].is_number_unsigned();
            };
            if (j.is_discarded() || !whole("index", j) || !whole("count", j) || !j.contains("chunks")
                || !whole("begin", j["chunks"]) || !whole("end", j["chunks"]) || !whole("total", j["chunks"])
                || !j.contains("region"))
                return bad("its \"shard\" is not index, count, chunks and region");
            part.index = j["index"];
            part.count = j["count"];
            part.begin = j["chunks"]["begin"];
            part.end = j["chunks"]["end"];
            part.total = j["chunks"]["total"];
            part.region = j["region"].dump();
            shard = true;
            continue;
        }
        if (startsWith(line, "  \"graph\": ")) {
            const auto at = line.find("\"hash\": \"");
            if (at != std::string::npos)
                part.hash = line.substr(at + 9, line.find('"', at + 9) - (at + 9));
        }
        headBytes += line.size() + 1;
        if (headBytes > kMaxPartHead)
            return bad("more than " + std::to_string(kMaxPartHead >> 20) + " MiB before \"layers\"");
        part.head.push_back(line);
    }
    if (!shard)
        return path + ": error: a whole export, not a shard part (it was made without --shard K/N)";
    if (line == "  \"layers\": []") {
        if (!lines.next(line) || line != "}" || lines.next(line))
            return bad("expected '}' closing the file");
        return std::nullopt;
    }
    if (line != "  \"layers\": [")
        return bad("expected \"layers\": [");
    while (true) {
        PartLayer layer;
        if (!lines.next(line) || line != "    {")
            return bad("expected '{' opening a layer");
        if (!lines.next(layer.name) || !startsWith(layer.name, "      \"name\": ") || !lines.next(layer.node)
            || !startsWith(layer.node, "      \"node\": "))
            return bad("expected the layer's name and node");
        if (!lines.next(line) || !startsWith(line, "      \"count\": "))
            return bad("expected the layer's count");
        char *endp = nullptr;
        layer.count = std::strtoull(line.c_str() + 15, &endp, 10);
        if (std::string(endp) != ",")
            return bad("expected the layer's count");
        if (!lines.next(layer.types) || !startsWith(layer.types, "      \"types\": ["))
            return bad("expected the layer's types");
        if (!lines.next(line))
            return bad("expected the layer's points");
        if (startsWith(line, "      \"tags\": [")) {
            layer.tags = line;
            if (!lines.next(line))
                return bad("expected the layer's points");
        }
        if (line != "      \"points\": [" && line != "      \"points\": []")
            return bad("expected the layer's points");
        std::uint64_t seen = 0;
        if (line == "      \"points\": [") {
            layer.begin = lines.offset() + line.size();  // the newline before the first point
            bool more = true;
            while (more) {
                if (!lines.next(line) || !startsWith(line, "        {\"id\": "))
                    return bad("expected a point");
                more = line.back() == ',';
                if (line.back() != '}' && !more)
                    return bad("expected a point");
                ++seen;
                layer.end = lines.offset() + line.size() - (more ? 1 : 0);
            }
            if (!lines.next(line) || line != "      ]")
                return bad("expected ']' closing the layer's points");
        }
        if (seen != layer.count)
            return bad("the layer says " + std::to_string(layer.count) + " points and holds " + std::to_string(seen));
        part.layers.push_back(std::move(layer));
        if (!lines.next(line) || (line != "    }" && line != "    },"))
            return bad("expected '}' closing a layer");
        if (line == "    }")
            break;
    }
    if (!lines.next(line) || line != "  ]" || !lines.next(line) || line != "}" || lines.next(line))
        return bad("expected the end of the layers and of the file");
    return std::nullopt;
}

std::string keyOf(const std::string &line)
{
    const auto q = line.find('"', 3);
    return q == std::string::npos ? line : line.substr(2, q - 1);
}

} // namespace

std::optional<std::string> mergeShards(const std::vector<std::string> &paths, const std::string &out,
                                       const std::atomic<bool> *cancel)
{
    std::vector<Part> parts(paths.size());
    std::string problems;
    for (std::size_t k = 0; k < paths.size(); ++k)
        if (auto err = readPart(paths[k], parts[k]))
            problems += *err + "\n";
    if (!problems.empty())
        return problems;
    if (parts.empty())
        return std::string("grove-cli: merge: no parts\n");

    const Part &first = parts.front();
    for (const Part &p : parts) {
        if (p.hash != first.hash)
            return "grove-cli: merge: parts of different graphs: " + first.path + " has " + first.hash + ", " + p.path + " has "
                   + p.hash + "\n";
        if (p.head != first.head) {
            std::string key;
            for (std::size_t l = 0; l < std::min(p.head.size(), first.head.size()) && key.empty(); ++l)
                if (p.head[l] != first.head[l])
                    key = keyOf(p.head[l]);
            return "grove-cli: merge: " + first.path + " and " + p.path + " differ in " + (key.empty() ? "their header" : key)
                   + " (parts of different runs)\n";
        }
        if (p.region != first.region)
            return "grove-cli: merge: " + first.path + " covers region " + first.region + ", " + p.path + " region " + p.region + "\n";
        if (p.count != first.count || p.total != first.total)
            return "grove-cli: merge: " + first.path + " is shard " + std::to_string(first.index) + " of " + std::to_string(first.count)
                   + ", " + p.path + " shard " + std::to_string(p.index) + " of " + std::to_string(p.count)
                   + ": parts of different splits overlap\n";
        if (p.count == 0 || p.index >= p.count || std::make_pair(p.begin, p.end) != shardRun(p.index, p.count, p.total))
            return "grove-cli: merge: " + p.path + ": shard " + std::to_string(p.index) + " of " + std::to_string(p.count)
                   + " does not cover the chunks it should\n";
        bool sameLayers = p.layers.size() == first.layers.size();
        for (std::size_t l = 0; sameLayers && l < p.layers.size(); ++l)
            sameLayers = p.layers[l].name == first.layers[l].name && p.layers[l].node == first.layers[l].node
                         && p.layers[l].types == first.layers[l].types && p.layers[l].tags == first.layers[l].tags;
        if (!sameLayers)
            return "grove-cli: merge: " + first.path + " and " + p.path + " hold different layers (--layers)\n";
    }
    std::map<std::size_t, const Part *> byIndex;
    for (const Part &p : parts) {
        auto [it, fresh] = byIndex.emplace(p.index, &p);
        if (!fresh)
            return "grove-cli: merge: " + it->second->path + " and " + p.path + " are both shard " + std::to_string(p.index) + " of "
                   + std::to_string(p.count) + ": overlapping parts\n";
    }
    std::string missing;
    for (std::size_t k = 0; k < first.count; ++k)
        if (!byIndex.count(k)) {
            const auto [b, e] = shardRun(k, first.count, first.total);
            missing += (missing.empty() ? "" : ", ") + std::string("shard ") + std::to_string(k) + " of " + std::to_string(first.count)
                       + (b == e ? std::string(" (no chunks)")
                                 : " (chunks " + std::to_string(b) + " to " + std::to_string(e - 1) + " of "
                                       + std::to_string(first.total) + ")");
        }
    if (!missing.empty())
        return "grove-cli: merge: missing " + missing + "\n";

    std::vector<int> fds;
    struct Closer
    {
        std::vector<int> &fds;
        ~Closer()
        {
            for (int fd : fds)
                ::close(fd);
        }
    } closer{fds};
    for (const auto &[index, p] : byIndex) {
        const int fd = ::open(p->path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return p->path + ": error: cannot read it\n";
        fds.push_back(fd);
    }
    SafeFile file;
    if (auto err = file.open(out))
        return "grove-cli: " + *err + "\n";
    std::string head = "{\n";
    for (const std::string &l : first.head)
        head += l + "\n";
    head += "  \"layers\": [";
    auto fail = [](const std::string &err) { return std::optional<std::string>("grove-cli: " + err + "\n"); };
    if (auto err = file.write(head))
        return fail(*err);
    for (std::size_t l = 0; l < first.layers.size(); ++l) {
        std::uint64_t total = 0;
        for (const Part &p : parts)
            total += p.layers[l].count;
        const PartLayer &L = first.layers[l];
        std::string lhead = std::string(l ? ",\n" : "\n") + "    {\n" + L.name + "\n" + L.node + "\n      \"count\": "
                            + std::to_string(total) + ",\n" + L.types + "\n" + (L.tags.empty() ? "" : L.tags + "\n")
                            + "      \"points\": [";
        if (auto err = file.write(lhead))
            return fail(*err);
        bool any = false;
        std::size_t f = 0;
        for (const auto &[index, p] : byIndex) {
            const PartLayer &pl = p->layers[l];
            const int fd = fds[f++];
            if (pl.count == 0)
                continue;
            if (any)
                if (auto err = file.write(","))
                    return fail(*err);
            if (auto err = file.copyFrom(fd, pl.begin, pl.end - pl.begin, p->path, cancel))
                return cancel && *cancel ? std::optional<std::string>("interrupted") : fail(*err);
            any = true;
        }
        if (auto err = file.write(total == 0 ? "]\n    }" : "\n      ]\n    }"))
            return fail(*err);
    }
    if (auto err = file.write(first.layers.empty() ? "]\n}\n" : "\n  ]\n}\n"))
        return fail(*err);
    if (cancel && *cancel)
        return std::string("interrupted");
    if (auto err = file.commit())
        return fail(*err);
    return std::nullopt;
}

} // namespace grove
