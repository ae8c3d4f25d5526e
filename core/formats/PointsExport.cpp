// Writers for the points export formats; every number in shortest round-trip form, written
// straight into one buffer through TextOut (no string per number: 68 MB of JSON for 646k points).
#include "core/formats/PointsExport.h"

#include "core/formats/EngineExport.h"
#include "core/formats/TextOut.h"
#include "core/eval/Evaluator.h"
#include "core/base/TextEscape.h"
#include "core/base/Value.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

// JSON has no inf/nan; export data never holds them, but never write invalid JSON either.
char *num(char *p, double v) { return std::isfinite(v) ? writeNumber(p, v) : lit(p, "null"); }

constexpr std::size_t kNum = kMaxNumberChars;

std::string text(double v)
{
    char buf[kNum + 4];
    return std::string(buf, num(buf, v));
}

// The JSON of points [begin, end) of a layer whose first point starts it when `first`.
void appendJsonRange(TextOut &out, const PointLayer &layer, bool first, std::size_t begin, std::size_t end)
{
    for (size_t i = begin; i < end; ++i) {
        const PointXYR &pt = layer.points[i];
        const PointAttributes a = layer.attributes(layer.idOf(i));
        char *p = out.room(128 + 6 * kNum);
        p = first && i == 0 ? lit(p, "\n        {\"id\": ") : lit(p, ",\n        {\"id\": ");
        p = whole(p, layer.idOf(i));
        p = lit(p, ", \"x\": ");
        p = num(p, pt.x);
        p = lit(p, ", \"y\": ");
        p = num(p, pt.y);
        if (!layer.z.empty()) {  // a layer with a height input: 3D positions
            p = lit(p, ", \"z\": ");
            p = num(p, layer.z[i]);
        }
        p = lit(p, ", \"r\": ");
        p = num(p, pt.r);
        p = lit(p, ", \"t\": ");
        p = whole(p, static_cast<std::uint64_t>(a.type < 0 ? 0 : a.type));
        p = lit(p, ", \"rot\": ");
        p = num(p, a.rotation);
        p = lit(p, ", \"s\": ");
        p = num(p, a.scale);
        for (std::size_t c = 0; c < layer.columns.size(); ++c) {
            out.commit(p);
            const AttributeColumn &column = layer.columns[c];
            p = out.room(column.name.size() + 32 + kNum);
            p = c == 0 ? lit(p, ", \"attributes\": {\"") : lit(p, ", \"");
            p = TextOut::put(p, column.name);
            p = lit(p, "\": ");
            p = num(p, column.values[i]);
        }
        p = layer.columns.empty() ? lit(p, "}") : lit(p, "}}");
        out.commit(p);
    }
}

std::string exportJson(const ExportInfo &info, const std::vector<PointLayerPtr> &layers, const TextSink *sink, int threads)
{
    std::string text;
    text.reserve(sink ? 4096 : 4096 + totalPoints(layers) * 112);
    text += jsonExportHead(info);
    for (size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        text += jsonLayerHead(layer, layer.points.size(), li == 0);
        appendJsonPoints(text, layer, true, sink, threads);
        text += jsonLayerTail(layer.points.size());
    }
    text += jsonExportTail(layers.size());
    return text;
}

std::string exportCsv(const std::vector<PointLayerPtr> &layers, const TextSink *sink, int threads)
{
    // z, the last column, only when some layer has heights (empty for the layers without)
    const bool anyZ = std::any_of(layers.begin(), layers.end(), [](const PointLayerPtr &l) { return !l->z.empty(); });
    std::string text;
    text.reserve(sink ? 4096 : 4096 + totalPoints(layers) * 96);
    const std::vector<std::string> attributes = attributeNames(layers);
    text += csvExportHead(anyZ, attributes);
    for (const auto &lp : layers)
        appendCsvRows(text, *lp, anyZ, attributes, sink, threads);
    return text;
}

// A tagged layer's tags as the object layer's property grove.tags, comma-separated (tags are
// a-z, 0-9, _ and -: nothing to escape); nothing for an untagged layer, whose bytes stay as ever.
std::string tiledTags(const std::vector<std::string> &tags)
{
    if (tags.empty())
        return {};
    std::string joined;
    for (const std::string &t : tags)
        joined += (joined.empty() ? "" : ",") + t;
    return "\"properties\": [{\"name\": \"grove.tags\", \"type\": \"string\", \"value\": " + jsonQuote(joined) + "}], ";
}

std::string exportTiled(const ExportInfo &info, const std::vector<PointLayerPtr> &layers, const TextSink *sink, int threads)
{
    const int tile = 16;
    std::string text;
    // about 300 bytes of keys an object, its type twice and six numbers: reserved, never touched
    TextOut out(text, 4096 + totalPoints(layers) * 448, sink);
    out.add("{\n");
    out.add("  \"type\": \"map\",\n  \"version\": \"1.10\",\n  \"tiledversion\": \"1.10.2\",\n");
    out.add("  \"orientation\": \"orthogonal\",\n  \"renderorder\": \"right-down\",\n  \"infinite\": false,\n");
    out.add("  \"tilewidth\": " + std::to_string(tile) + ",\n  \"tileheight\": " + std::to_string(tile) + ",\n");
    out.add("  \"width\": " + formatNumber(std::ceil(info.world.width / tile)) + ",\n  \"height\": "
            + formatNumber(std::ceil(info.world.height / tile)) + ",\n");
    out.add("  \"properties\": [{\"name\": \"grove.graph\", \"type\": \"string\", \"value\": " + jsonQuote(info.graphName)
            + "}, {\"name\": \"grove.hash\", \"type\": \"string\", \"value\": " + jsonQuote(info.graphHash)
            + "}, {\"name\": \"grove.seed\", \"type\": \"int\", \"value\": " + std::to_string(info.world.seed) + "}],\n");
    out.add("  \"tilesets\": [],\n");
    out.add("  \"layers\": [");
    std::size_t objectId = 1;
    for (size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        std::size_t longest = 0;
        const std::vector<std::string> types = typeFields(layer, [](const std::string &name) { return jsonQuote(name); }, longest);
        out.add(li ? ",\n" : "\n");
        out.add("    {\"type\": \"objectgroup\", \"id\": " + std::to_string(li + 1) + ", \"name\": "
                + jsonQuote(layer.info.name) + ", \"draworder\": \"topdown\", \"opacity\": 1, \"visible\": true, "
                + tiledTags(layer.info.tags) + "\"x\": 0, \"y\": 0, \"objects\": [");
        formatInPieces(out, layer.points.size(), threads, 448, [&](TextOut &piece, std::size_t begin, std::size_t end) {
            for (size_t i = begin; i < end; ++i) {
                const PointXYR &pt = layer.points[i];
                const PointAttributes a = layer.attributes(layer.idOf(i));
                const std::string &type = types[static_cast<size_t>(a.type < 0 ? 0 : a.type)];
                char *p = piece.room(2 * longest + 400 + 7 * kNum);  // x, y, the rotation twice, r, scale, z
                p = i ? lit(p, ",\n      {\"id\": ") : lit(p, "\n      {\"id\": ");
                p = whole(p, objectId + i);
                p = lit(p, ", \"name\": \"\", \"type\": ");
                p = TextOut::put(p, type);
                p = lit(p, ", \"class\": ");
                p = TextOut::put(p, type);
                p = lit(p, ", \"point\": true, \"x\": ");
                p = num(p, pt.x);
                p = lit(p, ", \"y\": ");
                p = num(p, pt.y);
                p = lit(p, ", \"width\": 0, \"height\": 0, \"rotation\": ");
                p = num(p, a.rotation);
                p = lit(p, ", \"visible\": true, \"properties\": [{\"name\": \"rotation\", \"type\": \"float\", \"value\": ");
                p = num(p, a.rotation);
                p = lit(p, "}, {\"name\": \"radius\", \"type\": \"float\", \"value\": ");
                p = num(p, pt.r);
                p = lit(p, "}, {\"name\": \"scale\", \"type\": \"float\", \"value\": ");
                p = num(p, a.scale);
                if (!layer.z.empty()) {
                    p = lit(p, "}, {\"name\": \"z\", \"type\": \"float\", \"value\": ");
                    p = num(p, layer.z[i]);
                }
                piece.commit(p);
                for (const AttributeColumn &c : layer.columns) {  // names are [a-z0-9_]: no escaping
                    p = piece.room(c.name.size() + 64 + kNum);
                    p = lit(p, "}, {\"name\": \"");
                    p = TextOut::put(p, c.name);
                    p = lit(p, "\", \"type\": \"float\", \"value\": ");
                    p = num(p, c.values[i]);
                    piece.commit(p);
                }
                p = piece.room(8);
                p = lit(p, "}]}");
                piece.commit(p);
            }
        });
        objectId += layer.points.size();
        out.add(layer.points.empty() ? "]}" : "\n    ]}");
    }
    out.add(layers.empty() ? "],\n" : "\n  ],\n");
    out.add("  \"nextlayerid\": " + std::to_string(layers.size() + 1) + ",\n");
    out.add("  \"nextobjectid\": " + std::to_string(objectId) + "\n");
    out.add("}\n");
    return text;
}

} // namespace

std::string jsonExportHead(const ExportInfo &info, const std::string &extraLine)
{
    std::string out;
    out += "{\n";
    out += "  \"format\": \"grove.points\",\n";
    out += "  \"formatVersion\": 1,\n";
    out += "  \"generator\": {\"name\": \"grove\", \"version\": \"" + std::string(kGroveVersion) + "\"},\n";
    out += "  \"graph\": {\"name\": " + jsonQuote(info.graphName) + ", \"path\": " + jsonQuote(info.graphFile)
           + ", \"hash\": " + jsonQuote(info.graphHash) + ", \"seed\": " + std::to_string(info.world.seed) + "},\n";
    out += "  \"space\": {\"units\": \"world\", \"origin\": \"topLeft\", \"yAxis\": \"down\", \"rotation\": \"degCW\"},\n";
    if (info.bounds)
        out += "  \"bounds\": {\"minX\": " + text(info.bounds->x0) + ", \"minY\": " + text(info.bounds->y0) + ", \"maxX\": "
               + text(info.bounds->x1) + ", \"maxY\": " + text(info.bounds->y1) + "},\n";
    else
        out += "  \"bounds\": {\"minX\": 0, \"minY\": 0, \"maxX\": " + text(info.world.width) + ", \"maxY\": "
               + text(info.world.height) + "},\n";
    if (!extraLine.empty())
        out += "  " + extraLine + ",\n";
    out += "  \"layers\": [";
    return out;
}

std::string jsonLayerHead(const PointLayer &layer, std::size_t count, bool firstLayer)
{
    std::string out = firstLayer ? "\n" : ",\n";
    out += "    {\n";
    out += "      \"name\": " + jsonQuote(layer.info.name) + ",\n";
    out += "      \"node\": " + jsonQuote(layer.info.nodeId) + ",\n";
    out += "      \"count\": " + std::to_string(count) + ",\n";
    if (layer.info.volume)  // place_volume: z is the depth in [0, world.depth), not a terrain height
        out += "      \"z\": \"depth\",\n";
    out += "      \"types\": [";
    const auto types = exportTypes(layer);
    for (size_t t = 0; t < types.size(); ++t)
        out += (t ? ", " : "") + std::string("{\"index\": ") + std::to_string(t) + ", \"name\": " + jsonQuote(types[t].name)
               + ", \"weight\": " + text(types[t].weight) + "}";
    out += "],\n";
    if (!layer.info.tags.empty()) {  // only then: an untagged layer's text is as it always was
        out += "      \"tags\": [" + jsonQuotedList(layer.info.tags) + "],\n";
    }
    out += "      \"points\": [";
    return out;
}

void appendJsonPoints(std::string &text, const PointLayer &layer, bool first, const TextSink *sink, int threads)
{
    TextOut all(text, layer.points.size() * 112, sink);
    formatInPieces(all, layer.points.size(), threads, 112, [&](TextOut &out, std::size_t begin, std::size_t end) {
        appendJsonRange(out, layer, first, begin, end);
    });
}

std::string jsonLayerTail(std::size_t count)
{
    return count == 0 ? "]\n    }" : "\n      ]\n    }";
}

std::string jsonExportTail(std::size_t layers)
{
    return layers == 0 ? "]\n}\n" : "\n  ]\n}\n";
}

std::string csvExportHead(bool anyZ, const std::vector<std::string> &attributes)
{
    std::string head = anyZ ? "layer,id,x,y,r,type,rot,scale,z" : "layer,id,x,y,r,type,rot,scale";
    for (const std::string &name : attributes)
        head += "," + name;
    return head + "\n";
}

std::vector<std::string> attributeNames(const std::vector<PointLayerPtr> &layers)
{
    std::vector<std::string> names;
    for (const PointLayerPtr &layer : layers)
        for (const AttributeColumn &c : layer->columns)
            if (std::find(names.begin(), names.end(), c.name) == names.end())
                names.push_back(c.name);
    return names;
}

std::size_t totalPoints(const std::vector<PointLayerPtr> &layers)
{
    std::size_t n = 0;
    for (const auto &l : layers)
        n += l->points.size();
    return n;
}

std::vector<const AttributeColumn *> columnsNamed(const PointLayer &layer, const std::vector<std::string> &names)
{
    std::vector<const AttributeColumn *> columns;
    for (const std::string &name : names) {
        auto it = std::find_if(layer.columns.begin(), layer.columns.end(), [&](const AttributeColumn &c) { return c.name == name; });
        columns.push_back(it == layer.columns.end() ? nullptr : &*it);
    }
    return columns;
}

void appendCsvRows(std::string &text, const PointLayer &layer, bool anyZ, const std::vector<std::string> &attributes,
                   const TextSink *sink, int threads)
{
    // each export column: the layer's own column of that name, or none (an empty cell)
    const std::vector<const AttributeColumn *> columns = columnsNamed(layer, attributes);
    std::size_t longest = 0;
    const std::vector<std::string> types = typeFields(layer, [](const std::string &name) { return csvField(name); }, longest);
    const std::string name = csvField(layer.info.name);
    TextOut all(text, layer.points.size() * 96, sink);
    formatInPieces(all, layer.points.size(), threads, 96, [&](TextOut &out, std::size_t begin, std::size_t end) {
        for (size_t i = begin; i < end; ++i) {
            const PointXYR &pt = layer.points[i];
            const PointAttributes a = layer.attributes(layer.idOf(i));
            const std::string &type = types[static_cast<size_t>(a.type < 0 ? 0 : a.type)];
            char *p = out.room(name.size() + longest + 64 + (6 + columns.size()) * (kNum + 1));
            p = TextOut::put(p, name);
            *p++ = ',';
            p = whole(p, layer.idOf(i));
            *p++ = ',';
            p = num(p, pt.x);
            *p++ = ',';
            p = num(p, pt.y);
            *p++ = ',';
            p = num(p, pt.r);
            *p++ = ',';
            p = TextOut::put(p, type);
            *p++ = ',';
            p = num(p, a.rotation);
            *p++ = ',';
            p = num(p, a.scale);
            if (anyZ) {
                *p++ = ',';
                if (!layer.z.empty())
                    p = num(p, layer.z[i]);
            }
            for (const AttributeColumn *c : columns) {
                *p++ = ',';
                if (c)
                    p = num(p, c->values[i]);
            }
            *p++ = '\n';
            out.commit(p);
        }
    });
}

std::string exportPoints(ExportFormat format, const ExportInfo &info, const std::vector<PointLayerPtr> &layers,
                         const TextSink *sink, int threads)
{
    switch (format) {
    case ExportFormat::Json: return exportJson(info, layers, sink, threads);
    case ExportFormat::Csv: return exportCsv(layers, sink, threads);
    case ExportFormat::Tiled: return exportTiled(info, layers, sink, threads);
    case ExportFormat::Gltf: return exportGltf(info, layers);  // binary, its lengths up front: whole
    case ExportFormat::Godot: return exportGodot(info, layers, sink);
    case ExportFormat::UnrealCsv: return exportUnrealCsv(layers, sink, threads);
    case ExportFormat::UnrealJson: return exportUnrealJson(layers, sink, threads);
    }
    return {};
}

std::vector<std::string> exportWarnings(ExportFormat format, const std::vector<PointLayerPtr> &layers)
{
    return format == ExportFormat::Godot ? godotWarnings(layers) : std::vector<std::string>{};
}

std::vector<WeightedType> exportTypes(const PointLayer &layer)
{
    if (!layer.info.types.empty())
        return layer.info.types;
    return {WeightedType{layer.info.name, 1}};
}

std::vector<PointLayerPtr> layersOf(const EvalResult &result, const std::vector<std::string> &nodeIds)
{
    std::vector<PointLayerPtr> layers;
    for (const auto &id : nodeIds) {
        PortValue v = result.outputWithRole(id, PortRole::LayerPoints);
        if (const auto *set = std::get_if<PointSetPtr>(&v); set && *set)
            for (const auto &l : (*set)->layers)
                layers.push_back(l);
    }
    return layers;
}

const char *exportExtension(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Json: return "json";
    case ExportFormat::Csv: return "csv";
    case ExportFormat::Tiled: return "tiled.json";
    case ExportFormat::Gltf: return "glb";
    case ExportFormat::Godot: return "tscn";
    case ExportFormat::UnrealCsv: return "unreal.csv";
    case ExportFormat::UnrealJson: return "unreal.json";
    }
    return "json";
}

const char *exportFormatName(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Json: return "json";
    case ExportFormat::Csv: return "csv";
    case ExportFormat::Tiled: return "tiled";
    case ExportFormat::Gltf: return "gltf";
    case ExportFormat::Godot: return "godot";
    case ExportFormat::UnrealCsv: return "unreal";
    case ExportFormat::UnrealJson: return "unreal-json";
    }
    return "json";
}

std::vector<ExportFormat> allExportFormats()
{
    return {ExportFormat::Json, ExportFormat::Csv, ExportFormat::Tiled, ExportFormat::Gltf,
            ExportFormat::Godot, ExportFormat::UnrealCsv, ExportFormat::UnrealJson};
}

bool exportFormatFromName(const std::string &name, ExportFormat &format)
{
    for (ExportFormat f : allExportFormats())
        if (name == exportFormatName(f)) {
            format = f;
            return true;
        }
    return false;
}

} // namespace grove
