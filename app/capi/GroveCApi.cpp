// libgrove: the C API (grove.h) over core and nodes; every entry point catches everything.
#include "grove.h"

#include "CApiErrors.h"
#include "CApiGraph.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/base/Limits.h"
#include "core/formats/PointsExport.h"
#include "nodes/BuiltinNodes.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

static_assert(sizeof(grove_point) == 64, "grove_point is 64 bytes on every platform the README's bindings assume");
static_assert(offsetof(grove_point, id) == 48 && offsetof(grove_point, type) == 56, "grove_point's layout is fixed");

using namespace grove;
using namespace grove::capi;

namespace {

// A call on an open graph that returns 0 or -1: guarded, the handle checked, then `body(state,
// message)` (which sets the message and returns -1 when it refuses).
template<typename Body>
int onGraph(grove_graph *graph, Body body) noexcept
{
    return guarded<int>(nullptr, 0, -1, [&](std::string &message) {
        auto s = acquire(graph, message);
        return s ? body(*s, message) : -1;
    });
}

// A call on one of an open graph's layers, by index: guarded, the handle and index checked, then
// `body(entry, message)`; `fail` for a bad handle or index.
template<typename T, typename Body>
T onLayer(grove_graph *graph, int layer_index, T fail, Body body) noexcept
{
    return guarded<T>(nullptr, 0, fail, [&](std::string &message) -> T {
        auto s = acquire(graph, message);
        if (!s)
            return fail;
        const LayerEntry *e = layerAt(*s, layer_index);
        if (!e) {
            message = "no layer " + std::to_string(layer_index) + ": the graph has " + std::to_string(s->layers.size());
            return fail;
        }
        return body(*e, message);
    });
}

// names[index] of one of a layer's lists (its types, its attributes), or NULL with the message.
const char *nameAt(const std::vector<std::string> &names, int index, const char *what, const LayerEntry &e,
                   std::string &message)
{
    if (index < 0 || static_cast<std::size_t>(index) >= names.size()) {
        message = std::string("no ") + what + " " + std::to_string(index) + " in layer " + quote(e.name) + ": it has "
                  + std::to_string(names.size());
        return nullptr;
    }
    return names[static_cast<std::size_t>(index)].c_str();
}

// grove_options, checked: the point limit and the overrides (NULL options: the defaults).
struct OpenOptions
{
    long long maxPoints = static_cast<long long>(limits::defaultMaxPointsPerLayer);
    std::vector<std::string> sets;
};

bool readOptions(const grove_options *options, OpenOptions &o, std::string &message)
{
    if (!options)
        return true;
    if (options->max_points < 0) {
        message = "max_points is negative (" + std::to_string(options->max_points) + ")";
        return false;
    }
    if (options->max_points > 0)
        o.maxPoints = options->max_points;
    if (options->set_count > 0 && !options->sets) {
        message = "sets is NULL but set_count is " + std::to_string(options->set_count);
        return false;
    }
    for (std::size_t k = 0; k < options->set_count; ++k) {
        if (!options->sets[k]) {
            message = "sets[" + std::to_string(k) + "] is NULL";
            return false;
        }
        o.sets.emplace_back(options->sets[k]);
    }
    return true;
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
        OpenOptions o;
        if (!readOptions(options, o, message))
            return nullptr;
        const std::string name = name_for_messages ? name_for_messages : "graph";
        // empty: file params (and group files) resolve against the working folder
        const std::string baseDir = options && options->base_dir && *options->base_dir
                                        ? std::filesystem::absolute(options->base_dir).lexically_normal().string()
                                        : std::string();
        GroupResolver groups(builtinRegistry());  // the handle's group files, read as it loads
        LoadResult loaded = loadGraphFromString(std::string(yaml, length), name, groups, baseDir);
        return openLoaded(std::move(loaded), groups, name, o.maxPoints, o.sets, message);
    });
}

grove_graph *grove_open_file(const char *path, char *error, size_t error_size)
{
    return grove_open_file_with(path, nullptr, error, error_size);
}

grove_graph *grove_open_file_with(const char *path, const grove_options *options, char *error, size_t error_size)
{
    return guarded<grove_graph *>(error, error_size, nullptr, [&](std::string &message) -> grove_graph * {
        if (!path) {
            message = "the path is NULL";
            return nullptr;
        }
        OpenOptions o;
        if (!readOptions(options, o, message))
            return nullptr;
        if (options && options->base_dir && *options->base_dir) {
            message = "base_dir is for grove_open_with: a graph file's params resolve against its folder";
            return nullptr;
        }
        GroupResolver groups(builtinRegistry());
        LoadResult loaded = loadGraphFile(path, groups);
        return openLoaded(std::move(loaded), groups, path, o.maxPoints, o.sets, message);
    });
}

void grove_close(grove_graph *graph)
{
    if (!graph)
        return;
    try {
        if (std::shared_ptr<GraphState> state = release(graph)) {
            state->closed = true;  // open sessions stop their work
            state->cancel = true;  // calls still running end soon; the last one frees the graph
        }
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
    return onLayer<const char *>(graph, layer_index, nullptr, [](const LayerEntry &e, std::string &) { return e.name.c_str(); });
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
    return onLayer<int>(graph, layer_index, -1, [](const LayerEntry &e, std::string &) { return static_cast<int>(e.types.size()); });
}

const char *grove_layer_type_name(grove_graph *graph, int layer_index, int type_index)
{
    return onLayer<const char *>(graph, layer_index, nullptr, [&](const LayerEntry &e, std::string &message) {
        return nameAt(e.types, type_index, "type", e, message);
    });
}

int grove_layer_attribute_count(grove_graph *graph, int layer_index)
{
    return onLayer<int>(graph, layer_index, -1,
                        [](const LayerEntry &e, std::string &) { return static_cast<int>(e.attributes.size()); });
}

const char *grove_layer_attribute_name(grove_graph *graph, int layer_index, int attribute_index)
{
    return onLayer<const char *>(graph, layer_index, nullptr, [&](const LayerEntry &e, std::string &message) {
        return nameAt(e.attributes, attribute_index, "attribute", e, message);
    });
}

int grove_layer_has_z(grove_graph *graph, int layer_index)
{
    return onLayer<int>(graph, layer_index, -1, [](const LayerEntry &e, std::string &) { return e.hasZ ? 1 : 0; });
}

int grove_world(grove_graph *graph, grove_world_info *out)
{
    return onGraph(graph, [&](GraphState &s, std::string &message) {
        if (!out) {
            message = "out is NULL";
            return -1;
        }
        out->width = s.world.endless ? 0 : s.world.width;
        out->height = s.world.endless ? 0 : s.world.height;
        out->chunk = s.world.chunk;
        out->endless = s.world.endless ? 1 : 0;
        out->seed = s.world.seed;
        return 0;
    });
}

int grove_world_wrap(grove_graph *graph, int32_t *wrap_x, int32_t *wrap_y)
{
    return onGraph(graph, [&](GraphState &s, std::string &message) {
        if (!wrap_x || !wrap_y) {
            message = std::string(!wrap_x ? "wrap_x" : "wrap_y") + " is NULL";
            return -1;
        }
        *wrap_x = s.world.wrapX ? 1 : 0;
        *wrap_y = s.world.wrapY ? 1 : 0;
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

long long grove_attribute_in_region(grove_graph *graph, const char *layer, int attribute_index, double x0, double y0,
                                    double x1, double y1, double *out, long long capacity, char *error, size_t error_size)
{
    return guarded<long long>(error, error_size, -1, [&](std::string &message) {
        return attributeIn(graph, layer, attribute_index, Region{x0, y0, x1, y1}, out, capacity, message);
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
        return pointsIn(graph, layer, chunkSquare(c, i, j), out, capacity, message);
    });
}

int grove_cancel(grove_graph *graph)
{
    return onGraph(graph, [&](GraphState &s, std::string &) {
        s.cancel = true;
        return 0;
    });
}

int grove_resume(grove_graph *graph)
{
    return onGraph(graph, [&](GraphState &s, std::string &) {
        s.cancel = false;
        return 0;
    });
}

int grove_get_activity(grove_graph *graph, grove_activity *out)
{
    return onGraph(graph, [&](GraphState &s, std::string &message) {
        if (!out) {
            message = "out is NULL";
            return -1;
        }
        out->calls_running = s.callsRunning.load();
        out->pieces_done = s.piecesDone.load();
        return 0;
    });
}

int grove_set_threads(grove_graph *graph, int threads)
{
    return onGraph(graph, [&](GraphState &s, std::string &message) {
        if (threads < 0) {
            message = "threads is negative (" + std::to_string(threads) + ")";
            return -1;
        }
        s.threads = threads;
        return 0;
    });
}

int grove_set_max_points(grove_graph *graph, long long max_points)
{
    return onGraph(graph, [&](GraphState &s, std::string &message) {
        if (max_points < 1) {
            message = "max_points must be at least 1, got " + std::to_string(max_points);
            return -1;
        }
        s.maxPoints = max_points;
        return 0;
    });
}

int grove_set_cache_bytes(grove_graph *graph, size_t bytes)
{
    return onGraph(graph, [&](GraphState &s, std::string &) {
        for (const LayerEntry &e : s.layers)
            if (e.layer->chunked)
                e.layer->chunked->setCacheBudget(bytes);
        return 0;
    });
}

const char *grove_last_error(void)
{
    return lastError();
}

} // extern "C"

