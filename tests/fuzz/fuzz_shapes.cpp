// libFuzzer target: the shapes and points_file readers (Tiled maps, GeoJSON, grove.points JSON,
// CSV) on any bytes. The first byte picks the reader, the layer name and the width; the rest is
// the file, written to a private temporary file because the readers read paths. A load must end
// in geometry within the limits (whose mask then answers queries) or in a message; never a
// crash, a hang or an unbounded allocation.
#include "core/base/Limits.h"
#include "core/formats/PointsFile.h"
#include "core/geometry/ShapesFile.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace grove;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const unsigned pick = data[0];
    static const char *suffixes[] = {".tmj", ".geojson", ".json", ".csv"};
    static const char *layers[] = {"", "zones", "houses", "a"};
    const std::string path = std::string("/tmp/grove_fuzz_shapes_") + std::to_string(::getpid()) + suffixes[pick & 3];
    if (std::FILE *f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data + 1, 1, size - 1, f);
        std::fclose(f);
    }
    const std::string layer = layers[(pick >> 2) & 3];
    if ((pick & 3) < 2) {
        ShapesLoad loaded = loadShapes(path, layer, {0, 0, (pick & 16) ? 2.0 : 1.0});
        if (loaded.ok()) {
            if (loaded.shapes.vertexCount() > limits::maxShapeVertices + 4)
                std::abort();
            const ShapeIndex index(std::move(loaded.shapes), (pick >> 5) * 1.5);
            unsigned hits = 0;
            for (int i = 0; i < 64; ++i)
                hits += index.covered((i % 8) * 13.7 - 20, (i / 8) * 11.3 - 15);
            (void)hits;
        } else if (loaded.error.empty()) {
            std::abort();
        }
    } else {
        PointsFileOptions o;
        o.layer = layer;
        o.radiusFromFile = (pick & 16) != 0;
        o.maxPoints = 100000;
        const PointsLoad loaded = loadPointsFile(path, o);
        if (loaded.ok()) {
            if (loaded.points.size() > o.maxPoints)
                std::abort();
            for (const PointXYR &p : loaded.points)
                if (!std::isfinite(p.x) || !std::isfinite(p.y) || !(p.r > 0))
                    std::abort();
        } else if (loaded.error.empty()) {
            std::abort();
        }
    }
    std::remove(path.c_str());
    return 0;
}
