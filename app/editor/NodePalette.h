// A searchable popup listing every node type of the registry; picking one asks to add it.
#pragma once

#include <QFrame>

class QLineEdit;
class QListWidget;

namespace grove {

class NodeRegistry;

class NodePalette : public QFrame
{
    Q_OBJECT

public:
    NodePalette(const NodeRegistry &registry, QWidget *parent = nullptr);
    void popup(QPoint globalPos);

signals:
    void typeChosen(const QString &typeId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void filter(const QString &text);
    void choose();
    void fitToContents();

    const NodeRegistry &m_registry;
    QLineEdit *m_search;
    QListWidget *m_list;
};

} // namespace grove
