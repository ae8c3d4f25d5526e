// Engine exports: glTF 2.0 binary with EXT_mesh_gpu_instancing, Godot 4 scenes, Unreal DataTable
// rows. Rotations come from ExactTrig, so the bytes are the same on every machine.
#include "core/formats/EngineExport.h"

#include "core/math/ExactTrig.h"
#include "core/formats/PointsExport.h"
#include "core/formats/TextOut.h"
#include "core/base/Diagnostic.h"
#include "core/base/TextEscape.h"
#include "core/base/Value.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>

namespace grove {

namespace {

// The points of one layer and type, in the layer's order.
struct Group
{
    const PointLayer *layer;
    std::size_t layerIndex;
    std::int32_t type;
    std::string typeName;
    std::vector<std::size_t> ids;
};

std::vector<Group> groupsOf(const std::vector<PointLayerPtr> &layers)
{
    std::vector<Group> groups;
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        const auto types = exportTypes(layer);
        std::vector<Group> mine(types.size());
        for (std::size_t t = 0; t < types.size(); ++t)
            mine[t] = {&layer, li, static_cast<std::int32_t>(t), types[t].name, {}};
        for (std::size_t i = 0; i < layer.points.size(); ++i) {
            const PointAttributes a = layer.attributes(layer.idOf(i));
            const std::size_t t = a.type < 0 || static_cast<std::size_t>(a.type) >= types.size() ? 0 : static_cast<std::size_t>(a.type);
            mine[t].ids.push_back(i);
        }
        for (auto &g : mine)
            if (!g.ids.empty())
                groups.push_back(std::move(g));
    }
    return groups;
}

std::string num(double v) { return std::isfinite(v) ? formatNumber(v) : std::string("0"); }

// num's text written into a TextOut's room (kMaxNumberChars at most).
char *numberOrZero(char *p, double v) { return std::isfinite(v) ? writeNumber(p, v) : lit(p, "0"); }

void appendFloat(std::string &out, float v)
{
    char buf[kMaxFloatChars];
    out.append(buf, floatText(buf, v));
}

// A float's four bytes, little-endian, as glTF's binary chunk holds them.
char *putFloat(char *p, float v)
{
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return littleEndian32(p, bits);
}

// Rotation about +Y by Grove's clockwise degrees seen from above (x right, y down, mapped to
// X and Z): -rot in the right-handed Y-up frame. Returns (cos, sin) of that angle.
std::pair<double, double> yawOf(double rotationDegrees) { return unitVectorDegrees(-rotationDegrees); }

// The marker: a four-sided pyramid of unit height and half-width 0.25, apex up (+Y).
constexpr std::array<float, 15> kMarkerPositions = {-0.25f, 0, -0.25f, 0.25f, 0, -0.25f, 0.25f, 0, 0.25f,
                                                    -0.25f, 0, 0.25f, 0, 1, 0};
constexpr std::array<std::uint16_t, 18> kMarkerIndices = {0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4, 0, 2, 1, 0, 3, 2};

std::string sanitized(const std::string &name)
{
    std::string out;
    for (char c : name)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    return out.empty() ? std::string("layer") : out;
}

void putU32(std::string &out, std::uint32_t v)
{
    char bytes[4];
    out.append(bytes, littleEndian32(bytes, v));
}

// An attribute's value as a float32 an engine can use: NaN and infinities (a field undefined
// there) become 0, as in every other engine export.
float finiteFloat(double v) { return std::isfinite(v) ? static_cast<float>(v) : 0.0f; }

// glTF's name for a custom attribute: an underscore, then the name in upper case.
std::string gltfAttributeName(const std::string &name)
{
    std::string out = "_";
    for (char c : name)
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

void putFloat(std::string &bin, float v)
{
    char bytes[4];
    bin.append(bytes, putFloat(bytes, v));
}

// The bytes of the instances' floats: translation, rotation and scale, then one float per attribute.
std::size_t instanceBytes(const std::vector<PointLayerPtr> &layers)
{
    std::size_t bytes = 0;
    for (const PointLayerPtr &layer : layers)
        bytes += layer->points.size() * 4 * (10 + layer->columns.size());
    return bytes;
}

std::string colorText(const Rgb &c)
{
    std::string out;
    for (int i = 0; i < 3; ++i) {
        appendFloat(out, static_cast<float>(c[static_cast<std::size_t>(i)] / 255.0));
        out += ", ";
    }
    return out + "1";
}

// Godot's MultiMesh custom data: four floats an instance (INSTANCE_CUSTOM in a shader).
constexpr std::size_t kGodotCustomChannels = 4;

// Which attribute each custom-data channel holds, and those left out, and a tagged layer's tags:
// scene metadata the designer (and a script) reads. Nothing for a layer with neither.
std::string godotLayerMetadata(const PointLayer &layer)
{
    std::vector<std::string> kept, leftOut;
    for (const AttributeColumn &c : layer.columns)
        (kept.size() < kGodotCustomChannels ? kept : leftOut).push_back(c.name);
    std::string out;
    if (!kept.empty())
        out += "metadata/custom_data = PackedStringArray(" + jsonQuotedList(kept) + ")\n";
    if (!leftOut.empty())
        out += "metadata/custom_data_left_out = PackedStringArray(" + jsonQuotedList(leftOut) + ")\n";
    if (!layer.info.tags.empty())
        out += "metadata/tags = PackedStringArray(" + jsonQuotedList(layer.info.tags) + ")\n";
    return out;
}

} // namespace

std::string exportGltf(const ExportInfo &info, const std::vector<PointLayerPtr> &layers)
{
    const std::vector<Group> groups = groupsOf(layers);
    std::string bin;
    TextOut binOut(bin, 256 + instanceBytes(layers));
    std::string views, accessors, meshes, materials, nodes, sceneNodes;
    int viewCount = 0, accessorCount = 0;
    auto addView = [&](std::size_t offset, std::size_t length, int target) {
        views += std::string(viewCount ? ", " : "") + "{\"buffer\": 0, \"byteOffset\": " + std::to_string(offset)
                 + ", \"byteLength\": " + std::to_string(length)
                 + (target ? ", \"target\": " + std::to_string(target) : std::string()) + "}";
        return viewCount++;
    };
    auto addAccessor = [&](int view, int componentType, std::size_t count, const char *type, const std::string &extra) {
        accessors += std::string(accessorCount ? ", " : "") + "{\"bufferView\": " + std::to_string(view)
                     + ", \"componentType\": " + std::to_string(componentType) + ", \"count\": " + std::to_string(count)
                     + ", \"type\": \"" + type + "\"" + extra + "}";
        return accessorCount++;
    };

    // the marker's geometry, shared by every mesh
    const std::size_t positionsAt = bin.size();
    for (float v : kMarkerPositions)
        putFloat(bin, v);
    const int positionView = addView(positionsAt, bin.size() - positionsAt, 34962);
    const int positions = addAccessor(positionView, 5126, 5, "VEC3", ", \"min\": [-0.25, 0, -0.25], \"max\": [0.25, 1, 0.25]");
    const std::size_t indicesAt = bin.size();
    for (std::uint16_t i : kMarkerIndices) {
        bin += static_cast<char>(i & 0xFF);
        bin += static_cast<char>(i >> 8);
    }
    const int indexView = addView(indicesAt, bin.size() - indicesAt, 34963);
    const int indices = addAccessor(indexView, 5123, kMarkerIndices.size(), "SCALAR", "");
    while (bin.size() % 4)
        bin += '\0';

    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group &group = groups[g];
        const PointLayer &layer = *group.layer;
        const std::size_t n = group.ids.size();
        const std::size_t translationAt = bin.size();
        for (std::size_t id : group.ids) {
            const PointXYR &p = layer.points[id];
            char *at = binOut.room(12);
            at = putFloat(at, static_cast<float>(p.x));
            at = putFloat(at, static_cast<float>(layer.z.empty() ? 0.0 : layer.z[id]));
            binOut.commit(putFloat(at, static_cast<float>(p.y)));
        }
        const std::size_t rotationAt = bin.size();
        for (std::size_t id : group.ids) {
            const auto [c, s] = yawOf(layer.attributes(layer.idOf(id)).rotation * 0.5);  // half angle
            char *at = binOut.room(16);
            at = putFloat(at, 0.0f);
            at = putFloat(at, static_cast<float>(s));
            at = putFloat(at, 0.0f);
            binOut.commit(putFloat(at, static_cast<float>(c)));
        }
        const std::size_t scaleAt = bin.size();
        for (std::size_t id : group.ids) {
            const float s = static_cast<float>(layer.attributes(layer.idOf(id)).scale);
            char *at = binOut.room(12);
            at = putFloat(at, s);
            at = putFloat(at, s);
            binOut.commit(putFloat(at, s));
        }
        const int t = addAccessor(addView(translationAt, rotationAt - translationAt, 0), 5126, n, "VEC3", "");
        const int r = addAccessor(addView(rotationAt, scaleAt - rotationAt, 0), 5126, n, "VEC4", "");
        const int sc = addAccessor(addView(scaleAt, bin.size() - scaleAt, 0), 5126, n, "VEC3", "");
        // the layer's attributes as custom instance attributes: `_NAME`, a float a point
        std::string custom;
        for (const AttributeColumn &column : layer.columns) {
            const std::size_t at = bin.size();
            for (std::size_t id : group.ids)
                binOut.commit(putFloat(binOut.room(4), finiteFloat(column.values[id])));
            const int a = addAccessor(addView(at, bin.size() - at, 0), 5126, n, "SCALAR", "");
            custom += ", \"" + gltfAttributeName(column.name) + "\": " + std::to_string(a);
        }
        const std::string name = layer.info.name + "/" + group.typeName;
        // only a tagged layer's node names them: an untagged one's bytes stay as ever
        const std::string tags = layer.info.tags.empty() ? "" : ", \"tags\": [" + jsonQuotedList(layer.info.tags) + "]";
        materials += std::string(g ? ", " : "") + "{\"name\": " + jsonQuote(name)
                     + ", \"pbrMetallicRoughness\": {\"baseColorFactor\": [" + colorText(layer.info.color)
                     + "], \"metallicFactor\": 0, \"roughnessFactor\": 1}}";
        meshes += std::string(g ? ", " : "") + "{\"name\": " + jsonQuote("marker " + name)
                  + ", \"primitives\": [{\"attributes\": {\"POSITION\": " + std::to_string(positions)
                  + "}, \"indices\": " + std::to_string(indices) + ", \"material\": " + std::to_string(g) + ", \"mode\": 4}]}";
        nodes += std::string(g ? ", " : "") + "{\"name\": " + jsonQuote(name) + ", \"mesh\": " + std::to_string(g)
                 + ", \"extensions\": {\"EXT_mesh_gpu_instancing\": {\"attributes\": {\"TRANSLATION\": " + std::to_string(t)
                 + ", \"ROTATION\": " + std::to_string(r) + ", \"SCALE\": " + std::to_string(sc) + custom
                 + "}}}, \"extras\": {\"layer\": " + jsonQuote(layer.info.name) + ", \"node\": " + jsonQuote(layer.info.nodeId)
                 + ", \"type\": " + jsonQuote(group.typeName) + ", \"typeIndex\": " + std::to_string(group.type)
                 + ", \"count\": " + std::to_string(n) + tags + "}}";
        sceneNodes += std::string(g ? ", " : "") + std::to_string(g);
    }

    std::string json = "{\"asset\": {\"version\": \"2.0\", \"generator\": \"grove " + std::string(kGroveVersion) + "\"}";
    if (!groups.empty())
        json += ", \"extensionsUsed\": [\"EXT_mesh_gpu_instancing\"], \"extensionsRequired\": [\"EXT_mesh_gpu_instancing\"]";
    json += ", \"extras\": {\"grove\": {\"graph\": " + jsonQuote(info.graphName) + ", \"path\": " + jsonQuote(info.graphFile)
            + ", \"hash\": " + jsonQuote(info.graphHash) + ", \"seed\": " + std::to_string(info.world.seed)
            + ", \"width\": " + num(info.world.width) + ", \"height\": " + num(info.world.height)
            + ", \"axes\": \"grove x -> +X, grove y -> +Z, up +Y; rotation about +Y = -rot\"}}";
    json += ", \"scene\": 0, \"scenes\": [{\"name\": " + jsonQuote(info.graphName.empty() ? "grove" : info.graphName)
            + (groups.empty() ? std::string() : ", \"nodes\": [" + sceneNodes + "]") + "}]";
    if (!groups.empty()) {
        json += ", \"nodes\": [" + nodes + "], \"meshes\": [" + meshes + "], \"materials\": [" + materials + "]";
        json += ", \"buffers\": [{\"byteLength\": " + std::to_string(bin.size()) + "}]";
        json += ", \"bufferViews\": [" + views + "], \"accessors\": [" + accessors + "]";
    }
    json += "}";
    while (json.size() % 4)
        json += ' ';

    const bool withBin = !groups.empty();
    const std::size_t total = 12 + 8 + json.size() + (withBin ? 8 + bin.size() : 0);
    std::string out;
    reserveText(out, total);  // written whole next, on huge pages as the binary chunk was
    putU32(out, 0x46546C67);  // "glTF"
    putU32(out, 2);
    putU32(out, static_cast<std::uint32_t>(total));
    putU32(out, static_cast<std::uint32_t>(json.size()));
    putU32(out, 0x4E4F534A);  // "JSON"
    out += json;
    if (withBin) {
        putU32(out, static_cast<std::uint32_t>(bin.size()));
        putU32(out, 0x004E4942);  // "BIN\0"
        out += bin;
    }
    return out;
}

std::string exportGodot(const ExportInfo &info, const std::vector<PointLayerPtr> &layers, const TextSink *sink)
{
    const std::vector<Group> groups = groupsOf(layers);
    std::string out = "[gd_scene load_steps=" + std::to_string(groups.size() * 3 + 1) + " format=3]\n\n";
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group &group = groups[g];
        const PointLayer &layer = *group.layer;
        const std::string k = std::to_string(g + 1);
        out += "[sub_resource type=\"StandardMaterial3D\" id=\"material_" + k + "\"]\nalbedo_color = Color("
               + colorText(layer.info.color) + ")\n\n";
        out += "[sub_resource type=\"PrismMesh\" id=\"marker_" + k + "\"]\nmaterial = SubResource(\"material_" + k
               + "\")\nsize = Vector3(0.5, 1, 0.5)\n\n";
        // custom data: the layer's first four attributes, a float each, 0 for the channels left over
        const std::size_t custom = std::min<std::size_t>(layer.columns.size(), kGodotCustomChannels);
        out += "[sub_resource type=\"MultiMesh\" id=\"multimesh_" + k + "\"]\ntransform_format = 1\n"
               + std::string(custom ? "use_custom_data = true\n" : "") + "instance_count = "
               + std::to_string(group.ids.size()) + "\nmesh = SubResource(\"marker_" + k + "\")\nbuffer = PackedFloat32Array(";
        const std::size_t floats = 12 + (custom ? kGodotCustomChannels : 0);  // an instance's
        TextOut text(out, group.ids.size() * floats * 12, sink);
        bool first = true;
        for (std::size_t id : group.ids) {
            const PointXYR &p = layer.points[id];
            const PointAttributes a = layer.attributes(layer.idOf(id));
            const auto [c, s] = yawOf(a.rotation);
            const double sc = a.scale;
            // basis rows, each followed by that row's origin component (Godot's 3x4 layout)
            const double up = layer.z.empty() ? 0.0 : layer.z[id];
            const double row[12] = {c * sc, 0, s * sc, p.x, 0, sc, 0, up, -s * sc, 0, c * sc, p.y};
            char *at = text.room(floats * (kMaxFloatChars + 2));
            for (double v : row) {
                if (!first)
                    at = lit(at, ", ");
                first = false;
                at = floatText(at, static_cast<float>(v));
            }
            for (std::size_t channel = 0; custom && channel < kGodotCustomChannels; ++channel) {
                at = lit(at, ", ");
                at = floatText(at, channel < custom ? finiteFloat(layer.columns[channel].values[id]) : 0.0f);
            }
            text.commit(at);
        }
        out += ")\n\n";
    }
    out += "[node name=\"" + sanitized(info.graphName.empty() ? std::string("grove") : info.graphName) + "\" type=\"Node3D\"]\n";
    out += "metadata/grove_graph = " + jsonQuote(info.graphName) + "\nmetadata/grove_hash = " + jsonQuote(info.graphHash)
           + "\nmetadata/grove_seed = " + std::to_string(info.world.seed) + "\n";
    std::set<std::string> used;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group &group = groups[g];
        std::string name = sanitized(group.layer->info.name + "_" + group.typeName);
        while (!used.insert(name).second)
            name += "_" + std::to_string(g + 1);
        out += "\n[node name=\"" + name + "\" type=\"MultiMeshInstance3D\" parent=\".\"]\nmultimesh = SubResource(\"multimesh_"
               + std::to_string(g + 1) + "\")\nmetadata/layer = " + jsonQuote(group.layer->info.name) + "\nmetadata/type = "
               + jsonQuote(group.typeName) + "\nmetadata/count = " + std::to_string(group.ids.size()) + "\n";
        out += godotLayerMetadata(*group.layer);
    }
    return out;
}

std::vector<std::string> godotWarnings(const std::vector<PointLayerPtr> &layers)
{
    std::vector<std::string> out;
    for (const PointLayerPtr &layer : layers) {
        if (layer->columns.size() <= kGodotCustomChannels)
            continue;
        std::string names;
        for (std::size_t c = kGodotCustomChannels; c < layer->columns.size(); ++c)
            names += (names.empty() ? "" : ", ") + layer->columns[c].name;
        out.push_back("godot: layer " + quote(layer->info.name) + " has " + std::to_string(layer->columns.size())
                      + " attributes; a MultiMesh's custom data holds the first 4; left out: " + names
                      + " (export json or gltf for them)");
    }
    return out;
}

namespace {

// Row keys: the layer's name made safe (letters, digits, _), then the point's id. Two layers
// whose safe names meet get their layer number appended, so every key is unique.
std::vector<std::string> rowPrefixes(const std::vector<PointLayerPtr> &layers)
{
    std::map<std::string, int> seen;
    for (const auto &l : layers)
        ++seen[sanitized(l->info.name)];
    std::vector<std::string> out;
    for (std::size_t li = 0; li < layers.size(); ++li) {
        std::string base = sanitized(layers[li]->info.name);
        if (seen[base] > 1)
            base += "_L" + std::to_string(li + 1);
        out.push_back(base + "_");
    }
    return out;
}

} // namespace

std::string exportUnrealCsv(const std::vector<PointLayerPtr> &layers, const TextSink *sink, int threads)
{
    const auto prefixes = rowPrefixes(layers);
    const std::vector<std::string> attributes = attributeNames(layers);
    std::string out = "Name,Layer,Id,X,Y,Z,Radius,Type,Rotation,Scale";
    for (const std::string &name : attributes)
        out += "," + name;
    out += "\n";
    TextOut text(out, (totalPoints(layers) + 1) * (128 + 24 * attributes.size()), sink);
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        std::size_t longest = 0;
        const std::vector<std::string> types = typeFields(layer, [](const std::string &name) { return csvField(name); }, longest);
        const std::string layerName = csvField(layer.info.name);
        const std::vector<const AttributeColumn *> columns = columnsNamed(layer, attributes);
        formatInPieces(text, layer.points.size(), threads, 128 + 24 * attributes.size(), [&](TextOut &piece, std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                const PointXYR &p = layer.points[i];
                const PointAttributes a = layer.attributes(layer.idOf(i));
                const std::size_t t = a.type < 0 || static_cast<std::size_t>(a.type) >= types.size() ? 0 : static_cast<std::size_t>(a.type);
                char *at = piece.room(prefixes[li].size() + layerName.size() + longest + 64 + (7 + columns.size()) * (kMaxNumberChars + 1));
                at = TextOut::put(at, prefixes[li]);
                at = whole(at, layer.idOf(i));
                *at++ = ',';
                at = TextOut::put(at, layerName);
                *at++ = ',';
                at = whole(at, layer.idOf(i));
                for (double v : {p.x, p.y, layer.z.empty() ? 0.0 : layer.z[i], p.r}) {
                    *at++ = ',';
                    at = numberOrZero(at, v);
                }
                *at++ = ',';
                at = TextOut::put(at, types[t]);
                *at++ = ',';
                at = numberOrZero(at, a.rotation);
                *at++ = ',';
                at = numberOrZero(at, a.scale);
                for (const AttributeColumn *column : columns) {  // a layer without the attribute: 0, as for Z
                    *at++ = ',';
                    at = numberOrZero(at, column ? column->values[i] : 0.0);
                }
                *at++ = '\n';
                piece.commit(at);
            }
        });
    }
    return out;
}

std::string exportUnrealJson(const std::vector<PointLayerPtr> &layers, const TextSink *sink, int threads)
{
    const auto prefixes = rowPrefixes(layers);
    std::string out = "[";
    TextOut text(out, totalPoints(layers) * 200 + 8, sink);
    bool first = true;
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        std::size_t longest = 0;
        const std::vector<std::string> types = typeFields(layer, [](const std::string &name) { return jsonQuote(name); }, longest);
        const std::string layerName = jsonQuote(layer.info.name);
        std::vector<std::string> columnNames;  // `, "name": `
        std::size_t namesSize = 0;
        for (const AttributeColumn &column : layer.columns) {
            columnNames.push_back(", " + jsonQuote(column.name) + ": ");
            namesSize += columnNames.back().size();
        }
        const bool firstOfAll = first;
        formatInPieces(text, layer.points.size(), threads, 200, [&](TextOut &piece, std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                const PointXYR &p = layer.points[i];
                const PointAttributes a = layer.attributes(layer.idOf(i));
                const std::size_t t = a.type < 0 || static_cast<std::size_t>(a.type) >= types.size() ? 0 : static_cast<std::size_t>(a.type);
                char *at = piece.room(prefixes[li].size() + layerName.size() + longest + namesSize + 160
                                      + (8 + layer.columns.size()) * kMaxNumberChars);
                at = firstOfAll && i == 0 ? lit(at, "\n  {\"Name\": \"") : lit(at, ",\n  {\"Name\": \"");
                at = TextOut::put(at, prefixes[li]);  // letters, digits and _: nothing to escape
                at = whole(at, layer.idOf(i));
                at = lit(at, "\", \"Layer\": ");
                at = TextOut::put(at, layerName);
                at = lit(at, ", \"Id\": ");
                at = whole(at, layer.idOf(i));
                at = lit(at, ", \"X\": ");
                at = numberOrZero(at, p.x);
                at = lit(at, ", \"Y\": ");
                at = numberOrZero(at, p.y);
                at = lit(at, ", \"Z\": ");
                at = numberOrZero(at, layer.z.empty() ? 0.0 : layer.z[i]);
                at = lit(at, ", \"Radius\": ");
                at = numberOrZero(at, p.r);
                at = lit(at, ", \"Type\": ");
                at = TextOut::put(at, types[t]);
                at = lit(at, ", \"Rotation\": ");
                at = numberOrZero(at, a.rotation);
                at = lit(at, ", \"Scale\": ");
                at = numberOrZero(at, a.scale);
                for (std::size_t c = 0; c < layer.columns.size(); ++c) {
                    at = TextOut::put(at, columnNames[c]);
                    at = numberOrZero(at, layer.columns[c].values[i]);
                }
                *at++ = '}';
                piece.commit(at);
            }
        });
        first = first && layer.points.empty();
    }
    text.add(first ? "]\n" : "\n]\n");
    return out;
}

} // namespace grove
