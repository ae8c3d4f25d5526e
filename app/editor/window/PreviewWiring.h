// Each tab's live preview wired into the window: its dock page's messages, the status bar's
// progress of long runs (with Cancel) and the View menu's Chunk borders and Compare with Saved,
// all the front tab's; and the thumbnails its frames put on the canvas's cards.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace grove {

class GraphTab;
class TabSet;

class PreviewWiring : public QObject
{
    Q_OBJECT

public:
    // Adds the progress bar and Cancel to `statusBar` and two places for the front tab's preview
    // actions to `viewMenu`; follows every tab `tabs` creates from now on.
    PreviewWiring(TabSet *tabs, QStatusBar *statusBar, QMenu *viewMenu, QObject *parent);

signals:
    void statusMessage(const QString &message, int timeoutMs);

private:
    void wire(GraphTab *tab);
    void showFront(GraphTab *tab);  // another tab came forward: its progress, its View menu items
    void showThumbnails(GraphTab *tab);

    TabSet *m_tabs;
    QMenu *m_viewMenu;
    QAction *m_chunkBordersSlot = nullptr;  // the front tab's preview actions in the View menu
    QAction *m_compareSlot = nullptr;
    QProgressBar *m_evalProgress = nullptr;
    QPushButton *m_evalCancel = nullptr;
};

} // namespace grove
