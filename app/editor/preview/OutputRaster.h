// Rasterises a node's output (field, labels, mask or points) to a QImage for thumbnails and overlays.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/Graph.h"

#include <QImage>

namespace grove {

namespace OutputRaster {

// The value over the whole world at width x height: fields in a colour ramp (or grey), labels in
// their colours, masks as a tint where allowed, points as dots. `opaque`: a dark background
// (thumbnails); otherwise transparent where there is nothing to show (overlays). A null image
// for monostate and ground products.
QImage render(const PortValue &value, const World &world, int width, int height, bool opaque, bool grey = false,
              int threads = 1);
// The same over a rectangle of the world (a big chunked world's view).
QImage render(const PortValue &value, const Region &region, int width, int height, bool opaque, bool grey = false,
              int threads = 1);

// A field value as a ramp colour (blue, green, yellow, white over [0, 1]).
QColor ramp(double v);

} // namespace OutputRaster

} // namespace grove
