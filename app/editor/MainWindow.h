// The editor window: canvas in the centre, Inspector and Problems docks, menus and status bar.
#pragma once

#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;

namespace grove {

class Document;
class GraphScene;
class GraphView;
class Inspector;
class ProblemsPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    bool openFile(const QString &path);
    Document *document() const { return m_document; }
    void selectNode(const QString &id);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void readSettings();
    void writeSettings();

    void newGraph();
    void openDialog();
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);
    void revert();
    bool maybeSave();

    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void updateTitle();
    void updateSelection();

    void addNode(const QString &typeId, QPointF scenePos);
    void deleteSelection();
    void duplicateSelection();
    void copySelection();
    void paste();
    void selectAll();
    void about();

    Document *m_document;
    GraphScene *m_scene;
    GraphView *m_view;
    Inspector *m_inspector;
    ProblemsPanel *m_problems;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_problemCount;
    QAction *m_deleteAction = nullptr;
    QAction *m_duplicateAction = nullptr;
    QAction *m_copyAction = nullptr;
    QAction *m_revertAction = nullptr;
};

} // namespace grove
