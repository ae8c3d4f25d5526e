// grove-thumbnail GRAPH NODE OUT.png: draws NODE's first output of GRAPH as the editor's cards do
// (fields in the colour ramp, labels in their colours, masks tinted, points as dots), 256 pixels
// on the world's longer side. The manual's node reference pictures come from it.
#include "app/editor/preview/OutputRaster.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "nodes/BuiltinNodes.h"

#include <QGuiApplication>

#include <algorithm>
#include <cstdio>

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: grove-thumbnail GRAPH NODE OUT.png\n");
        return 2;
    }
    using namespace grove;
    const NodeRegistry &registry = builtinRegistry();
    const LoadResult loaded = loadGraphFile(argv[1], registry);
    if (!loaded.ok()) {
        for (const auto &d : loaded.diagnostics)
            std::fprintf(stderr, "%s: %s\n", argv[1], d.message.c_str());
        return 1;
    }
    const EvalResult result = Evaluator(registry).evaluate(loaded.graph);
    const PortValue value = result.output(argv[2]);
    if (!result.ok() || std::holds_alternative<std::monostate>(value)) {
        for (const auto &d : result.diagnostics)
            std::fprintf(stderr, "%s: %s: %s\n", argv[1], d.nodeId.c_str(), d.message.c_str());
        std::fprintf(stderr, "%s: node '%s' has no output to draw\n", argv[1], argv[2]);
        return 1;
    }
    const World &world = loaded.graph.world;
    const double scale = 256 / std::max(world.width, world.height);
    const QImage image = OutputRaster::render(value, world, std::max(8, static_cast<int>(world.width * scale)),
                                              std::max(8, static_cast<int>(world.height * scale)), true);
    if (image.isNull() || !image.save(QString::fromLocal8Bit(argv[3]), "PNG")) {
        std::fprintf(stderr, "cannot draw '%s' into %s\n", argv[2], argv[3]);
        return 1;
    }
    return 0;
}
