// PathListEditor: a path list (paths drawn in the preview) as a count of paths and vertices with
// Clear all; the paths themselves are drawn and edited in the preview (the Path tool).
#include "inspector/ListEditors.h"

#include "core/graph/PathValue.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace grove {

namespace {

class PathListEditor : public ParamEditor
{
public:
    PathListEditor(const ParamSpec &spec, QWidget *parent) : ParamEditor(spec, parent)
    {
        auto *row = new QHBoxLayout(this);
        row->setContentsMargins(0, 0, 0, 0);
        m_summary = new QLabel(this);
        m_summary->setObjectName("pathSummary");
        m_summary->setStyleSheet("color: gray;");
        m_summary->setWordWrap(true);  // wraps in a narrow Inspector instead of widening it
        row->addWidget(m_summary, 1);
        m_clear = new QPushButton(tr("Clear all"), this);
        m_clear->setObjectName("clearAll");
        m_clear->setToolTip(tr("Remove every drawn path (one undo step)"));
        row->addWidget(m_clear);
        connect(m_clear, &QPushButton::clicked, this, [this] {
            emit edited(Value(ValueList{}));
            emit editFinished();
        });
    }

    void setValue(const Value &value) override
    {
        std::size_t paths = 0, vertices = 0, closed = 0;
        for (const std::optional<DrawnPath> &p : readPathList(value)) {
            ++paths;
            vertices += p ? p->points.size() : 0;
            closed += p && p->closed;
        }
        QString text = paths == 0 ? tr("none: draw paths in the preview (Path tool, L)")
                                  : (paths == 1 ? tr("1 path") : tr("%1 paths").arg(paths)) + tr(", %1 vertices").arg(vertices);
        if (closed > 0)
            text += tr(" (%1 closed)").arg(closed);
        m_summary->setText(text);
        m_clear->setEnabled(paths > 0);
    }

private:
    QLabel *m_summary;
    QPushButton *m_clear;
};

} // namespace

ParamEditor *createPathListEditor(const ParamSpec &spec, QWidget *parent)
{
    return new PathListEditor(spec, parent);
}

} // namespace grove
