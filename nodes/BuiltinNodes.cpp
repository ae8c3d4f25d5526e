// The explicit list of built-in node types, in catalog order (no static initializers to lose).
#include "BuiltinNodes.h"

#include "core/NodeRegistry.h"

namespace grove {

void registerConstant(NodeRegistry &);
void registerValueNoise(NodeRegistry &);
void registerThreshold(NodeRegistry &);
void registerAllowedRule(NodeRegistry &);
void registerDensity(NodeRegistry &);
void registerPlaceLayer(NodeRegistry &);
void registerRandomPoints(NodeRegistry &);
void registerJitteredGrid(NodeRegistry &);
void registerDartThrowing(NodeRegistry &);

void registerBuiltinNodes(NodeRegistry &registry)
{
    // Fields
    registerConstant(registry);
    registerValueNoise(registry);
    // Labels & masks
    registerThreshold(registry);
    registerAllowedRule(registry);
    // Density
    registerDensity(registry);
    // Points
    registerPlaceLayer(registry);
    registerRandomPoints(registry);
    registerJitteredGrid(registry);
    registerDartThrowing(registry);
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
