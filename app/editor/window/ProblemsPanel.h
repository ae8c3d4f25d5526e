// The Problems dock: every diagnostic as "line:col message"; clicking one selects its node.
#pragma once

#include <QListWidget>

#include <string>

namespace grove {

class Document;

class ProblemsPanel : public QListWidget
{
    Q_OBJECT

public:
    explicit ProblemsPanel(Document *document, QWidget *parent = nullptr);

signals:
    void nodeActivated(const std::string &nodeId);
    void countChanged(int errors, int warnings);

private:
    void refresh();

    Document *m_document;
};

} // namespace grove
