// Writers for the points export formats; every number in shortest round-trip form.
#include "PointsExport.h"

#include "EngineExport.h"
#include "Evaluator.h"
#include "TextEscape.h"
#include "Value.h"

#include <cmath>

namespace grove {

namespace {

std::string num(double v)
{
    // JSON has no inf/nan; export data never holds them, but never write invalid JSON either
    return std::isfinite(v) ? formatNumber(v) : std::string("null");
}

std::vector<WeightedType> typesOf(const PointLayer &layer)
{
    if (!layer.info.types.empty())
        return layer.info.types;
    return {WeightedType{layer.info.name, 1}};
}

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string exportJson(const ExportInfo &info, const std::vector<PointLayerPtr> &layers)
{
    std::string out;
    out += "{\n";
    out += "  \"format\": \"grove.points\",\n";
    out += "  \"formatVersion\": 1,\n";
    out += "  \"generator\": {\"name\": \"grove\", \"version\": \"" + std::string(kGroveVersion) + "\"},\n";
    out += "  \"graph\": {\"name\": " + jsonQuote(info.graphName) + ", \"path\": " + jsonQuote(info.graphFile)
           + ", \"hash\": " + jsonQuote(info.graphHash) + ", \"seed\": " + std::to_string(info.world.seed) + "},\n";
    out += "  \"space\": {\"units\": \"world\", \"origin\": \"topLeft\", \"yAxis\": \"down\", \"rotation\": \"degCW\"},\n";
    out += "  \"bounds\": {\"minX\": 0, \"minY\": 0, \"maxX\": " + num(info.world.width) + ", \"maxY\": "
           + num(info.world.height) + "},\n";
    out += "  \"layers\": [";
    for (size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        out += li ? ",\n" : "\n";
        out += "    {\n";
        out += "      \"name\": " + jsonQuote(layer.info.name) + ",\n";
        out += "      \"node\": " + jsonQuote(layer.info.nodeId) + ",\n";
        out += "      \"count\": " + std::to_string(layer.points.size()) + ",\n";
        out += "      \"types\": [";
        const auto types = typesOf(layer);
        for (size_t t = 0; t < types.size(); ++t)
            out += (t ? ", " : "") + std::string("{\"index\": ") + std::to_string(t) + ", \"name\": "
                   + jsonQuote(types[t].name) + ", \"weight\": " + num(types[t].weight) + "}";
        out += "],\n";
        out += "      \"points\": [";
        std::string line;
        for (size_t i = 0; i < layer.points.size(); ++i) {
            const PointXYR &p = layer.points[i];
            const PointAttributes a = layer.attributes(i);
            line.clear();
            line += i ? ",\n        " : "\n        ";
            line += "{\"id\": " + std::to_string(i) + ", \"x\": " + num(p.x) + ", \"y\": " + num(p.y) + ", \"r\": "
                    + num(p.r) + ", \"t\": " + std::to_string(a.type < 0 ? 0 : a.type) + ", \"rot\": "
                    + num(a.rotation) + ", \"s\": " + num(a.scale) + "}";
            out += line;
        }
        out += layer.points.empty() ? "]\n" : "\n      ]\n";
        out += "    }";
    }
    out += layers.empty() ? "]\n" : "\n  ]\n";
    out += "}\n";
    return out;
}

std::string exportCsv(const std::vector<PointLayerPtr> &layers)
{
    std::string out = "layer,id,x,y,r,type,rot,scale\n";
    for (const auto &lp : layers) {
        const PointLayer &layer = *lp;
        const auto types = typesOf(layer);
        const std::string name = csvField(layer.info.name);
        for (size_t i = 0; i < layer.points.size(); ++i) {
            const PointXYR &p = layer.points[i];
            const PointAttributes a = layer.attributes(i);
            out += name + "," + std::to_string(i) + "," + num(p.x) + "," + num(p.y) + "," + num(p.r) + ","
                   + csvField(types[static_cast<size_t>(a.type < 0 ? 0 : a.type)].name) + "," + num(a.rotation) + ","
                   + num(a.scale) + "\n";
        }
    }
    return out;
}

std::string exportTiled(const ExportInfo &info, const std::vector<PointLayerPtr> &layers)
{
    const int tile = 16;
    std::string out = "{\n";
    out += "  \"type\": \"map\",\n  \"version\": \"1.10\",\n  \"tiledversion\": \"1.10.2\",\n";
    out += "  \"orientation\": \"orthogonal\",\n  \"renderorder\": \"right-down\",\n  \"infinite\": false,\n";
    out += "  \"tilewidth\": " + std::to_string(tile) + ",\n  \"tileheight\": " + std::to_string(tile) + ",\n";
    out += "  \"width\": " + formatNumber(std::ceil(info.world.width / tile)) + ",\n  \"height\": "
           + formatNumber(std::ceil(info.world.height / tile)) + ",\n";
    out += "  \"properties\": [{\"name\": \"grove.graph\", \"type\": \"string\", \"value\": " + jsonQuote(info.graphName)
           + "}, {\"name\": \"grove.hash\", \"type\": \"string\", \"value\": " + jsonQuote(info.graphHash)
           + "}, {\"name\": \"grove.seed\", \"type\": \"int\", \"value\": " + std::to_string(info.world.seed) + "}],\n";
    out += "  \"tilesets\": [],\n";
    out += "  \"layers\": [";
    std::size_t objectId = 1;
    for (size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        const auto types = typesOf(layer);
        out += li ? ",\n" : "\n";
        out += "    {\"type\": \"objectgroup\", \"id\": " + std::to_string(li + 1) + ", \"name\": "
               + jsonQuote(layer.info.name) + ", \"draworder\": \"topdown\", \"opacity\": 1, \"visible\": true, "
                 "\"x\": 0, \"y\": 0, \"objects\": [";
        for (size_t i = 0; i < layer.points.size(); ++i) {
            const PointXYR &p = layer.points[i];
            const PointAttributes a = layer.attributes(i);
            const std::string type = jsonQuote(types[static_cast<size_t>(a.type < 0 ? 0 : a.type)].name);
            out += i ? ",\n      " : "\n      ";
            out += "{\"id\": " + std::to_string(objectId++) + ", \"name\": \"\", \"type\": " + type + ", \"class\": "
                   + type + ", \"point\": true, \"x\": " + num(p.x) + ", \"y\": " + num(p.y)
                   + ", \"width\": 0, \"height\": 0, \"rotation\": " + num(a.rotation)
                   + ", \"visible\": true, \"properties\": [{\"name\": \"rotation\", \"type\": \"float\", \"value\": "
                   + num(a.rotation) + "}, {\"name\": \"radius\", \"type\": \"float\", \"value\": "
                   + num(p.r) + "}, {\"name\": \"scale\", \"type\": \"float\", \"value\": " + num(a.scale) + "}]}";
        }
        out += layer.points.empty() ? "]}" : "\n    ]}";
    }
    out += layers.empty() ? "],\n" : "\n  ],\n";
    out += "  \"nextlayerid\": " + std::to_string(layers.size() + 1) + ",\n";
    out += "  \"nextobjectid\": " + std::to_string(objectId) + "\n";
    out += "}\n";
    return out;
}

} // namespace

std::string exportPoints(ExportFormat format, const ExportInfo &info, const std::vector<PointLayerPtr> &layers)
{
    switch (format) {
    case ExportFormat::Json: return exportJson(info, layers);
    case ExportFormat::Csv: return exportCsv(layers);
    case ExportFormat::Tiled: return exportTiled(info, layers);
    case ExportFormat::Gltf: return exportGltf(info, layers);
    case ExportFormat::Godot: return exportGodot(info, layers);
    case ExportFormat::UnrealCsv: return exportUnrealCsv(layers);
    case ExportFormat::UnrealJson: return exportUnrealJson(layers);
    }
    return {};
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
