// Editors for lists and records, generated from the spec: a row per item (add, remove, move),
// a box per record field, swatches for colours, and a "none" toggle for a nullable record.
#pragma once

#include "inspector/ParamEditors.h"

#include <string>
#include <vector>

namespace grove {

// The editor for NumberList, StringList, ColorList, RecordList and Record specs.
ParamEditor *createListEditor(const ParamSpec &spec, QWidget *parent);
// A nullable record: "none", or a box per field (RecordEditor.cpp).
ParamEditor *createRecordEditor(const ParamSpec &spec, QWidget *parent);
// An area list: a line per area with Remove, and Clear all (the shapes are edited in the preview).
ParamEditor *createAreaListEditor(const ParamSpec &spec, QWidget *parent);
// A path list: how many paths and vertices, and Clear all (the paths are drawn in the preview).
ParamEditor *createPathListEditor(const ParamSpec &spec, QWidget *parent);

// A list of names picked from those the upstream offers (labels): a tick box per offered name.
// Names in the list that are not offered are kept, and shown as such.
ParamEditor *createChoiceList(const ParamSpec &spec, const std::vector<std::string> &offered, QWidget *parent);

} // namespace grove
