// Node registry: lookup by type id, catalog order preserved.
#include "core/graph/NodeRegistry.h"

#include <stdexcept>

namespace grove {

void NodeRegistry::add(NodeDescriptor descriptor)
{
    if (m_byId.count(descriptor.typeId))
        throw std::logic_error("node type registered twice: " + descriptor.typeId);
    if (auto problem = checkRoles(descriptor))
        throw std::logic_error("node type " + descriptor.typeId + " declares its roles wrongly: " + *problem);
    if (auto problem = checkMigrations(descriptor))
        throw std::logic_error("node type " + descriptor.typeId + " declares its versions wrongly: " + *problem);
    auto owned = std::make_unique<NodeDescriptor>(std::move(descriptor));
    m_byId[owned->typeId] = owned.get();
    m_descriptors.push_back(std::move(owned));
}

const NodeDescriptor *NodeRegistry::find(const std::string &typeId) const
{
    auto it = m_byId.find(typeId);
    return it == m_byId.end() ? nullptr : it->second;
}

std::vector<std::string> NodeRegistry::typeIds() const
{
    std::vector<std::string> ids;
    for (const auto &d : m_descriptors)
        ids.push_back(d->typeId);
    return ids;
}

} // namespace grove
