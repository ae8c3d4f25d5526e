// What the hand-edit tools share about positions on the map: how near a press picks, how far it
// must move to drag, the tenth of a unit a stored position is rounded to, and the shadow they draw with.
#pragma once

#include "core/math/ExactHypot.h"

#include <QColor>
#include <QPointF>

#include <cmath>

namespace grove::handedit {

inline constexpr double kPickPixels = 7;  // how near (pixels) a press must be to a point or vertex to take it
inline constexpr double kDragPixels = 4;  // a press that moves less is a click
inline const QColor kShadow(0, 0, 0, 170); // the dark edge under what the tools draw, so it shows on light ground

inline double distance(QPointF a, QPointF b) { return exactHypot(a.x() - b.x(), a.y() - b.y()); }

// A position as the graph stores a hand edit: to a tenth of a unit, so saves stay short and diffable.
inline double tidy(double v) { return std::round(v * 10) / 10; }
inline QPointF tidy(QPointF p) { return QPointF(tidy(p.x()), tidy(p.y())); }

} // namespace grove::handedit
