// What the group units (GroupResolver, GroupDeclarations, GroupExpansion, GroupEditing) share.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/NodeDescriptor.h"

#include <filesystem>
#include <string>

namespace grove::group_detail {

inline Diagnostic problemAt(std::string path, std::string nodeId, std::string message)
{
    Diagnostic d;
    d.path = std::move(path);
    d.nodeId = std::move(nodeId);
    d.message = std::move(message);
    return d;
}

// The port a link names on a descriptor's outputs (empty port: the first one).
inline // The port a link names on a descriptor's outputs (empty port: the first one).
const PortSpec *outputOf(const NodeDescriptor &d, const std::string &port)
{
    if (port.empty())
        return d.outputs.empty() ? nullptr : &d.outputs.front();
    return d.output(port);
}

inline std::string joinPath(const std::string &dir, const std::string &file)
{
    if (dir.empty() || file.empty() || file.front() == '/')
        return file;
    return (std::filesystem::path(dir) / file).lexically_normal().string();
}

} // namespace grove::group_detail
