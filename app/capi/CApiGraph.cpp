// libgrove's graphs: the handle registry, opening, and a layer's points in a region, checked first.
#include "CApiGraph.h"

#include "CApiHandles.h"

#include "core/graph/GroupGraph.h"
#include "core/sampling/ChunkedLayer.h"
#include "core/graph/NodeRegistry.h"
#include "core/graph/Overrides.h"
#include "core/formats/PointsExport.h"
#include "core/sampling/RegionBudget.h"
#include "core/base/Value.h"
#include "nodes/BuiltinNodes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace grove::capi {

namespace {

HandleRegistry<GraphState, grove_graph> &registry()
{
    // never destroyed: calls may run while the process exits
    static auto *r = new HandleRegistry<GraphState, grove_graph>(1, "graph", "grove_open");
    return *r;
}

} // namespace

std::shared_ptr<GraphState> acquire(grove_graph *handle, std::string &message)
{
    return registry().find(handle, message);
}

std::shared_ptr<GraphState> release(grove_graph *handle)
{
    return registry().take(handle);
}

grove_graph *openLoaded(LoadResult loaded, const GroupResolver &groups, const std::string &fileName, long long maxPoints,
                        const std::vector<std::string> &sets, std::string &message)
{
    const NodeRegistry &nodes = groups.registry();
    if (loaded.ok())
        expandLoadedGroups(loaded, fileName, groups);  // group nodes: their files' layers, as grove-cli
    // Messages as grove-cli prints them: the loader's (warnings too), then evaluation's.
    std::string text;
    for (const Diagnostic &d : loaded.diagnostics)
        text += d.format() + "\n";
    auto fail = [&]() -> grove_graph * {
        if (!text.empty() && text.back() == '\n')
            text.pop_back();
        message = text.empty() ? "the graph did not load" : text;
        return nullptr;
    };
    if (!loaded.ok())
        return fail();
    for (const std::string &s : sets)  // after the groups are expanded, as grove-cli applies --set
        if (auto problem = applyOverride(loaded.graph, nodes, s)) {
            text += fileName + ": error: --set " + s + ": " + *problem + "\n";
            return fail();
        }

    auto state = std::make_shared<GraphState>();
    state->maxPoints = maxPoints;
    const Graph &graph = loaded.graph;
    state->world = graph.world;
    const std::vector<std::string> ids = exportedLayers(graph, nodes);
    if (!ids.empty()) {
        Evaluator evaluator(nodes);
        EvalRequest request;
        request.targets = ids;
        request.limits.placeWholeWorld = false;  // chunked layers stay lazy: regions ask for chunks
        request.limits.threads = 0;
        request.limits.maxPointsPerLayer = static_cast<std::uint64_t>(maxPoints);
        state->result = evaluator.evaluate(graph, request);
        if (!state->result.ok()) {
            for (Diagnostic d : state->result.diagnostics) {
                d.file = fileName;
                locate(loaded, d);
                text += d.format() + "\n";
            }
            return fail();
        }
        const std::vector<PointLayerPtr> layers = layersOf(state->result, ids);
        for (std::size_t k = 0; k < ids.size(); ++k) {
            if (!layers[k])
                continue;
            LayerEntry e;
            e.name = layerName(graph, nodes, ids[k]);
            e.nodeId = layerNodeId(graph, nodes, ids[k]);
            e.layer = layers[k];
            for (const WeightedType &t : exportTypes(*layers[k]))
                e.types.push_back(t.name);
            for (const AttributeColumn &c : layers[k]->columns)
                e.attributes.push_back(c.name);
            e.hasZ = layers[k]->lazy && layers[k]->chunked ? layers[k]->chunked->settings().height != nullptr
                                                           : !layers[k]->z.empty();
            state->layers.push_back(std::move(e));
        }
    }
    return registry().add(std::move(state));
}

int findLayer(const GraphState &s, const std::string &name)
{
    for (std::size_t k = 0; k < s.layers.size(); ++k)
        if (s.layers[k].nodeId == name)
            return static_cast<int>(k);
    for (std::size_t k = 0; k < s.layers.size(); ++k)
        if (s.layers[k].name == name)
            return static_cast<int>(k);
    return -1;
}

namespace {

std::string number(double v) { return formatNumber(v); }

// A lazy layer's region is checked before any chunk is placed (regionOverBudget).
bool regionFits(const GraphState &s, const LayerEntry &e, const Region &region, std::string &message)
{
    const long long limit = s.maxPoints.load();
    auto problem = regionOverBudget(*e.layer, e.name, region, static_cast<std::uint64_t>(limit),
                                    " (grove_set_max_points): ask for smaller regions");
    if (problem)
        message = *problem;
    return !problem;
}

// A lazy layer's region, asked a few chunks at a time in export order (rows of chunks top to
// bottom, each left to right), with the cancel flag looked at between pieces, so a cancelled
// call returns within a piece.
std::shared_ptr<PointLayer> lazyRegion(const GraphState &s, const PointLayer &layer, const Region &region, int threads,
                                       const std::atomic<bool> *cancel)
{
    constexpr int kSpan = 16;  // chunks a piece
    auto out = std::make_shared<PointLayer>();
    out->info = layer.info;
    out->tally = layer.tally;
    out->chunked = layer.chunked;
    out->columns = layer.columns;  // a refined layer's attribute names, without values: the pieces add them
    ChunkCoord first, end;  // within the chunk range: regionFits checked it
    if (!layer.chunked->chunkSpan(region, first, end))
        return out;
    const ChunkedLayerSettings &cs = layer.chunked->settings();
    Region r = region;  // the pieces' outer edges: the region, clipped to a finite world
    if (cs.finite)
        r = {std::max(r.x0, 0.0), std::max(r.y0, 0.0), std::min(r.x1, cs.worldWidth), std::min(r.y1, cs.worldHeight)};
    const double c = cs.chunk;
    const int i0 = first.i, j0 = first.j, i1 = end.i, j1 = end.j;
    for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; i += kSpan) {
            if (cancel->load())
                return nullptr;
            const int last = std::min(i1, i + kSpan - 1);
            // pieces share their borders' doubles, so each point falls in exactly one
            const Region piece{i == i0 ? r.x0 : i * c, j == j0 ? r.y0 : j * c, last == i1 ? r.x1 : (last + 1) * c,
                               j == j1 ? r.y1 : (j + 1) * c};
            std::shared_ptr<PointLayer> got = layerInRegion(layer, piece, threads, cancel);
            if (!got)
                return nullptr;
            s.piecesDone.fetch_add(1);
            out->points.insert(out->points.end(), got->points.begin(), got->points.end());
            out->ids.insert(out->ids.end(), got->ids.begin(), got->ids.end());
            out->z.insert(out->z.end(), got->z.begin(), got->z.end());
            // ids ascend in export order, so the pieces' specials stay sorted
            out->specialIds.insert(out->specialIds.end(), got->specialIds.begin(), got->specialIds.end());
            for (std::size_t k = 0; k < got->columns.size() && k < out->columns.size(); ++k)
                out->columns[k].values.insert(out->columns[k].values.end(), got->columns[k].values.begin(),
                                              got->columns[k].values.end());
        }
    return out;
}

} // namespace

std::string unknownLayer(const GraphState &s, const std::string &layer)
{
    std::vector<std::string> names;
    for (const LayerEntry &e : s.layers)
        names.push_back(e.name);
    std::string list;
    for (const std::string &n : names)
        list += (list.empty() ? "" : ", ") + quote(n);
    return "no exported layer " + quote(layer) + " in this graph ("
           + (names.empty() ? std::string("it has none") : "its layers: " + list) + ")" + didYouMean(layer, names);
}

namespace {

// The layer's points in a checked region, or null with `message` (over the limit, cancelled, failed).
std::shared_ptr<PointLayer> place(const GraphState &s, const LayerEntry &e, const Region &region, int threads,
                                  const std::atomic<bool> *cancel, std::string &message)
{
    if (cancel->load()) {
        message = "cancelled";
        return nullptr;
    }
    if (e.layer->lazy && e.layer->chunked && !regionFits(s, e, region, message))
        return nullptr;
    std::shared_ptr<PointLayer> got;
    try {
        if (e.layer->lazy && e.layer->chunked) {
            got = lazyRegion(s, *e.layer, region, threads, cancel);
        } else {
            got = layerInRegion(*e.layer, region, 1, cancel);
            if (got)
                s.piecesDone.fetch_add(1);
        }
    } catch (const std::bad_alloc &) {
        throw;
    } catch (const std::exception &ex) {
        message = "layer " + quote(e.name) + ": chunked placement failed: " + ex.what();
        return nullptr;
    }
    if (!got)
        message = "cancelled";
    return got;
}

void writePoints(const PointLayer &got, grove_point *out)
{
    for (std::size_t k = 0; k < got.points.size(); ++k) {
        const PointXYR &p = got.points[k];
        const std::uint64_t id = got.idOf(k);
        const PointAttributes a = got.attributes(id);
        grove_point &q = out[k];
        q.x = p.x;
        q.y = p.y;
        q.z = got.z.empty() ? 0.0 : got.z[k];
        q.r = p.r;
        q.rotation = a.rotation;
        q.scale = a.scale;
        q.id = id;
        q.type = a.type < 0 ? 0 : a.type;
        q.reserved = 0;
    }
}

} // namespace

namespace {

// The layer's points in a checked region (null with `message`): what grove_points_in_region and
// grove_attribute_in_region both read. `attribute`: the attribute asked for, or -1. `s` keeps the
// graph (and `entry`, one of its layers) alive through the caller's use, as a grove_close may come.
std::shared_ptr<PointLayer> regionPoints(grove_graph *handle, const char *layer, int attribute, const Region &region,
                                         long long capacity, std::string &message, std::shared_ptr<GraphState> &s,
                                         const LayerEntry *&entry)
{
    s = acquire(handle, message);
    if (!s)
        return nullptr;
    if (!layer) {
        message = "the layer name is NULL";
        return nullptr;
    }
    const int index = findLayer(*s, layer);
    if (index < 0) {
        message = unknownLayer(*s, layer);
        return nullptr;
    }
    const LayerEntry &e = s->layers[static_cast<std::size_t>(index)];
    entry = &e;
    if (attribute != -1 && (attribute < 0 || static_cast<std::size_t>(attribute) >= e.attributes.size())) {
        message = "no attribute " + std::to_string(attribute) + " in layer " + quote(e.name) + ": it has "
                  + std::to_string(e.attributes.size());
        return nullptr;
    }
    if (std::isnan(region.x0) || std::isnan(region.y0) || std::isnan(region.x1) || std::isnan(region.y1)) {
        message = "the region has a NaN coordinate: x " + number(region.x0) + " to " + number(region.x1) + ", y "
                  + number(region.y0) + " to " + number(region.y1);
        return nullptr;
    }
    if (region.x1 < region.x0 || region.y1 < region.y0) {
        message = "the region is inverted: x " + number(region.x0) + " to " + number(region.x1) + ", y " + number(region.y0)
                  + " to " + number(region.y1) + " (x0 <= x1 and y0 <= y1 are needed)";
        return nullptr;
    }
    if (capacity < 0) {
        message = "capacity is negative (" + std::to_string(capacity) + ")";
        return nullptr;
    }
    s->callsRunning.fetch_add(1);
    struct Running  // counted while the layer is placed, whichever way the call ends
    {
        GraphState &state;
        ~Running() { state.callsRunning.fetch_sub(1); }
    } running{*s};
    return place(*s, e, region, s->threads.load(), &s->cancel, message);
}

// The region's point count; with `out` given, room for them checked (an error naming both when
// capacity is short) and `write` called on them.
template<typename Write>
long long countAndWrite(const std::shared_ptr<PointLayer> &got, const LayerEntry &e, bool out, long long capacity,
                        std::string &message, Write write)
{
    const std::size_t count = got->points.size();
    if (out && count > static_cast<std::size_t>(capacity)) {
        message = "capacity " + std::to_string(capacity) + " is too small: the region holds " + std::to_string(count)
                  + " points of layer " + quote(e.name) + " (ask with out NULL for the count)";
        return -1;
    }
    if (out)
        write(*got);
    return static_cast<long long>(count);
}

} // namespace

long long pointsIn(grove_graph *handle, const char *layer, const Region &region, grove_point *out, long long capacity,
                   std::string &message)
{
    std::shared_ptr<GraphState> s;
    const LayerEntry *e = nullptr;
    std::shared_ptr<PointLayer> got = regionPoints(handle, layer, -1, region, capacity, message, s, e);
    return got ? countAndWrite(got, *e, out != nullptr, capacity, message, [&](const PointLayer &l) { writePoints(l, out); })
               : -1;
}

long long attributeIn(grove_graph *handle, const char *layer, int attribute, const Region &region, double *out,
                      long long capacity, std::string &message)
{
    std::shared_ptr<GraphState> s;
    const LayerEntry *e = nullptr;
    std::shared_ptr<PointLayer> got = regionPoints(handle, layer, attribute, region, capacity, message, s, e);
    if (!got)
        return -1;
    return countAndWrite(got, *e, out != nullptr, capacity, message, [&](const PointLayer &l) {
        const std::string &name = e->attributes[static_cast<std::size_t>(attribute)];
        for (const AttributeColumn &c : l.columns)
            if (c.name == name)
                std::copy(c.values.begin(), c.values.end(), out);
    });
}

Region chunkSquare(double chunk, int i, int j)
{
    return {i * chunk, j * chunk, (i + 1) * chunk, (j + 1) * chunk};  // the same doubles as ChunkedLayer's
}

bool chunkPoints(const GraphState &s, int layer, int i, int j, const std::atomic<bool> *cancel,
                 std::vector<grove_point> &out, std::string &message)
{
    const LayerEntry &e = s.layers.at(static_cast<std::size_t>(layer));
    std::shared_ptr<PointLayer> got = place(s, e, chunkSquare(s.world.chunk, i, j), 1, cancel, message);
    if (!got)
        return false;
    out.resize(got->points.size());
    writePoints(*got, out.data());
    return true;
}

const LayerEntry *layerAt(const GraphState &s, int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= s.layers.size())
        return nullptr;
    return &s.layers[static_cast<std::size_t>(index)];
}

} // namespace grove::capi
