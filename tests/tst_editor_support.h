// Shared by the editor suites: a fixed island graph (not the preset, which may change) and helpers.
#pragma once

#include "TestSupport.h"

#include "core/graph/GraphWriter.h"

#include "document/Document.h"
#include "common/EditorClock.h"
#include "window/MainWindow.h"
#include "preview/PreviewController.h"
#include "document/ValueCommands.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QPointer>
#include <QTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

namespace grove::test {

// Canonical text (saveGraphToString gives it back byte for byte): ten nodes, three layers.
inline const std::string kIsland = R"yaml(grove: 1
name: Island world
notes: |
  Seed 000's layered world: loot chests 140 apart, rocks 34, trees 11 in forests only and
  flowers 6 in meadows only, all on one shared occupancy (each layer's obstacles are the
  previous layer's `all`), so nothing ever overlaps. Big things first, small things last.
world:
  width: 880
  height: 480
  seed: 123456
nodes:
  height:
    type: value_noise
    params:
      frequency: 0.006
      octaves: 5
  land:
    type: allowed_rule
    inputs:
      field: height
    params:
      min: 0.45
  chests:
    type: place_layer
    inputs:
      allowed: land
    params:
      radius: 140
      types:
        - {name: chest, weight: 4}
        - {name: mimic}
      color: "#7c4c24"
      sprite: chest
  moisture:
    type: value_noise
    params:
      frequency: 0.008
      seed: 1
  forest:
    type: allowed_rule
    inputs:
      field: moisture
      mask: land
    params:
      min: 0.52
  meadow:
    type: allowed_rule
    inputs:
      field: moisture
      mask: land
    params:
      max: 0.52
  shore_and_land:
    type: allowed_rule
    inputs:
      field: height
    params:
      min: 0.42
  rocks:
    type: place_layer
    inputs:
      obstacles: chests.all
      allowed: shore_and_land
    params:
      radius: 34
      seed: 1
      rotation: [0, 360]
      scale: [0.8, 1.3]
      color: "#969ca4"
      sprite: rock
  trees:
    type: place_layer
    inputs:
      obstacles: rocks.all
      allowed: forest
    params:
      radius: 11
      seed: 2
      types:
        - {name: oak, weight: 3}
        - {name: pine}
      special: {type: oak, count: 3}
      rotation: [0, 360]
      scale: [0.9, 1.2]
  flowers:
    type: place_layer
    inputs:
      obstacles: trees.all
      allowed: meadow
    params:
      radius: 6
      seed: 3
      types:
        - {name: violet, weight: 2}
        - {name: buttercup}
      color: "#e296ff"
      sprite: flower
layout:
  nodes:
    height: {x: 0, y: 0}
    land: {x: 260, y: 0}
    chests: {x: 780, y: 0}
    moisture: {x: 0, y: 260}
    forest: {x: 520, y: 200}
    meadow: {x: 520, y: 360}
    shore_and_land: {x: 260, y: 160}
    rocks: {x: 1040, y: 60}
    trees: {x: 1300, y: 120}
    flowers: {x: 1560, y: 180}
)yaml";

inline std::string bytes(const Document *document)
{
    return saveGraphToString(document->graph(), document->groups());
}

// One node's block in saved text ("  id:\n    type: ..."), up to the next node or section.
inline std::string nodeBlock(const std::string &text, const std::string &id)
{
    const std::string head = "\n  " + id + ":\n";
    const auto start = text.find(head);
    if (start == std::string::npos)
        return {};
    auto end = start + head.size();
    while (end < text.size() && text.compare(end, 4, "    ") == 0)
        end = text.find('\n', end) + 1;
    return text.substr(start + 1, end - start - 1);
}

// A clock the test moves: the editor's delays (autosave, the preview's debounce and progress bar)
// then decide by how far it was moved, never by how fast the machine is.
class ManualClock : public EditorClock
{
public:
    qint64 nowMs() const override { return m_now; }
    // Moves on `ms` a millisecond at a time, so timers fire in the order of their deadlines; then
    // handles what they posted.
    void advance(int ms)
    {
        for (int i = 0; i < ms; ++i) {
            ++m_now;
            emit advanced();
        }
        QCoreApplication::processEvents();
    }

private:
    qint64 m_now = 1000;
};

// The preview shows the newest edit and nothing is running.
inline bool caughtUp(MainWindow *w)
{
    PreviewController *c = w->preview();
    return !c->isRunning() && c->snapshot() && c->shownGeneration() == c->requestedGeneration();
}

// A param edit as its own undo step (not merged into a slider drag before it).
inline void setParam(Document *d, const std::string &node, const std::string &param, const Value &v)
{
    d->endMerge();
    d->undoStack()->push(new SetParamCommand(d, node, param, v));
}

// A data function's rows: one per shipped preset, its path in the column "path".
inline void addPresetRows()
{
    QTest::addColumn<QString>("path");
    const QDir presets(GROVE_SOURCE_DIR "/presets");
    for (const QString &name : presets.entryList({"*.grove.yaml"}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(name)) << presets.filePath(name);
}

// A shown 1400 x 900 window that read the graph at `path`; none when it cannot be read.
inline std::unique_ptr<MainWindow> shownWindowOn(const QString &path)
{
    auto w = std::make_unique<MainWindow>(registry());
    w->resize(1400, 900);
    w->show();
    if (!w->openFile(path))
        return nullptr;
    return w;
}

// A shown 1400 x 900 window on `text`, saved first as a new file in `dir` (its path in *pathOut).
inline std::unique_ptr<MainWindow> openWindowOn(QTemporaryDir &dir, const std::string &text, QString *pathOut = nullptr)
{
    static int n = 0;
    const QString path = dir.filePath(QString("graph_%1.grove.yaml").arg(++n));
    writeFile(path.toStdString(), text);
    auto w = shownWindowOn(path);
    if (!w)
        qFatal("cannot open %s", qPrintable(path));
    if (pathOut)
        *pathOut = path;
    return w;
}

// Answers the next modal questions, in turn, by clicking the button titled buttons[0], then
// buttons[1], ...; each question's text is appended to *asked (cleared first). The answering stops
// after the last button (or with `owner`).
inline void answerQuestions(QObject *owner, const QStringList &buttons, QStringList *asked)
{
    asked->clear();
    auto *timer = new QTimer(owner);
    auto answered = std::make_shared<std::vector<QPointer<QMessageBox>>>();
    QObject::connect(timer, &QTimer::timeout, owner, [timer, buttons, asked, answered] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || !box->isVisible() || asked->size() >= buttons.size())
            return;
        for (const QPointer<QMessageBox> &done : *answered)
            if (done == box)
                return;  // closing still
        answered->push_back(box);
        const QString button = buttons[asked->size()];
        asked->push_back(box->text());
        for (QAbstractButton *b : box->buttons())
            if (b->text() == button) {
                b->click();
                break;
            }
        if (asked->size() == buttons.size()) {
            timer->stop();  // a deferred delete waits for the loop it was asked in, not the next question's
            timer->deleteLater();
        }
    });
    timer->start(20);
}

// A menu action by its text, as the user finds it.
inline QAction *action(QWidget *window, const QString &text)
{
    for (QAction *a : window->findChildren<QAction *>())
        if (a->text() == text)
            return a;
    qFatal("no action %s", qPrintable(text));
    return nullptr;
}

// An editor suite's main(): private settings and data folders, so the suite never sees or changes
// the user's, and windows autosave only when a test tells them to.
template <class Suite>
int runEditorSuite(int argc, char **argv, const char *organisation = "Grove")
{
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", (home.path() + "/config").toUtf8());
    qputenv("XDG_DATA_HOME", (home.path() + "/data").toUtf8());
    qputenv("GROVE_AUTOSAVE_MS", "3600000");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(organisation);
    QApplication::setApplicationName(organisation);
    Suite test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace grove::test
