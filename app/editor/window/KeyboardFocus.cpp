// KeyboardFocus: a dock out of view has its contents disabled (a disabled widget takes no focus and
// gives up the one it had); Tab is caught before Qt moves the focus, so the palette opens instead.
#include "window/KeyboardFocus.h"

#include "canvas/GraphView.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QCursor>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace grove {

namespace {

// A field the user types text into (lists take keys too, to jump to an item, but are no field).
bool takesText(const QWidget *w)
{
    if (qobject_cast<const QLineEdit *>(w) || qobject_cast<const QAbstractSpinBox *>(w))
        return true;
    if (const auto *text = qobject_cast<const QTextEdit *>(w))
        return !text->isReadOnly();
    if (const auto *plain = qobject_cast<const QPlainTextEdit *>(w))
        return !plain->isReadOnly();
    const auto *combo = qobject_cast<const QComboBox *>(w);
    return combo && combo->isEditable();
}

} // namespace

KeyboardFocus::KeyboardFocus(QMainWindow *window, std::function<GraphView *()> canvas)
    : QObject(window), m_window(window), m_canvas(std::move(canvas))
{
    qApp->installEventFilter(this);
}

void KeyboardFocus::watch(QDockWidget *dock)
{
    // Shown, hidden, or its tab picked or left: Qt says which by visibilityChanged.
    connect(dock, &QDockWidget::visibilityChanged, this, [dock](bool inView) {
        if (QWidget *contents = dock->widget())
            contents->setEnabled(inView);
    });
}

// Tab pressed anywhere in the window but a text field (where Tab goes to the next field, as in any
// form), with the pointer over the front canvas: the palette at the pointer, the canvas focused.
bool KeyboardFocus::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress || !watched->isWidgetType())
        return false;
    auto *key = static_cast<QKeyEvent *>(event);
    auto *target = static_cast<QWidget *>(watched);
    if (key->key() != Qt::Key_Tab || key->modifiers() != Qt::NoModifier || target->window() != m_window
        || takesText(target))
        return false;
    GraphView *canvas = m_canvas();
    if (!canvas || target == canvas)
        return false;  // the canvas opens it itself
    QWidget *viewport = canvas->viewport();
    const QPoint pointer = QCursor::pos();
    QWidget *under = QApplication::widgetAt(pointer);
    if (!viewport->isVisible() || !under || (under != viewport && !viewport->isAncestorOf(under)))
        return false;
    canvas->setFocus(Qt::TabFocusReason);
    canvas->showPalette(viewport->mapFromGlobal(pointer));
    return true;
}

} // namespace grove
