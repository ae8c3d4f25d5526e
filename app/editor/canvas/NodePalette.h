// A searchable popup listing every node type of the registry; picking one asks to add it.
#pragma once

#include "core/base/DataTypes.h"

#include <QFrame>
#include <QStringList>

#include <optional>

class QLabel;
class QLineEdit;
class QListWidget;

namespace grove {

class NodeRegistry;

class NodePalette : public QFrame
{
    Q_OBJECT

public:
    NodePalette(const NodeRegistry &registry, QWidget *parent = nullptr);
    // `takes`: list only node types with an input of that type (a wire is waiting for one).
    void popup(QPoint globalPos, std::optional<DataType> takes = std::nullopt);
    // The type ids listed now, in order (what the user can pick).
    QStringList visibleTypeIds() const;

signals:
    void typeChosen(const QString &typeId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void filter(const QString &text);
    void choose();
    void fitToContents();

    const NodeRegistry &m_registry;
    QLabel *m_heading;
    QLineEdit *m_search;
    QListWidget *m_list;
    std::optional<DataType> m_takes;
};

} // namespace grove
