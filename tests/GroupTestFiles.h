// A group file whose exposed `gap` defaults to a given number, and a top graph that includes it
// without setting gap (so the node shows the file's default): the group resolver's tests.
#pragma once

#include "TestSupport.h"

#include "core/graph/NodeDescriptor.h"

#include <filesystem>
#include <string>

namespace grove::test {

inline std::string groupFileWithGap(int gap)
{
    return "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
           "outputs:\n  dots: {from: dots.points}\n"
           "expose:\n  gap: {param: dots.radius, default: " + std::to_string(gap) + "}\n"
           "nodes:\n  dots:\n    type: place_layer\n    params: {radius: 10}\n";
}

// g includes parts/dots.grove.yaml, relative to the top graph's folder.
inline const std::string kTopWithGroup = "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                         "nodes:\n  g:\n    type: group\n    params: {graph: parts/dots.grove.yaml}\n";

// dir/top.grove.yaml including dir/parts/dots.grove.yaml, whose gap defaults to gap.
inline void writeTopWithGroup(const std::string &dir, int gap)
{
    std::filesystem::create_directories(dir + "/parts");
    writeFile(dir + "/parts/dots.grove.yaml", groupFileWithGap(gap));
    writeFile(dir + "/top.grove.yaml", kTopWithGroup);
}

// The default of a descriptor's `gap` (-1: it has none).
inline double gapOf(const NodeDescriptor *d)
{
    const ParamSpec *gap = d ? d->param("gap") : nullptr;
    return gap ? gap->defaultValue.toNumber() : -1;
}

} // namespace grove::test
