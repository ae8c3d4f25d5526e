// Points export: grove.points JSON, CSV and Tiled object layers (formats.md section 2).
#pragma once

#include "core/base/DataTypes.h"
#include "core/formats/TextOut.h"
#include "core/graph/Graph.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace grove {

struct EvalResult;

enum class ExportFormat { Json, Csv, Tiled, Gltf, Godot, UnrealCsv, UnrealJson };

struct ExportInfo
{
    std::string graphName;
    std::string graphFile;  // the graph file's name without its folder, so exports match on any machine
    std::string graphHash;
    World world;
    // The JSON's bounds when set (an export of a region); else the world's rectangle.
    std::optional<Region> bounds;
};

inline constexpr const char *kGroveVersion = "0.1.0";

// Layers without a types list export as one implicit type named after the layer, so every
// point has a valid type index and name. With a sink, the text goes to it a megabyte at a time as
// it is written and the return is the rest, to be written after it (glTF, binary with its lengths
// up front, comes back whole). `threads` (0: every core) make the text of JSON, CSV, Tiled and
// both Unreal formats (formatInPieces): the same bytes for any count.
std::string exportPoints(ExportFormat format, const ExportInfo &info, const std::vector<PointLayerPtr> &layers,
                         const TextSink *sink = nullptr, int threads = 1);

// The JSON and CSV exports in pieces, for writers that produce a layer's points a part at a time
// (StreamExport, merge); exportPoints joins the same pieces. JSON: head, then per layer its head
// (with its point count), its points, its tail; then the tail. `extraLine` is one more member
// ("\"shard\": {...}") before "layers". A point starts with ",\n" unless it is a layer's first.
std::string jsonExportHead(const ExportInfo &info, const std::string &extraLine = {});
std::string jsonLayerHead(const PointLayer &layer, std::size_t count, bool firstLayer);
void appendJsonPoints(std::string &out, const PointLayer &layer, bool first, const TextSink *sink = nullptr,
                      int threads = 1);
std::string jsonLayerTail(std::size_t count);
std::string jsonExportTail(std::size_t layers);
// CSV: the attributes' columns follow the point's own, one per name in `attributes`
// (attributeNames of the exported layers); a layer without one of them leaves its cells empty.
std::string csvExportHead(bool anyZ, const std::vector<std::string> &attributes = {});
void appendCsvRows(std::string &out, const PointLayer &layer, bool anyZ, const std::vector<std::string> &attributes = {},
                   const TextSink *sink = nullptr, int threads = 1);
// The names of the layers' attributes (PointLayer::columns), each once, in the order first met.
std::vector<std::string> attributeNames(const std::vector<PointLayerPtr> &layers);
// The layer's column of each name in `names` (attributeNames of the exported layers), or null
// where the layer has none by that name: looked up once a layer, not once a point.
std::vector<const AttributeColumn *> columnsNamed(const PointLayer &layer, const std::vector<std::string> &names);
// The points of all the layers, for the writers' reservations.
std::size_t totalPoints(const std::vector<PointLayerPtr> &layers);

// What the format cannot carry of these layers, a sentence each (Godot: attributes past the fourth).
std::vector<std::string> exportWarnings(ExportFormat format, const std::vector<PointLayerPtr> &layers);

// A layer's types as exports list them: its types, or one implicit type named after the layer.
std::vector<WeightedType> exportTypes(const PointLayer &layer);

// The names of exportTypes(layer), each as the format writes it (`field`: csvField, jsonQuote),
// and in `longest` the longest one's size (what a record's room must hold).
template <class Field>
std::vector<std::string> typeFields(const PointLayer &layer, Field field, std::size_t &longest)
{
    std::vector<std::string> out;
    longest = 0;
    for (const WeightedType &t : exportTypes(layer)) {
        out.push_back(field(t.name));
        longest = std::max(longest, out.back().size());
    }
    return out;
}

// The layers of the given nodes' `points` outputs, in the given order.
std::vector<PointLayerPtr> layersOf(const EvalResult &result, const std::vector<std::string> &nodeIds);

const char *exportExtension(ExportFormat format);  // "json", "csv", "tiled.json", "glb", "tscn", ...
// The format's name on the command line and in exports' messages ("json", "gltf", "unreal", ...),
// and back; false for a name no format has.
const char *exportFormatName(ExportFormat format);
bool exportFormatFromName(const std::string &name, ExportFormat &format);
// Every format's name, in the order the CLI's help and the Export dialog list them.
std::vector<ExportFormat> allExportFormats();

} // namespace grove
