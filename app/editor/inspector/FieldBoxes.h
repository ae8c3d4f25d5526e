// Small pieces the param editors share: a tight row, a box for one record field (a line for a
// string, a NumberField for a number), colour swatches and the colour picker.
#pragma once

#include "core/graph/NodeDescriptor.h"
#include "core/base/Value.h"

#include <QString>

#include <functional>
#include <optional>

class QColor;
class QHBoxLayout;
class QLineEdit;
class QPushButton;
class QWidget;

namespace grove {

// A row layout on `w` without margins.
QHBoxLayout *tightRow(QWidget *w, int spacing = 6);

// A box for a field of `kind` (String, Number or Integer).
QLineEdit *fieldBox(ParamKind kind, const QString &placeholder, QWidget *parent);
void showField(QLineEdit *box, const Value *value);
// The box's value, or nothing with the reason in *error.
std::optional<Value> readField(QLineEdit *box, QString *error);

// Shows a colour on a button: its name on the colour, in black or white, whichever reads.
void paintSwatch(QPushButton *button, const QColor &color);
// Opens a colour dialog (not blocking) on `parent`; calls `chosen` when the user accepts a colour.
void pickColor(QWidget *parent, const QColor &initial, const QString &title, std::function<void(const QColor &)> chosen);

} // namespace grove
