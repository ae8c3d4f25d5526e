// Colours of the canvas, derived from descriptors (category, data type), never from node types;
// and notes reflowed for a label.
#pragma once

#include "core/base/DataTypes.h"

#include <QColor>
#include <QString>

#include <string>

namespace grove {

class NodeRegistry;

namespace style {

// A category's colour: its position among the registry's categories picks a hue, so every
// category gets a distinct, stable colour without the editor naming any.
QColor categoryColor(const NodeRegistry &registry, const std::string &category);
QColor dataTypeColor(DataType type);

inline const QColor canvasBackground{38, 40, 44};
inline const QColor gridMinor{46, 48, 53};
inline const QColor gridMajor{56, 59, 65};
inline const QColor cardBody{54, 57, 63};
inline const QColor cardText{230, 232, 236};
inline const QColor cardSubText{160, 166, 176};
inline const QColor selection{255, 196, 64};
inline const QColor problem{220, 58, 58};

// Notes wrapped by hand in a file (a group's, a preset's), as one paragraph per blank-line-separated
// block, for a label that wraps them anew at its own width.
QString reflowed(const std::string &notes);

} // namespace style
} // namespace grove
