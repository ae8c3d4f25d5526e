// SavedComparison: the saved side is evaluated on a worker (its own Evaluator, so the preview's
// cache stays the edited graph's); the diff itself is cheap and follows every preview frame.
#include "preview/SavedComparison.h"

#include "document/Document.h"
#include "preview/PreviewView.h"

#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/formats/PointsExport.h"
#include "core/math/ExactHypot.h"
#include "core/render/PreviewPipeline.h"

#include <QFileInfo>
#include <QPainter>
#include <QPointer>
#include <QUndoStack>

#include <cmath>

namespace grove {

SavedComparison::SavedComparison(Document *document, PreviewView *view, QObject *parent)
    : QObject(parent), m_document(document), m_view(view)
{
    m_pool.setMaxThreadCount(1);  // one run at a time: the evaluator is shared between runs
    m_evaluator = std::make_shared<Evaluator>(document->registry());
    view->addPainter([this](QPainter &p) { paint(p); });
    // the file on disk changes when it is saved (or another is opened): evaluate it again
    connect(document, &Document::filePathChanged, this, [this] { evaluateSaved(); });
    connect(document->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            evaluateSaved();
    });
    connect(document, &Document::graphReset, this, [this] { evaluateSaved(); });
}

SavedComparison::~SavedComparison()
{
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

void SavedComparison::setEnabled(bool on)
{
    if (on == m_enabled)
        return;
    m_enabled = on;
    if (on)
        evaluateSaved();
    else if (m_cancel)
        m_cancel->store(true);
    m_view->update();
    emit changed();
}

void SavedComparison::setHiddenLayers(const std::set<std::string> &ids)
{
    m_hiddenIds = ids;
    m_hiddenNames.clear();
    if (m_current)
        for (const PreviewLayer &l : m_current->layers)
            if (ids.count(l.nodeId))
                m_hiddenNames.insert(l.name.toStdString());
    m_view->update();
    emit changed();
}

std::optional<Region> SavedComparison::regionOf(const PreviewSnapshotPtr &snapshot) const
{
    if (!snapshot || !snapshot->regional)
        return std::nullopt;
    const QRectF c = snapshot->covers;
    return Region{c.left(), c.top(), c.right(), c.bottom()};
}

void SavedComparison::setCurrent(const PreviewSnapshotPtr &snapshot)
{
    m_current = snapshot;
    setHiddenLayers(m_hiddenIds);  // a renamed layer keeps being hidden
    if (!m_enabled)
        return;
    // a region preview compares the region it shows: a pan asks the saved side for the new one
    if (regionOf(snapshot) != m_savedRegion && !m_document->filePath().isEmpty())
        evaluateSaved();
    else
        rediff();
}

void SavedComparison::evaluateSaved()
{
    if (!m_enabled)
        return;
    if (m_cancel)
        m_cancel->store(true);
    m_saved.reset();
    m_diff.reset();
    const QString path = m_document->filePath();
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        m_busy = false;
        m_message = tr("Nothing saved to compare with: save the graph first");
        m_view->update();
        emit changed();
        return;
    }
    m_busy = true;
    m_message = tr("Evaluating the saved file…");
    m_view->update();
    emit changed();
    const quint64 ticket = ++m_ticket;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_savedRegion = regionOf(m_current);
    const std::optional<Region> region = m_savedRegion;
    const NodeRegistry *registry = &m_document->registry();
    std::shared_ptr<Evaluator> evaluator = m_evaluator;
    QPointer<SavedComparison> self(this);
    m_pool.start([=, file = path.toStdString()] {
        auto layers = std::make_shared<DiffLayersLoad>();
        QString problem;
        GroupResolver groups(*registry);
        LoadResult loaded = loadGraphFile(file, groups);
        if (loaded.ok())
            expandLoadedGroups(loaded, file, groups);  // the groups' layers, as the preview shows them
        if (!loaded.ok()) {
            problem = tr("The saved file has problems; fix them and save to compare");
        } else {
            EvalRequest request;
            request.targets = exportedLayers(loaded.graph, *registry);
            request.cancel = cancel.get();
            request.limits.placeWholeWorld = !region;
            const EvalResult result = request.targets.empty() ? EvalResult{} : evaluator->evaluate(loaded.graph, request);
            if (!result.ok())
                problem = tr("The saved file does not evaluate; nothing to compare with");
            else
                *layers = diffLayersOf(layersOf(result, request.targets), region, 0, cancel.get());
            if (problem.isEmpty() && !layers->ok())
                problem = QString::fromStdString(layers->error);
        }
        if (cancel->load())
            return;
        // the window thread takes it; `self` guards a window that closed meanwhile (the destructor
        // waits for this run, so the object is alive while it posts)
        QMetaObject::invokeMethod(self.data(), [self, ticket, layers, problem] {
            if (self)
                self->savedReady(ticket, layers, problem);
        }, Qt::QueuedConnection);
    });
}

void SavedComparison::savedReady(quint64 ticket, std::shared_ptr<DiffLayersLoad> layers, QString problem)
{
    if (ticket != m_ticket || !m_enabled)
        return;  // a newer request (a save, a pan) supersedes it
    m_busy = false;
    if (!problem.isEmpty()) {
        m_message = problem;
        m_view->update();
        emit changed();
        return;
    }
    m_saved = std::move(layers->layers);
    rediff();
}

void SavedComparison::rediff()
{
    if (!m_saved || !m_current)
        return;
    std::vector<PointLayerPtr> current;
    for (const PreviewLayer &layer : m_current->layers) {
        if (layer.points) {
            current.push_back(layer.points);
        } else {  // a layer the preview skipped: compared as empty, and said so by its counts
            auto empty = std::make_shared<PointLayer>();
            empty->info.name = layer.name.toStdString();
            current.push_back(empty);
        }
    }
    const DiffLayersLoad now = diffLayersOf(current, regionOf(m_current));
    if (!now.ok()) {
        m_message = QString::fromStdString(now.error);
        m_diff.reset();
    } else {
        m_diff = diffPoints(*m_saved, now.layers);
        m_message.clear();
    }
    m_view->update();
    emit changed();
}

QStringList SavedComparison::legend() const
{
    QStringList lines;
    if (!m_diff)
        return lines;
    for (const LayerDiff &l : m_diff->layers) {
        QString line = tr("%1: %2 added, %3 removed, %4 moved").arg(QString::fromStdString(l.name)).arg(l.added.size())
                           .arg(l.removed.size()).arg(l.moved.size());
        if (m_hiddenNames.count(l.name))
            line += tr(" (hidden)");
        if (!l.inOld)
            line += tr(" (new layer)");
        else if (!l.inNew)
            line += tr(" (layer gone)");
        lines << line;
    }
    return lines;
}

void SavedComparison::paint(QPainter &p)
{
    if (!m_enabled)
        return;
    const PreviewView &v = *m_view;
    p.setRenderHint(QPainter::Antialiasing);
    const double scale = v.zoom();
    const auto radius = [&](const DiffPoint &pt) { return std::clamp(pt.r * scale * 0.5, 2.0, 10.0); };
    if (m_diff) {
        // dim the picture a little: the marks are the point of this view
        p.fillRect(v.rect(), QColor(0, 0, 0, 70));
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(170, 170, 175, 170));
        for (const LayerDiff &l : m_diff->layers) {
            if (m_hiddenNames.count(l.name))
                continue;
            for (const DiffPair &k : l.keptPoints)
                p.drawEllipse(v.widgetAt(QPointF(k.to.x, k.to.y)), 2.0, 2.0);
        }
        const QPen outline(QColor(0, 0, 0, 200), 1.2);
        for (const LayerDiff &l : m_diff->layers) {
            if (m_hiddenNames.count(l.name))
                continue;
            p.setPen(outline);
            p.setBrush(QColor(235, 60, 50));
            for (const DiffPoint &d : l.removed)
                p.drawEllipse(v.widgetAt(QPointF(d.x, d.y)), radius(d), radius(d));
            p.setBrush(QColor(60, 210, 90));
            for (const DiffPoint &a : l.added)
                p.drawEllipse(v.widgetAt(QPointF(a.x, a.y)), radius(a), radius(a));
            p.setPen(QPen(QColor(255, 200, 60), 2));
            for (const DiffPair &m : l.moved) {
                const QPointF from = v.widgetAt(QPointF(m.from.x, m.from.y)), to = v.widgetAt(QPointF(m.to.x, m.to.y));
                p.drawLine(from, to);
                const QPointF d = to - from;
                const double len = exactHypot(d.x(), d.y());
                if (len < 1)
                    continue;
                const QPointF u = d / len, n(-u.y(), u.x());
                const double head = std::min(6.0, len * 0.6);
                p.drawLine(to, to - u * head + n * head * 0.6);
                p.drawLine(to, to - u * head - n * head * 0.6);
            }
        }
    }
    // the legend, at the bottom left
    QStringList lines = m_diff ? legend() : QStringList{};
    if (!m_message.isEmpty())
        lines = {m_message};
    lines.prepend(tr("Compared with the saved file (Ctrl+Shift+D)"));
    const QFontMetrics fm = p.fontMetrics();
    int w = 0;
    for (const QString &l : lines)
        w = std::max(w, fm.horizontalAdvance(l));
    const int lh = fm.height() + 2, keyW = m_diff ? 4 * 70 : 0;
    const QRectF box(8, v.height() - 8 - (lines.size() + (m_diff ? 1 : 0)) * lh - 10, std::max(w, keyW) + 20,
                     (lines.size() + (m_diff ? 1 : 0)) * lh + 10);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(20, 22, 26, 220));
    p.drawRoundedRect(box, 6, 6);
    double y = box.top() + 5;
    for (int i = 0; i < lines.size(); ++i, y += lh) {
        p.setPen(i == 0 ? QColor(255, 214, 140) : QColor(225, 225, 230));
        p.drawText(QRectF(box.left() + 10, y, box.width() - 20, lh), Qt::AlignVCenter | Qt::AlignLeft, lines[i]);
    }
    if (m_diff) {  // colour keys
        const std::pair<QColor, QString> keys[] = {{QColor(60, 210, 90), tr("added")}, {QColor(235, 60, 50), tr("removed")},
                                                   {QColor(255, 200, 60), tr("moved")}, {QColor(170, 170, 175), tr("kept")}};
        double x = box.left() + 10;
        for (const auto &[color, text] : keys) {
            p.setPen(Qt::NoPen);
            p.setBrush(color);
            p.drawEllipse(QPointF(x + 5, y + lh / 2.0), 4.5, 4.5);
            p.setPen(QColor(225, 225, 230));
            p.drawText(QRectF(x + 13, y, 60, lh), Qt::AlignVCenter | Qt::AlignLeft, text);
            x += 70;
        }
    }
}

} // namespace grove
