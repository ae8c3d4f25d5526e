// "Compare with Saved": the file on disk evaluated in the background (as the preview evaluates),
// diffed per exported layer against the preview's current points, and drawn over the map:
// removed red, added green, moved as short arrows, kept grey, with a legend of counts.
#pragma once

#include "preview/PreviewSnapshot.h"

#include "core/analysis/PointDiff.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <string>

class QPainter;

namespace grove {

class Document;
class Evaluator;
class PreviewView;

class SavedComparison : public QObject
{
    Q_OBJECT

public:
    SavedComparison(Document *document, PreviewView *view, QObject *parent = nullptr);
    ~SavedComparison() override;

    void setEnabled(bool on);
    bool isEnabled() const { return m_enabled; }
    // The preview's newest snapshot: the side the saved file is compared with.
    void setCurrent(const PreviewSnapshotPtr &snapshot);
    // Exported layers (node ids) unticked in the layer table: their marks are not drawn either.
    void setHiddenLayers(const std::set<std::string> &ids);
    // The diff shown now (saved -> current), once both sides are there.
    const std::optional<PointDiff> &diff() const { return m_diff; }
    // What stands in for the diff: "nothing saved to compare with", "evaluating the saved file…",
    // or why the saved file gives no points; empty while a diff is shown.
    QString message() const { return m_message; }
    // One line per layer: "trees: 3 added, 2 removed, 1 moved".
    QStringList legend() const;
    // The saved side's evaluation is running.
    bool isBusy() const { return m_busy; }

signals:
    void changed();

private:
    void evaluateSaved();
    void savedReady(quint64 ticket, std::shared_ptr<DiffLayersLoad> layers, QString problem);
    void rediff();
    void paint(QPainter &p);
    std::optional<Region> regionOf(const PreviewSnapshotPtr &snapshot) const;

    Document *m_document;
    PreviewView *m_view;
    QThreadPool m_pool;
    // the saved side's own cache: a re-save or a pan re-evaluates only what changed
    std::shared_ptr<Evaluator> m_evaluator;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_enabled = false;
    bool m_busy = false;
    quint64 m_ticket = 0;
    PreviewSnapshotPtr m_current;
    std::optional<std::vector<DiffLayer>> m_saved;
    std::optional<Region> m_savedRegion;  // the region the saved side was evaluated for
    std::optional<PointDiff> m_diff;
    std::set<std::string> m_hiddenIds;
    std::set<std::string> m_hiddenNames;  // their export names, as the diff names layers
    QString m_message;
};

} // namespace grove
