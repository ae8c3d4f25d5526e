// AreaListEditor: an area list (a layer's erase areas) as one line per area with Remove, and
// Clear all; the shapes themselves are drawn and edited in the preview.
#include "inspector/ListEditors.h"

#include "core/graph/AreaValue.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace grove {

namespace {

QString number(double v) { return QString::fromStdString(formatNumber(v)); }

// "circle at (300, 200) r 60", "polygon of 5 vertices"
QString describe(const Value &value)
{
    const std::optional<Area> area = readArea(value);
    if (area && area->circle)
        // no-break spaces: a narrow Inspector wraps between areas' words, never inside "r 20"
        return QObject::tr("circle at (%1,\u00a0%2) r\u00a0%3").arg(number(area->centre.x), number(area->centre.y), number(area->radius));
    if (area)
        return QObject::tr("polygon of %1 vertices").arg(area->polygon.size());
    return QObject::tr("(unreadable area)");
}

class AreaListEditor : public ParamEditor
{
public:
    AreaListEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent), m_rows(new QVBoxLayout)
    {
        auto *column = new QVBoxLayout(this);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        m_rows->setSpacing(1);
        column->addLayout(m_rows);
        auto *bottom = new QHBoxLayout;
        m_summary = new QLabel(this);
        m_summary->setStyleSheet("color: gray;");
        m_summary->setWordWrap(true);  // wraps in a narrow Inspector instead of widening it
        bottom->addWidget(m_summary, 1);
        m_clear = new QPushButton(tr("Clear all"), this);
        m_clear->setObjectName("clearAll");
        m_clear->setToolTip(tr("Remove every area (one undo step)"));
        bottom->addWidget(m_clear);
        column->addLayout(bottom);
        connect(m_clear, &QPushButton::clicked, this, [this] { commit(ValueList{}); });
    }

    void setValue(const Value &value) override
    {
        m_items = value.isList() ? value.toList() : ValueList{};
        while (QLayoutItem *item = m_rows->takeAt(0)) {
            item->widget()->hide();
            item->widget()->deleteLater();  // a Remove button may be the sender still on the stack
            delete item;
        }
        // a brush stroke is many circles: the first rows, then a count, keeps the Inspector short
        const std::size_t shown = std::min<std::size_t>(m_items.size(), kMaxRows);
        for (std::size_t i = 0; i < shown; ++i) {
            auto *row = new QWidget(this);
            auto *layout = new QHBoxLayout(row);
            layout->setContentsMargins(0, 0, 0, 0);
            auto *label = new QLabel(describe(m_items[i]), row);
            label->setWordWrap(true);
            layout->addWidget(label, 1);
            auto *remove = new QPushButton(QStringLiteral("\u00d7"), row);  // as the other lists' remove
            remove->setFixedWidth(26);
            remove->setObjectName(QString("remove_%1").arg(i));
            remove->setToolTip(tr("Remove this area (one undo step)"));
            layout->addWidget(remove);
            connect(remove, &QPushButton::clicked, this, [this, i] {
                ValueList items = m_items;
                if (i < items.size())
                    items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
                commit(items);
            });
            m_rows->addWidget(row);
        }
        m_summary->setText(m_items.empty() ? tr("none: erase in the preview (E, R)")
                           : m_items.size() > shown ? tr("%1 areas (%2 more not listed)").arg(m_items.size()).arg(m_items.size() - shown)
                                                    : m_items.size() == 1 ? tr("1 area") : tr("%1 areas").arg(m_items.size()));
        m_clear->setEnabled(!m_items.empty());
        emit widgetsAdded(this);
    }

private:
    static constexpr std::size_t kMaxRows = 12;

    void commit(const ValueList &items)
    {
        emit edited(Value(items));
        emit editFinished();
    }

    QVBoxLayout *m_rows;
    QLabel *m_summary;
    QPushButton *m_clear;
    ValueList m_items;
};

} // namespace

ParamEditor *createAreaListEditor(const ParamSpec &spec, QWidget *parent)
{
    return new AreaListEditor(spec, parent);
}

} // namespace grove
