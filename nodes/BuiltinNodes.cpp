// The explicit list of built-in node types, in catalog order (no static initializers to lose).
#include "BuiltinNodes.h"

#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"

namespace grove {

void registerConstant(NodeRegistry &);
void registerValueNoise(NodeRegistry &);
void registerGradientNoise(NodeRegistry &);
void registerSimplexNoise(NodeRegistry &);
void registerWorleyNoise(NodeRegistry &);
void registerDomainWarp(NodeRegistry &);
void registerRadialFalloff(NodeRegistry &);
void registerMath(NodeRegistry &);
void registerRemap(NodeRegistry &);
void registerImage(NodeRegistry &);
void registerSlope(NodeRegistry &);
void registerDistance(NodeRegistry &);
void registerThreshold(NodeRegistry &);
void registerAllowedRule(NodeRegistry &);
void registerBiomeTable(NodeRegistry &);
void registerShapes(NodeRegistry &);
void registerDensity(NodeRegistry &);
void registerPlaceLayer(NodeRegistry &);
void registerPlaceVolume(NodeRegistry &);
void registerRandomPoints(NodeRegistry &);
void registerJitteredGrid(NodeRegistry &);
void registerDartThrowing(NodeRegistry &);
void registerBestCandidate(NodeRegistry &);
void registerScatterAround(NodeRegistry &);
void registerCaves(NodeRegistry &);
void registerPointsFile(NodeRegistry &);
void registerPlacePath(NodeRegistry &);
void registerPaint(NodeRegistry &);
void registerRelax(NodeRegistry &);
void registerAttribute(NodeRegistry &);
void registerFilterPoints(NodeRegistry &);
void registerVoronoi(NodeRegistry &);

void registerBuiltinNodes(NodeRegistry &registry)
{
    // Fields
    registerConstant(registry);
    registerValueNoise(registry);
    registerGradientNoise(registry);
    registerSimplexNoise(registry);
    registerWorleyNoise(registry);
    registerDomainWarp(registry);
    registerRadialFalloff(registry);
    registerMath(registry);
    registerRemap(registry);
    registerImage(registry);
    registerSlope(registry);
    registerDistance(registry);
    // Labels & masks
    registerThreshold(registry);
    registerAllowedRule(registry);
    registerBiomeTable(registry);
    registerShapes(registry);
    registerCaves(registry);
    registerVoronoi(registry);
    // Density
    registerDensity(registry);
    // Points
    registerPlaceLayer(registry);
    registerPlaceVolume(registry);
    registerRandomPoints(registry);
    registerJitteredGrid(registry);
    registerDartThrowing(registry);
    registerBestCandidate(registry);
    registerScatterAround(registry);
    registerPlacePath(registry);
    registerPointsFile(registry);
    registerRelax(registry);
    registerAttribute(registry);
    registerFilterPoints(registry);
    // Output
    registerPaint(registry);
    // Groups: a graph file used as one node (core/graph/GroupGraph.h)
    registry.add(groupNodeDescriptor());
}

const NodeRegistry &builtinRegistry()
{
    static const NodeRegistry registry = [] {
        NodeRegistry r;
        registerBuiltinNodes(r);
        return r;
    }();
    return registry;
}

} // namespace grove
