// The catalog of node types, filled by an explicit registration list (nodes/BuiltinNodes.cpp).
#pragma once

#include "core/graph/NodeDescriptor.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace grove {

class NodeRegistry
{
public:
    void add(NodeDescriptor descriptor);
    const NodeDescriptor *find(const std::string &typeId) const;
    // In registration order (the catalog's order).
    const std::vector<std::unique_ptr<NodeDescriptor>> &all() const { return m_descriptors; }
    std::vector<std::string> typeIds() const;

private:
    std::vector<std::unique_ptr<NodeDescriptor>> m_descriptors;
    std::map<std::string, const NodeDescriptor *> m_byId;
};

} // namespace grove
