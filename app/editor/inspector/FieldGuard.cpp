// FieldGuard: one event filter for every field of the Inspector and the World panel.
#include "inspector/FieldGuard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QUndoStack>
#include <QWidget>

namespace grove {

namespace {

bool takesWheel(const QWidget *w)
{
    return qobject_cast<const QAbstractSpinBox *>(w) || qobject_cast<const QComboBox *>(w)
        || qobject_cast<const QAbstractSlider *>(w);
}

bool takesTyping(const QWidget *w)
{
    return qobject_cast<const QLineEdit *>(w) || qobject_cast<const QAbstractSpinBox *>(w);
}

bool isKey(const QEvent *event)
{
    return event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride;
}

} // namespace

bool isUndoKey(const QEvent *event)
{
    return isKey(event) && static_cast<const QKeyEvent *>(event)->matches(QKeySequence::Undo);
}

bool isRedoKey(const QEvent *event)
{
    if (!isKey(event))
        return false;
    auto *key = static_cast<const QKeyEvent *>(event);
    return key->matches(QKeySequence::Redo)
        || (key->key() == Qt::Key_Y && key->modifiers() == Qt::ControlModifier);
}

FieldGuard::FieldGuard(QUndoStack *stack, QObject *parent) : QObject(parent), m_stack(stack) {}

void FieldGuard::guard(QWidget *root)
{
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : widgets) {
        if (!takesWheel(w) && !takesTyping(w))
            continue;
        if (takesWheel(w))
            w->setFocusPolicy(Qt::StrongFocus);  // a wheel alone never gives focus
        w->removeEventFilter(this);
        w->installEventFilter(this);
    }
}

bool FieldGuard::eventFilter(QObject *watched, QEvent *event)
{
    auto *w = qobject_cast<QWidget *>(watched);
    if (!w)
        return false;
    if (event->type() == QEvent::Wheel && takesWheel(w) && !w->hasFocus()) {
        event->ignore();  // propagates to the scroll area
        return true;
    }
    // Esc in a field drops what was typed there and not yet applied (the value comes back), as
    // the undo key does; with nothing typed it goes on as before
    if (event->type() == QEvent::KeyPress && takesTyping(w) && discardTyping) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier && discardTyping(w))
            return true;
    }
    const bool undo = isUndoKey(event), redo = !undo && isRedoKey(event);
    if (!(undo || redo) || !takesTyping(w))
        return false;
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept();  // the field gets the key press, and this filter handles it
        return true;
    }
    const bool dropped = discardTyping && discardTyping(w);
    if (undo && !dropped)
        m_stack->undo();
    else if (redo)
        m_stack->redo();
    return true;
}

} // namespace grove
