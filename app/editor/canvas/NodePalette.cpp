// NodePalette filtering and keyboard handling.
#include "canvas/NodePalette.h"

#include "common/EditorStyle.h"

#include "core/graph/NodeRegistry.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QVBoxLayout>

#include <algorithm>

namespace grove {

NodePalette::NodePalette(const NodeRegistry &registry, QWidget *parent)
    : QFrame(parent, Qt::Popup), m_registry(registry), m_heading(new QLabel(this)), m_search(new QLineEdit(this)),
      m_list(new QListWidget(this))
{
    setObjectName("NodePalette");
    m_search->setObjectName("paletteSearch");
    m_heading->setStyleSheet("color: gray;");
    m_heading->hide();
    setFrameShape(StyledPanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    m_search->setPlaceholderText(tr("Search nodes…"));
    m_search->setClearButtonEnabled(true);
    layout->addWidget(m_heading);
    layout->addWidget(m_search);
    layout->addWidget(m_list);
    setMinimumWidth(280);

    for (const auto &d : registry.all()) {
        auto *item = new QListWidgetItem(QString::fromStdString(d->displayName + "  ·  " + d->category), m_list);
        item->setData(Qt::UserRole, QString::fromStdString(d->typeId));
        item->setData(Qt::UserRole + 1,
                      QString::fromStdString(d->displayName + " " + d->typeId + " " + d->category).toLower());
        int inputTypes = 0;
        for (const PortSpec &in : d->inputs)
            inputTypes |= 1 << static_cast<int>(in.type);
        item->setData(Qt::UserRole + 2, inputTypes);
        item->setToolTip(QString::fromStdString(d->description));
        item->setForeground(style::categoryColor(registry, d->category).lighter(140));
    }
    fitToContents();
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::textChanged, this, &NodePalette::filter);
    connect(m_search, &QLineEdit::returnPressed, this, &NodePalette::choose);
    connect(m_list, &QListWidget::itemActivated, this, &NodePalette::choose);
    connect(m_list, &QListWidget::itemClicked, this, &NodePalette::choose);
}

void NodePalette::popup(QPoint globalPos, std::optional<DataType> takes)
{
    m_takes = takes;
    m_heading->setText(takes ? tr("Nodes that take a %1:").arg(dataTypeName(*takes)) : QString());
    m_heading->setVisible(takes.has_value());
    m_search->clear();
    filter(QString());
    QScreen *s = QGuiApplication::screenAt(globalPos);
    QRect screen = s ? s->availableGeometry() : QRect(0, 0, 4000, 4000);
    QPoint p = globalPos;
    p.setX(std::min(p.x(), screen.right() - width()));
    p.setY(std::min(p.y(), screen.bottom() - height()));
    move(p);
    show();
    m_search->setFocus();
}

void NodePalette::filter(const QString &text)
{
    const QStringList words = text.toLower().split(' ', Qt::SkipEmptyParts);
    QListWidgetItem *first = nullptr;
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        const QString hay = item->data(Qt::UserRole + 1).toString();
        bool match = !m_takes || (item->data(Qt::UserRole + 2).toInt() & (1 << static_cast<int>(*m_takes)));
        for (const QString &w : words)
            match = match && hay.contains(w);
        item->setHidden(!match);
        if (match && !first)
            first = item;
    }
    m_list->setCurrentItem(first);
}

QStringList NodePalette::visibleTypeIds() const
{
    QStringList ids;
    for (int i = 0; i < m_list->count(); ++i)
        if (!m_list->item(i)->isHidden())
            ids << m_list->item(i)->data(Qt::UserRole).toString();
    return ids;
}

void NodePalette::fitToContents()
{
    const int rows = std::max(1, m_list->count());
    const int rowHeight = std::max(18, m_list->sizeHintForRow(0));
    m_list->setFixedHeight(std::min(rows, 14) * rowHeight + 2 * m_list->frameWidth() + 4);
    adjustSize();
}

void NodePalette::choose()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item || item->isHidden())
        return;
    hide();
    emit typeChosen(item->data(Qt::UserRole).toString());
}

bool NodePalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Down || key->key() == Qt::Key_Up) {
            int row = m_list->currentRow();
            const int step = key->key() == Qt::Key_Down ? 1 : -1;
            for (int r = row + step; r >= 0 && r < m_list->count(); r += step)
                if (!m_list->item(r)->isHidden()) {
                    m_list->setCurrentRow(r);
                    break;
                }
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            hide();
            return true;
        }
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace grove
