// libgrove: the C API (grove.h) over core and nodes; every entry point catches everything.
#include "grove.h"

#include "core/ChunkedLayer.h"
#include "core/Evaluator.h"
#include "core/GraphReader.h"
#include "core/Limits.h"
#include "core/NodeRegistry.h"
#include "core/PointsExport.h"
#include "core/PoissonPlacement.h"
#include "core/Value.h"
#include "nodes/BuiltinNodes.h"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

static_assert(sizeof(grove_point) == 64, "grove_point is 64 bytes on every platform the README's bindings assume");
static_assert(offsetof(grove_point, id) == 48 && offsetof(grove_point, type) == 56, "grove_point's layout is fixed");

using namespace grove;

namespace {

struct LayerEntry
{
    std::string name;    // export name
    std::string nodeId;
    PointLayerPtr layer;
    std::vector<std::string> types;
    bool hasZ = false;
};

struct GraphState
{
    World world;
    std::vector<LayerEntry> layers;
    EvalResult result;  // holds the layers' upstream values alive
    std::atomic<bool> cancel{false};
    std::atomic<int> threads{1};
    std::atomic<long long> maxPoints{static_cast<long long>(limits::defaultMaxPointsPerLayer)};
};

// Handles are numbers, never addresses: a closed handle is not found, whatever memory it had.
struct Registry
{
    std::mutex mutex;
    std::map<std::uintptr_t, std::shared_ptr<GraphState>> graphs;
    std::uintptr_t next = 1;
};

Registry &registry()
{
    static Registry *r = new Registry;  // never destroyed: calls may run while the process exits
    return *r;
}

thread_local std::string t_lastError;

// A failure's message: to the caller's buffer (cut at a UTF-8 boundary) and the thread's last error.
void report(char *error, std::size_t size, const char *message) noexcept
{
    const std::size_t length = std::strlen(message);
    try {
        t_lastError.assign(message, length);
    } catch (...) {
        t_lastError.clear();
    }
    if (!error || size == 0)
        return;
    std::size_t n = length < size - 1 ? length : size - 1;
    if (n < length)
        while (n > 0 && (static_cast<unsigned char>(message[n]) & 0xC0) == 0x80)
            --n;
    std::memcpy(error, message, n);
    error[n] = '\0';
}

void clearError(char *error, std::size_t size) noexcept
{
    if (error && size > 0)
        error[0] = '\0';
}

// Runs `body` (which reports its own failures through `fail`), turning any exception into a
// message: nothing crosses the C ABI.
template<typename R, typename Body>
R guarded(char *error, std::size_t size, R failed, Body body) noexcept
{
    std::string message;
    try {
        R value = body(message);
        if (message.empty()) {
            clearError(error, size);
            return value;
        }
    } catch (const std::bad_alloc &) {
        message = "out of memory";
    } catch (const std::exception &e) {
        message = std::string("internal error: ") + e.what();
    } catch (...) {
        message = "internal error";
    }
    if (message.empty())
        message = "internal error";
    report(error, size, message.c_str());
    return failed;
}

std::shared_ptr<GraphState> acquire(grove_graph *handle, std::string &message)
{
    if (!handle) {
        message = "the graph is NULL";
        return nullptr;
    }
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.graphs.find(reinterpret_cast<std::uintptr_t>(handle));
    if (it == r.graphs.end()) {
        message = "not an open graph (closed already, or not from grove_open)";
        return nullptr;
    }
    return it->second;
}

grove_graph *openLoaded(LoadResult loaded, const std::string &fileName, long long maxPoints, std::string &message)
{
    const NodeRegistry &nodes = builtinRegistry();
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
            const Node *node = graph.node(ids[k]);
            e.name = layerName(*node, *nodes.find(node->type));
            e.nodeId = ids[k];
            e.layer = layers[k];
            for (const WeightedType &t : exportTypes(*layers[k]))
                e.types.push_back(t.name);
            e.hasZ = layers[k]->lazy && layers[k]->chunked ? layers[k]->chunked->settings().height != nullptr
                                                           : !layers[k]->z.empty();
            state->layers.push_back(std::move(e));
        }
    }
    Registry &r = registry();
    std::lock_guard lock(r.mutex);
    const std::uintptr_t handle = r.next++;
    r.graphs.emplace(handle, std::move(state));
    return reinterpret_cast<grove_graph *>(handle);
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

std::string number(double v) { return formatNumber(v); }

// A lazy layer's region is checked before any chunk is placed: within the chunk range, and no
// more points by the packing bound over its chunks than the limit.
bool regionFits(const GraphState &s, const LayerEntry &e, const Region &region, std::string &message)
{
    const ChunkedLayerSettings &cs = e.layer->chunked->settings();
    const double c = cs.chunk;
    Region r = region;
    if (cs.finite)
        r = {std::max(r.x0, 0.0), std::max(r.y0, 0.0), std::min(r.x1, cs.worldWidth), std::min(r.y1, cs.worldHeight)};
    if (r.empty())
        return true;
    const int i0 = chunkIndexOf(r.x0, c), j0 = chunkIndexOf(r.y0, c);
    int i1 = chunkIndexOf(r.x1, c), j1 = chunkIndexOf(r.y1, c);
    if (i1 * c >= r.x1)
        --i1;
    if (j1 * c >= r.y1)
        --j1;
    if (i0 < -kChunkRange || j0 < -kChunkRange || i1 >= kChunkRange || j1 >= kChunkRange) {
        message = "the region reaches beyond the chunk range: an endless world has chunks -" + std::to_string(kChunkRange)
                  + " to " + std::to_string(kChunkRange - 1) + " on each axis, x and y in [" + number(-kChunkRange * c) + ", "
                  + number(kChunkRange * c) + ") at chunk " + number(c);
        return false;
    }
    const double chunks = (static_cast<double>(i1) - i0 + 1) * (static_cast<double>(j1) - j0 + 1);
    const double estimate = chunks * maxPointsEstimate(c, c, cs.placement.radius);
    const long long limit = s.maxPoints.load();
    if (estimate > static_cast<double>(limit)) {
        message = "the region covers " + number(chunks) + " chunks of layer " + quote(e.name) + ", room for up to "
                  + number(std::floor(estimate)) + " points at radius " + number(cs.placement.radius) + ", more than the limit of "
                  + std::to_string(limit) + " (grove_set_max_points): ask for smaller regions";
        return false;
    }
    return true;
}

// A lazy layer's region, asked a few chunks at a time in export order (rows of chunks top to
// bottom, each left to right), with the cancel flag looked at between them. layerInRegion alone
// would not stop: a chunk's placement polls the flag every 4096 steps (PoissonPlacement.cpp's
// Poller), more than a chunk of usual size takes, and collect() does not look between chunks.
std::shared_ptr<PointLayer> lazyRegion(const GraphState &s, const PointLayer &layer, const Region &region)
{
    constexpr int kSpan = 16;  // chunks a piece
    const ChunkedLayerSettings &cs = layer.chunked->settings();
    const double c = cs.chunk;
    Region r = region;
    if (cs.finite)
        r = {std::max(r.x0, 0.0), std::max(r.y0, 0.0), std::min(r.x1, cs.worldWidth), std::min(r.y1, cs.worldHeight)};
    auto out = std::make_shared<PointLayer>();
    out->info = layer.info;
    out->tally = layer.tally;
    out->chunked = layer.chunked;
    if (r.empty())
        return out;
    // the same chunk range as ChunkedLayer::chunksIn (regionFits checked it is within range)
    const int i0 = chunkIndexOf(r.x0, c), j0 = chunkIndexOf(r.y0, c);
    int i1 = chunkIndexOf(r.x1, c), j1 = chunkIndexOf(r.y1, c);
    if (i1 * c >= r.x1)
        --i1;
    if (j1 * c >= r.y1)
        --j1;
    for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; i += kSpan) {
            if (s.cancel.load())
                return nullptr;
            const int last = std::min(i1, i + kSpan - 1);
            // pieces share their borders' doubles, so each point falls in exactly one
            const Region piece{i == i0 ? r.x0 : i * c, j == j0 ? r.y0 : j * c, last == i1 ? r.x1 : (last + 1) * c,
                               j == j1 ? r.y1 : (j + 1) * c};
            std::shared_ptr<PointLayer> got = layerInRegion(layer, piece, s.threads.load(), &s.cancel);
            if (!got)
                return nullptr;
            out->points.insert(out->points.end(), got->points.begin(), got->points.end());
            out->ids.insert(out->ids.end(), got->ids.begin(), got->ids.end());
            out->z.insert(out->z.end(), got->z.begin(), got->z.end());
            // ids ascend in export order, so the pieces' specials stay sorted
            out->specialIds.insert(out->specialIds.end(), got->specialIds.begin(), got->specialIds.end());
        }
    return out;
}

long long pointsIn(grove_graph *handle, const char *layer, const Region &region, grove_point *out, long long capacity,
                   std::string &message)
{
    std::shared_ptr<GraphState> s = acquire(handle, message);
    if (!s)
        return -1;
    if (!layer) {
        message = "the layer name is NULL";
        return -1;
    }
    const int index = findLayer(*s, layer);
    if (index < 0) {
        std::vector<std::string> names;
        for (const LayerEntry &e : s->layers)
            names.push_back(e.name);
        std::string list;
        for (const std::string &n : names)
            list += (list.empty() ? "" : ", ") + quote(n);
        message = "no exported layer " + quote(layer) + " in this graph ("
                  + (names.empty() ? std::string("it has none") : "its layers: " + list) + ")" + didYouMean(layer, names);
        return -1;
    }
    const LayerEntry &e = s->layers[static_cast<std::size_t>(index)];
    if (std::isnan(region.x0) || std::isnan(region.y0) || std::isnan(region.x1) || std::isnan(region.y1)) {
        message = "the region has a NaN coordinate: x " + number(region.x0) + " to " + number(region.x1) + ", y "
                  + number(region.y0) + " to " + number(region.y1);
        return -1;
    }
    if (region.x1 < region.x0 || region.y1 < region.y0) {
        message = "the region is inverted: x " + number(region.x0) + " to " + number(region.x1) + ", y " + number(region.y0)
                  + " to " + number(region.y1) + " (x0 <= x1 and y0 <= y1 are needed)";
        return -1;
    }
    if (capacity < 0) {
        message = "capacity is negative (" + std::to_string(capacity) + ")";
        return -1;
    }
    if (s->cancel.load()) {
        message = "cancelled";
        return -1;
    }
    if (e.layer->lazy && e.layer->chunked && !regionFits(*s, e, region, message))
        return -1;
    std::shared_ptr<PointLayer> got;
    try {
        got = e.layer->lazy && e.layer->chunked ? lazyRegion(*s, *e.layer, region) : layerInRegion(*e.layer, region, 1, &s->cancel);
    } catch (const std::bad_alloc &) {
        throw;
    } catch (const std::exception &ex) {
        message = "layer " + quote(e.name) + ": chunked placement failed: " + ex.what();
        return -1;
    }
    if (!got) {
        message = "cancelled";
        return -1;
    }
    const std::size_t count = got->points.size();
    if (!out)
        return static_cast<long long>(count);
    if (count > static_cast<std::size_t>(capacity)) {
        message = "capacity " + std::to_string(capacity) + " is too small: the region holds " + std::to_string(count)
                  + " points of layer " + quote(e.name) + " (ask with out NULL for the count)";
        return -1;
    }
    for (std::size_t k = 0; k < count; ++k) {
        const PointXYR &p = got->points[k];
        const std::uint64_t id = got->idOf(k);
        const PointAttributes a = got->attributes(id);
        grove_point &q = out[k];
        q.x = p.x;
        q.y = p.y;
        q.z = got->z.empty() ? 0.0 : got->z[k];
        q.r = p.r;
        q.rotation = a.rotation;
        q.scale = a.scale;
        q.id = id;
        q.type = a.type < 0 ? 0 : a.type;
        q.reserved = 0;
    }
    return static_cast<long long>(count);
}

const LayerEntry *layerAt(const GraphState &s, int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= s.layers.size())
        return nullptr;
    return &s.layers[static_cast<std::size_t>(index)];
}

} // namespace

extern "C" {

const char *grove_version(void)
{
    return kGroveVersion;
}

grove_graph *grove_open(const char *yaml, size_t length, const char *name_for_messages, char *error, size_t error_size)
{
    return grove_open_with(yaml, length, name_for_messages, nullptr, error, error_size);
}

grove_graph *grove_open_with(const char *yaml, size_t length, const char *name_for_messages, const grove_options *options,
                             char *error, size_t error_size)
{
    return guarded<grove_graph *>(error, error_size, nullptr, [&](std::string &message) -> grove_graph * {
        if (!yaml) {
            message = "the YAML text is NULL";
            return nullptr;
        }
        long long maxPoints = static_cast<long long>(limits::defaultMaxPointsPerLayer);
        if (options && options->max_points < 0) {
            message = "max_points is negative (" + std::to_string(options->max_points) + ")";
            return nullptr;
        }
        if (options && options->max_points > 0)
            maxPoints = options->max_points;
        const std::string name = name_for_messages ? name_for_messages : "graph";
        LoadResult loaded = loadGraphFromString(std::string(yaml, length), name, builtinRegistry());
        // empty: file params resolve against the working folder
        if (options && options->base_dir && *options->base_dir)
            loaded.graph.baseDir = std::filesystem::absolute(options->base_dir).lexically_normal().string();
        return openLoaded(std::move(loaded), name, maxPoints, message);
    });
}

grove_graph *grove_open_file(const char *path, char *error, size_t error_size)
{
    return guarded<grove_graph *>(error, error_size, nullptr, [&](std::string &message) -> grove_graph * {
        if (!path) {
            message = "the path is NULL";
            return nullptr;
        }
        return openLoaded(loadGraphFile(path, builtinRegistry()), path,
                          static_cast<long long>(limits::defaultMaxPointsPerLayer), message);
    });
}

void grove_close(grove_graph *graph)
{
    if (!graph)
        return;
    try {
        std::shared_ptr<GraphState> state;
        {
            Registry &r = registry();
            std::lock_guard lock(r.mutex);
            auto it = r.graphs.find(reinterpret_cast<std::uintptr_t>(graph));
            if (it == r.graphs.end())
                return;
            state = std::move(it->second);
            r.graphs.erase(it);
        }
        state->cancel = true;  // calls still running end soon; the last one frees the graph
    } catch (...) {
    }
}

int grove_layer_count(grove_graph *graph)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        return s ? static_cast<int>(s->layers.size()) : -1;
    });
}

const char *grove_layer_name(grove_graph *graph, int layer_index)
{
    return guarded<const char *>(nullptr, 0, nullptr, [&](std::string &message) -> const char * {
        auto s = acquire(graph, message);
        if (!s)
            return nullptr;
        const LayerEntry *e = layerAt(*s, layer_index);
        if (!e) {
            message = "no layer " + std::to_string(layer_index) + ": the graph has " + std::to_string(s->layers.size());
            return nullptr;
        }
        return e->name.c_str();
    });
}

int grove_layer_index(grove_graph *graph, const char *layer)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        if (!layer) {
            message = "the layer name is NULL";
            return -1;
        }
        const int index = findLayer(*s, layer);
        if (index < 0)
            message = "no exported layer " + quote(layer) + " in this graph";
        return index;
    });
}

int grove_layer_type_count(grove_graph *graph, int layer_index)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        const LayerEntry *e = layerAt(*s, layer_index);
        if (!e) {
            message = "no layer " + std::to_string(layer_index) + ": the graph has " + std::to_string(s->layers.size());
            return -1;
        }
        return static_cast<int>(e->types.size());
    });
}

const char *grove_layer_type_name(grove_graph *graph, int layer_index, int type_index)
{
    return guarded<const char *>(nullptr, 0, nullptr, [&](std::string &message) -> const char * {
        auto s = acquire(graph, message);
        if (!s)
            return nullptr;
        const LayerEntry *e = layerAt(*s, layer_index);
        if (!e) {
            message = "no layer " + std::to_string(layer_index) + ": the graph has " + std::to_string(s->layers.size());
            return nullptr;
        }
        if (type_index < 0 || static_cast<std::size_t>(type_index) >= e->types.size()) {
            message = "no type " + std::to_string(type_index) + " in layer " + quote(e->name) + ": it has "
                      + std::to_string(e->types.size());
            return nullptr;
        }
        return e->types[static_cast<std::size_t>(type_index)].c_str();
    });
}

int grove_layer_has_z(grove_graph *graph, int layer_index)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        const LayerEntry *e = layerAt(*s, layer_index);
        if (!e) {
            message = "no layer " + std::to_string(layer_index) + ": the graph has " + std::to_string(s->layers.size());
            return -1;
        }
        return e->hasZ ? 1 : 0;
    });
}

int grove_world(grove_graph *graph, grove_world_info *out)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        if (!out) {
            message = "out is NULL";
            return -1;
        }
        out->width = s->world.endless ? 0 : s->world.width;
        out->height = s->world.endless ? 0 : s->world.height;
        out->chunk = s->world.chunk;
        out->endless = s->world.endless ? 1 : 0;
        out->seed = s->world.seed;
        return 0;
    });
}

double grove_chunk_size(grove_graph *graph)
{
    return guarded<double>(nullptr, 0, -1.0, [&](std::string &message) {
        auto s = acquire(graph, message);
        return s ? s->world.chunk : -1.0;
    });
}

long long grove_points_in_region(grove_graph *graph, const char *layer, double x0, double y0, double x1, double y1,
                                 grove_point *out, long long capacity, char *error, size_t error_size)
{
    return guarded<long long>(error, error_size, -1, [&](std::string &message) {
        return pointsIn(graph, layer, Region{x0, y0, x1, y1}, out, capacity, message);
    });
}

long long grove_points_in_chunk(grove_graph *graph, const char *layer, int i, int j, grove_point *out, long long capacity,
                                char *error, size_t error_size)
{
    return guarded<long long>(error, error_size, -1, [&](std::string &message) -> long long {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        const double c = s->world.chunk;
        if (c <= 0) {
            message = "the graph's world has no chunks (world.chunk): ask grove_points_in_region";
            return -1;
        }
        if (i < -kChunkRange || i >= kChunkRange || j < -kChunkRange || j >= kChunkRange) {
            message = "chunk (" + std::to_string(i) + ", " + std::to_string(j) + ") is beyond the chunk range, -"
                      + std::to_string(kChunkRange) + " to " + std::to_string(kChunkRange - 1) + " on each axis";
            return -1;
        }
        // the same doubles as the chunk's own square in ChunkedLayer
        const Region r{i * c, j * c, (i + 1) * c, (j + 1) * c};
        return pointsIn(graph, layer, r, out, capacity, message);
    });
}

int grove_cancel(grove_graph *graph)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        s->cancel = true;
        return 0;
    });
}

int grove_resume(grove_graph *graph)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        s->cancel = false;
        return 0;
    });
}

int grove_set_threads(grove_graph *graph, int threads)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        if (threads < 0) {
            message = "threads is negative (" + std::to_string(threads) + ")";
            return -1;
        }
        s->threads = threads;
        return 0;
    });
}

int grove_set_max_points(grove_graph *graph, long long max_points)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        if (max_points < 1) {
            message = "max_points must be at least 1, got " + std::to_string(max_points);
            return -1;
        }
        s->maxPoints = max_points;
        return 0;
    });
}

int grove_set_cache_bytes(grove_graph *graph, size_t bytes)
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        if (!s)
            return -1;
        for (const LayerEntry &e : s->layers)
            if (e.layer->chunked)
                e.layer->chunked->setCacheBudget(bytes);
        return 0;
    });
}

const char *grove_last_error(void)
{
    return t_lastError.c_str();
}

} // extern "C"
