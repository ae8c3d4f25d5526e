// A big chunked world's preview by region: which rectangle of the world a run paints, at what size.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/Graph.h"

#include <QRectF>
#include <QSize>
#include <QString>

#include <optional>

namespace grove {

// What one region run paints: a rectangle of the world on width x height pixels.
struct RegionRun
{
    Region region;
    int width = 0, height = 0;
    bool operator==(const RegionRun &) const = default;
};

// The rectangle Fit shows: the whole world, or for an endless world 4 x 4 chunks from the origin.
QRectF previewHome(const World &world);

// Whether a preview of a world homed at `wasHome` still shows the same world once it is homed at
// `home`: an endless world keeps its place when its home (its chunk size) changes, a finite world
// with another home is a new world (fitted anew).
bool sameWorldShown(bool wasEndless, QRectF wasHome, bool endless, QRectF home);

// The run for a view that shows `visible` (world units) on `pixels` device pixels: the visible part
// of the world (clipped to a finite world, or to an endless world's chunk range) at the view's
// resolution. `fit`: `visible` is to be fitted into `pixels` keeping its aspect (the first run of
// a world, before the view has shown it). Nothing when no part of the world is in view.
std::optional<RegionRun> regionRun(const World &world, QRectF visible, QSize pixels, bool fit = false);

// What the preview says when a view overlaps more chunks than it places.
QString overBudgetMessage(std::size_t chunks, std::size_t maxChunks);

} // namespace grove
