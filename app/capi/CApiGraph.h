// libgrove's graphs: what an open graph holds, its handle registry, and a layer's points in a
// region (the C functions in GroveCApi.cpp wrap these).
#pragma once

#include "grove.h"

#include "core/base/DataTypes.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupResolver.h"
#include "core/base/Limits.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace grove::capi {

struct LayerEntry
{
    std::string name;    // export name
    std::string nodeId;
    PointLayerPtr layer;
    std::vector<std::string> types;
    std::vector<std::string> attributes;  // its attribute columns' names, in chain order
    bool hasZ = false;
};

struct GraphState
{
    World world;
    std::vector<LayerEntry> layers;
    EvalResult result;  // holds the layers' upstream values alive
    std::atomic<bool> cancel{false};
    std::atomic<bool> closed{false};  // grove_close ran: sessions holding the graph stop their work
    std::atomic<int> threads{1};
    std::atomic<long long> maxPoints{static_cast<long long>(limits::defaultMaxPointsPerLayer)};
    // grove_get_activity's counters, kept by the region calls
    mutable std::atomic<int> callsRunning{0};
    mutable std::atomic<long long> piecesDone{0};
};

// The open graph behind a handle; null with a message for NULL or a handle not open.
std::shared_ptr<GraphState> acquire(grove_graph *handle, std::string &message);
// Takes the graph out of the registry (null when it is not open): its handle is no longer valid.
std::shared_ptr<GraphState> release(grove_graph *handle);
// Evaluates a loaded graph and registers it; null with every problem, as grove-cli prints them.
// groups: the resolver the graph was loaded with (its group files, read once); sets: NODE.PARAM=VALUE
// overrides applied before evaluation, as grove-cli's --set.
grove_graph *openLoaded(LoadResult loaded, const GroupResolver &groups, const std::string &fileName, long long maxPoints,
                        const std::vector<std::string> &sets, std::string &message);
// A layer by node id, else by export name; -1 when none.
int findLayer(const GraphState &s, const std::string &name);
const LayerEntry *layerAt(const GraphState &s, int index);
// "no exported layer 'x' in this graph (its layers: ...)", with a suggestion.
std::string unknownLayer(const GraphState &s, const std::string &layer);
// grove_points_in_region's work: the count, or -1 with `message`.
long long pointsIn(grove_graph *handle, const char *layer, const Region &region, grove_point *out, long long capacity,
                   std::string &message);

// grove_attribute_in_region's work: the count, or -1 with `message`.
long long attributeIn(grove_graph *handle, const char *layer, int attribute, const Region &region, double *out,
                      long long capacity, std::string &message);

// Chunk (i, j)'s square, the same doubles as ChunkedLayer's.
Region chunkSquare(double chunk, int i, int j);
// The points of layer `layer` (an index) in chunk (i, j), the same bytes as grove_points_in_chunk,
// placed on the calling thread; false with `message` when cancelled (`cancel`) or failed.
bool chunkPoints(const GraphState &s, int layer, int i, int j, const std::atomic<bool> *cancel,
                 std::vector<grove_point> &out, std::string &message);

} // namespace grove::capi
