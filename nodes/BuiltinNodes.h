// Registers every built-in node type, in catalog order.
#pragma once

namespace grove {

class NodeRegistry;

void registerBuiltinNodes(NodeRegistry &registry);

// One shared registry of the built-in nodes, built on first use.
const NodeRegistry &builtinRegistry();

} // namespace grove
