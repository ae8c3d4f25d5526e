// The selected node's id and params, as widgets generated from its descriptor.
#pragma once

#include "core/base/Value.h"

#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QFormLayout;
class QLabel;
class QLineEdit;
class QVBoxLayout;

namespace grove {

class Document;
class Evaluator;
struct Node;
struct NodeDescriptor;
struct ParamSpec;
class FieldGuard;
class ParamEditor;

class Inspector : public QWidget
{
    Q_OBJECT

public:
    explicit Inspector(Document *document, QWidget *parent = nullptr);
    ~Inspector() override;

    // Shows a node (empty: none); `count` says how many are selected, for the hint.
    void showNode(const std::string &id, int selectedCount = 1);

private:
    void rebuild();
    // Hides the params that do not matter given the others (a RAW file's size beside a PNG).
    void showWhatMatters();
    void commitParam(const std::string &name, const Value &value);
    void commitRename();
    bool discardTyping(QWidget *field);
    ParamEditor *makeEditor(const Node &node, const ParamSpec &spec, QWidget *parent);
    // The names the labels wired into `input` offer (nothing while it is unwired).
    std::vector<std::string> offeredLabels(const Node &node, const std::string &input);

    Document *m_document;
    FieldGuard *m_guard;
    std::unique_ptr<Evaluator> m_labels;  // evaluates what a node's labels input offers
    std::string m_nodeId;
    int m_selectedCount = 0;
    QWidget *m_content = nullptr;
    QVBoxLayout *m_layout;
    QFormLayout *m_form = nullptr;
    QLineEdit *m_idEdit = nullptr;
    QLabel *m_idError = nullptr;
    std::map<std::string, ParamEditor *> m_editors;
    std::map<std::string, QLabel *> m_errors;
};

} // namespace grove
