// Where the window's keys go: never into a dock that lies behind another in its tab group, and Tab
// with the pointer over the canvas opens the node palette there, as Tab on the canvas does.
#pragma once

#include <QObject>

#include <functional>

class QDockWidget;
class QMainWindow;

namespace grove {

class GraphView;

class KeyboardFocus : public QObject
{
    Q_OBJECT

public:
    // `canvas` gives the front tab's canvas.
    KeyboardFocus(QMainWindow *window, std::function<GraphView *()> canvas);

    // A dock's fields take the keys only while the dock is in view: behind another dock's tab
    // (where Qt keeps it shown, off screen) they are out of the Tab order and lose the focus.
    void watch(QDockWidget *dock);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QMainWindow *m_window;
    std::function<GraphView *()> m_canvas;
};

} // namespace grove
