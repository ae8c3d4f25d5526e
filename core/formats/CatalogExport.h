// The node catalog rendered from the descriptors: JSON for tools, Markdown for docs, text for terminals.
#pragma once

#include <string>

namespace grove {

class NodeRegistry;

std::string catalogJson(const NodeRegistry &registry);
std::string catalogMarkdown(const NodeRegistry &registry);
std::string catalogText(const NodeRegistry &registry);

} // namespace grove
