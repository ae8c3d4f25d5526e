// Keeps form fields from editing by accident: the wheel scrolls the panel unless the control has
// keyboard focus, undo/redo keys typed in a field reach the document's undo stack, and Esc drops
// what was typed in a field and not yet applied.
#pragma once

#include <QObject>

#include <functional>

class QUndoStack;
class QWidget;

namespace grove {

class FieldGuard : public QObject
{
    Q_OBJECT

public:
    explicit FieldGuard(QUndoStack *stack, QObject *parent = nullptr);

    // Guards every spin box, combo box, slider and line edit under `root` (again: no harm).
    void guard(QWidget *root);

    // Called on Esc, and before an undo or redo key acts on the document, with the field that has focus:
    // drops what was typed there and not yet applied; true when there was something to drop
    // (an undo key then only drops the typing).
    std::function<bool(QWidget *field)> discardTyping;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QUndoStack *m_stack;
};

// True for Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y (and the platform's own undo and redo keys).
bool isUndoKey(const QEvent *event);
bool isRedoKey(const QEvent *event);

} // namespace grove
