// An open graph: the Graph, its file, its undo stack and its problems; emits typed change signals.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupResolver.h"

#include <QObject>
#include <QPointF>
#include <QString>
#include <QUndoStack>

#include <optional>
#include <string>

namespace grove {

class NodeRegistry;

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(const NodeRegistry &registry, QObject *parent = nullptr);
    ~Document() override;

    const Graph &graph() const { return m_graph; }
    const NodeRegistry &registry() const { return m_registry; }
    // The group files the graph includes, read when it is loaded or an edit names a new one, and
    // again on reloadGroups(); looking a descriptor up there never reads a file.
    const GroupResolver &groups() const { return m_groups; }
    QUndoStack *undoStack() { return &m_undoStack; }
    QString filePath() const { return m_filePath; }
    bool isModified() const { return !m_undoStack.isClean(); }

    // Replaces the graph with a new, empty one.
    void clear();
    // Loads a file; false (with the problems in `diagnostics`) when nothing usable could be read.
    bool load(const QString &path, Diagnostics *diagnostics);
    // Loads a file as a new, untitled graph (a preset): saving then asks where to.
    bool loadAsNew(const QString &path, Diagnostics *diagnostics);
    // Saves through the canonical text and an atomic write; returns the reason on failure.
    std::optional<std::string> save(const QString &path);

    // Problems of the file as loaded plus those of the graph as it is now, each with a location.
    const Diagnostics &problems() const { return m_problems; }
    // What the last preview run found (a layer that came out empty and why, a node that failed):
    // listed with the problems, never saved; each run replaces them.
    const Diagnostics &runProblems() const { return m_runProblems; }
    void setRunProblems(Diagnostics problems);

    // Queries for the UI; they never change the graph.
    QPointF nodePosition(const std::string &id) const;
    std::string uniqueNodeId(const std::string &base) const;
    std::optional<std::string> renameProblem(const std::string &oldId, const std::string &newId) const;
    bool isCollapsed(const std::string &id) const;

    // Reads the group files again (one changed on disk), then checks the graph again. Descriptors
    // held through groups().descriptor() stay valid; those from find() are the new ones from now.
    void reloadGroups();

    // Ends a run of merging edits (a slider drag, typing in one field): the next value edit starts
    // a new undo step even if it changes the same value. Commands compare mergeGeneration().
    void endMerge() { ++m_mergeGeneration; }
    int mergeGeneration() const { return m_mergeGeneration; }

    // Mutators: called only by undo commands, so every change is undoable. A command remembers the
    // folder its file paths were written for (`writtenIn`, the graph's folder then): after a Save As
    // into another folder, undo and redo rewrite them to reach the same files from the new one.
    void insertNode(int index, const Node &node, const NodeLayout &layout, const std::string &writtenIn = {});
    void removeNode(const std::string &id);
    void setNodePosition(const std::string &id, QPointF pos);
    void setInput(const std::string &id, const std::string &port, const std::optional<Link> &link);
    void setParam(const std::string &id, const std::string &name, const Value &value, const std::string &writtenIn = {});
    void renameNode(const std::string &oldId, const std::string &newId);
    void setCollapsed(const std::string &id, bool collapsed);
    void setGraphInfo(const std::string &name, const std::string &notes, const World &world);
    // Swaps in a whole graph (recovering an autosave); layout included.
    void replaceGraph(const Graph &graph);

signals:
    void graphReset();
    void nodeAdded(const QString &id);
    void nodeRemoved(const QString &id);
    void nodeRenamed(const QString &oldId, const QString &newId);
    void nodeMoved(const QString &id);
    void nodeCollapsedChanged(const QString &id);
    void graphInfoChanged();
    void paramChanged(const QString &id, const QString &param);
    void inputChanged(const QString &id, const QString &port);
    void problemsChanged();
    void filePathChanged(const QString &path);
    // reloadGroups() read the group files again: a group node's exposed params may have changed
    void groupsReloaded();

private:
    // Rewrites the node's file paths written for the folder `from` to reach the same files from `to`;
    // the names of the params rewritten.
    std::vector<std::string> moveFilePaths(Node &node, const std::string &from, const std::string &to) const;
    void setFileState(LoadResult loaded);
    const Diagnostics &fileDiagnostics();
    void layoutUnplacedNodes();
    void scheduleValidation();
    void validateNow();
    void resolveGroups();

    const NodeRegistry &m_registry;
    GroupResolver m_groups;
    Graph m_graph;
    QString m_filePath;
    QUndoStack m_undoStack;
    LoadResult m_file;               // the file as on disk: locations and its own problems
    // Problems of the file that editing cannot fix (until saved); worked out at the first edit.
    std::optional<Diagnostics> m_fileDiagnostics;
    Diagnostics m_problems;
    Diagnostics m_runProblems;
    bool m_validationPending = false;
    int m_mergeGeneration = 0;
};

} // namespace grove
