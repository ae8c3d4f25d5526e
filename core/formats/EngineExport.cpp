// Engine exports: glTF 2.0 binary with EXT_mesh_gpu_instancing, Godot 4 scenes, Unreal DataTable
// rows. Rotations come from ExactTrig, so the bytes are the same on every machine.
#include "core/formats/EngineExport.h"

#include "core/math/ExactTrig.h"
#include "core/formats/PointsExport.h"
#include "core/base/Diagnostic.h"
#include "core/base/TextEscape.h"
#include "core/base/Value.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
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

// A float as the shortest text that reads back as the same float.
void appendFloat(std::string &out, float v)
{
    char buf[32];
    if (!std::isfinite(v))
        v = 0;
    if (v == 0)
        v = 0;  // no "-0"
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
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
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xFF);
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
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    putU32(bin, bits);
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

// Which attribute each custom-data channel holds, and those left out: scene metadata the
// designer (and a script) reads.
std::string godotAttributeNames(const PointLayer &layer)
{
    if (layer.columns.empty())
        return {};
    auto list = [&](std::size_t from, std::size_t to) {
        std::string text = "PackedStringArray(";
        for (std::size_t c = from; c < to; ++c)
            text += (c > from ? ", " : "") + jsonQuote(layer.columns[c].name);
        return text + ")";
    };
    const std::size_t kept = std::min(layer.columns.size(), kGodotCustomChannels);
    std::string out = "metadata/custom_data = " + list(0, kept) + "\n";
    if (layer.columns.size() > kept)
        out += "metadata/custom_data_left_out = " + list(kept, layer.columns.size()) + "\n";
    return out;
}

} // namespace

std::string exportGltf(const ExportInfo &info, const std::vector<PointLayerPtr> &layers)
{
    const std::vector<Group> groups = groupsOf(layers);
    std::string bin;
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
            putFloat(bin, static_cast<float>(p.x));
            putFloat(bin, static_cast<float>(layer.z.empty() ? 0.0 : layer.z[id]));
            putFloat(bin, static_cast<float>(p.y));
        }
        const std::size_t rotationAt = bin.size();
        for (std::size_t id : group.ids) {
            const auto [c, s] = yawOf(layer.attributes(layer.idOf(id)).rotation * 0.5);  // half angle
            putFloat(bin, 0.0f);
            putFloat(bin, static_cast<float>(s));
            putFloat(bin, 0.0f);
            putFloat(bin, static_cast<float>(c));
        }
        const std::size_t scaleAt = bin.size();
        for (std::size_t id : group.ids) {
            const float s = static_cast<float>(layer.attributes(layer.idOf(id)).scale);
            putFloat(bin, s);
            putFloat(bin, s);
            putFloat(bin, s);
        }
        const int t = addAccessor(addView(translationAt, rotationAt - translationAt, 0), 5126, n, "VEC3", "");
        const int r = addAccessor(addView(rotationAt, scaleAt - rotationAt, 0), 5126, n, "VEC4", "");
        const int sc = addAccessor(addView(scaleAt, bin.size() - scaleAt, 0), 5126, n, "VEC3", "");
        // the layer's attributes as custom instance attributes: `_NAME`, a float a point
        std::string custom;
        for (const AttributeColumn &column : layer.columns) {
            const std::size_t at = bin.size();
            for (std::size_t id : group.ids)
                putFloat(bin, finiteFloat(column.values[id]));
            const int a = addAccessor(addView(at, bin.size() - at, 0), 5126, n, "SCALAR", "");
            custom += ", \"" + gltfAttributeName(column.name) + "\": " + std::to_string(a);
        }
        const std::string name = layer.info.name + "/" + group.typeName;
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
                 + ", \"count\": " + std::to_string(n) + "}}";
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
    out.reserve(total);
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

std::string exportGodot(const ExportInfo &info, const std::vector<PointLayerPtr> &layers)
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
        bool first = true;
        for (std::size_t id : group.ids) {
            const PointXYR &p = layer.points[id];
            const PointAttributes a = layer.attributes(layer.idOf(id));
            const auto [c, s] = yawOf(a.rotation);
            const double sc = a.scale;
            // basis rows, each followed by that row's origin component (Godot's 3x4 layout)
            const double up = layer.z.empty() ? 0.0 : layer.z[id];
            const double row[12] = {c * sc, 0, s * sc, p.x, 0, sc, 0, up, -s * sc, 0, c * sc, p.y};
            for (double v : row) {
                if (!first)
                    out += ", ";
                first = false;
                appendFloat(out, static_cast<float>(v));
            }
            for (std::size_t channel = 0; custom && channel < kGodotCustomChannels; ++channel) {
                out += ", ";
                appendFloat(out, channel < custom ? finiteFloat(layer.columns[channel].values[id]) : 0.0f);
            }
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
        out += godotAttributeNames(*group.layer);
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

// Point i's value of the layer's attribute `name`, or 0 when the layer has none by that name.
double columnValue(const PointLayer &layer, const std::string &name, std::size_t i)
{
    for (const AttributeColumn &c : layer.columns)
        if (c.name == name)
            return c.values[i];
    return 0;
}

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

std::string exportUnrealCsv(const std::vector<PointLayerPtr> &layers)
{
    const auto prefixes = rowPrefixes(layers);
    const std::vector<std::string> attributes = attributeNames(layers);
    std::string out = "Name,Layer,Id,X,Y,Z,Radius,Type,Rotation,Scale";
    for (const std::string &name : attributes)
        out += "," + name;
    out += "\n";
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        const auto types = exportTypes(layer);
        const std::string layerName = csvField(layer.info.name);
        for (std::size_t i = 0; i < layer.points.size(); ++i) {
            const PointXYR &p = layer.points[i];
            const PointAttributes a = layer.attributes(layer.idOf(i));
            const std::size_t t = a.type < 0 || static_cast<std::size_t>(a.type) >= types.size() ? 0 : static_cast<std::size_t>(a.type);
            out += prefixes[li] + std::to_string(layer.idOf(i)) + "," + layerName + "," + std::to_string(layer.idOf(i)) + "," + num(p.x) + ","
                   + num(p.y) + "," + num(layer.z.empty() ? 0.0 : layer.z[i]) + "," + num(p.r) + "," + csvField(types[t].name) + "," + num(a.rotation) + "," + num(a.scale);
            for (const std::string &name : attributes)  // a layer without the attribute: 0, as for Z
                out += "," + num(columnValue(layer, name, i));
            out += "\n";
        }
    }
    return out;
}

std::string exportUnrealJson(const std::vector<PointLayerPtr> &layers)
{
    const auto prefixes = rowPrefixes(layers);
    std::string out = "[";
    bool first = true;
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const PointLayer &layer = *layers[li];
        const auto types = exportTypes(layer);
        for (std::size_t i = 0; i < layer.points.size(); ++i) {
            const PointXYR &p = layer.points[i];
            const PointAttributes a = layer.attributes(layer.idOf(i));
            const std::size_t t = a.type < 0 || static_cast<std::size_t>(a.type) >= types.size() ? 0 : static_cast<std::size_t>(a.type);
            out += first ? "\n  " : ",\n  ";
            first = false;
            out += "{\"Name\": " + jsonQuote(prefixes[li] + std::to_string(layer.idOf(i))) + ", \"Layer\": " + jsonQuote(layer.info.name)
                   + ", \"Id\": " + std::to_string(layer.idOf(i)) + ", \"X\": " + num(p.x) + ", \"Y\": " + num(p.y)
                   + ", \"Z\": " + num(layer.z.empty() ? 0.0 : layer.z[i]) + ", \"Radius\": "
                   + num(p.r) + ", \"Type\": " + jsonQuote(types[t].name) + ", \"Rotation\": " + num(a.rotation)
                   + ", \"Scale\": " + num(a.scale);
            for (const AttributeColumn &column : layer.columns)
                out += ", " + jsonQuote(column.name) + ": " + num(column.values[i]);
            out += "}";
        }
    }
    out += first ? "]\n" : "\n]\n";
    return out;
}

} // namespace grove
