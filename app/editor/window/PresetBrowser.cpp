// PresetBrowser: a grid of presets; thumbnails load from the cache or render on the thread pool.
#include "window/PresetBrowser.h"

#include "common/EditorStyle.h"

#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/base/SafeFile.h"
#include "core/eval/Evaluator.h"
#include "core/export/ExportJob.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GraphWriter.h"
#include "core/formats/PngWriter.h"
#include "core/render/PreviewPipeline.h"
#include "core/render/PreviewRenderer.h"

#include "preview/PreviewRegion.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QMimeData>
#include <QUrl>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace grove {

namespace {

constexpr int kThumbSide = 240;

QIcon placeholder()
{
    QPixmap pm(kThumbSide, kThumbSide * 6 / 11);
    pm.fill(QColor(40, 42, 48));
    return QIcon(pm);
}

QString emptyGraphNotes()
{
    return QObject::tr("A new graph without nodes: press Tab on the canvas to add the first one.");
}

QString cacheFile(const QString &hash)
{
    QString name = hash;
    name.replace(':', '_');
    return QDir(PresetBrowser::thumbnailCacheDir()).filePath(name + ".png");
}

} // namespace

QStringList PresetBrowser::shippedDirs()
{
    QStringList dirs;
#ifdef GROVE_PRESETS_DIR
    dirs << QStringLiteral(GROVE_PRESETS_DIR);
#endif
    const QString app = QCoreApplication::applicationDirPath();
    dirs << app + "/presets" << app + "/../share/grove/presets";
    return dirs;
}

QString PresetBrowser::userDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/presets";
}

QString PresetBrowser::writeUserPreset(const Graph &graph, const GroupResolver &groups, const QString &name,
                                       const QString &description, bool *ok)
{
    *ok = false;
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return tr("A preset needs a name.");
    Graph preset = graph;
    preset.name = trimmed.toStdString();
    preset.notes = description.trimmed().toStdString();
    if (!preset.notes.empty())
        preset.notes += "\n";
    const QString dir = userDir();
    if (!QDir().mkpath(dir))
        return tr("Cannot create %1.").arg(dir);
    const QString path = QDir(dir).filePath(fileNameFor(trimmed));
    if (auto error = writeFileAtomically(path.toStdString(), saveGraphToString(preset, groups)))
        return QString::fromStdString(*error);
    *ok = true;
    return path;
}

QString PresetBrowser::fileNameFor(const QString &graphName)
{
    return QString::fromStdString(safeFileName(graphName.trimmed().toLower().toStdString())) + ".grove.yaml";
}

QString PresetBrowser::thumbnailCacheDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/preset-thumbnails";
}

std::vector<PresetEntry> PresetBrowser::findPresets(const NodeRegistry &registry)
{
    std::vector<PresetEntry> out;
    std::set<QString> seenNames;  // the same preset found through two folders is listed once
    auto scan = [&](const QString &dir, bool user, bool group = false) {
        const QFileInfoList files = QDir(dir).entryInfoList({"*.grove.yaml"}, QDir::Files, QDir::Name);
        for (const QFileInfo &f : files) {
            if (!user && !seenNames.insert((group ? "groups/" : "") + f.fileName()).second)
                continue;
            GroupResolver groups(registry);
            LoadResult loaded = loadGraphFile(f.absoluteFilePath().toStdString(), groups);
            if (!loaded.ok())
                continue;
            PresetEntry e;
            e.path = f.absoluteFilePath();
            e.name = QString::fromStdString(loaded.graph.name.empty() ? f.baseName().toStdString() : loaded.graph.name);
            e.notes = style::reflowed(loaded.graph.notes);  // wrapped by hand in the file; the label wraps it
            e.hash = QString::fromStdString(graphHash(loaded.graph, groups));
            e.user = user;
            e.group = group;
            out.push_back(e);
        }
    };
    for (const QString &dir : shippedDirs())
        scan(dir, false);
    for (const QString &dir : shippedDirs())
        scan(dir + "/groups", false, true);
    scan(userDir(), true);
    return out;
}

namespace {
// Entries drag out as their files (a group file dropped on the canvas becomes a group node).
class PresetList : public QListWidget
{
public:
    using QListWidget::QListWidget;

protected:
    QStringList mimeTypes() const override { return {"text/uri-list"}; }
    QMimeData *mimeData(const QList<QListWidgetItem *> &items) const override
    {
        QList<QUrl> urls;
        for (QListWidgetItem *item : items)
            if (const QString path = item->data(Qt::UserRole).toString(); !path.isEmpty())
                urls << QUrl::fromLocalFile(path);
        auto *mime = new QMimeData;
        mime->setUrls(urls);
        return mime;
    }
};
} // namespace

PresetBrowser::PresetBrowser(const NodeRegistry &registry, QWidget *parent, Mode mode)
    : QDialog(parent), m_registry(registry), m_entries(findPresets(registry)), m_list(new PresetList(this)),
      m_notes(new QLabel(this))
{
    const bool dock = mode == Mode::Dock;
    if (dock)
        setWindowFlags(Qt::Widget);  // a plain widget inside the dock, not a window
    setWindowTitle(tr("New graph"));
    if (!dock)
        resize(900, 620);
    auto *column = new QVBoxLayout(this);
    auto *intro = new QLabel(dock ? tr("Drag a group or a graph onto the canvas to add it as a group node; "
                                       "double-click one to open it as a new graph:")
                                  : tr("Start from a preset, or from an empty graph:"),
                             this);
    intro->setWordWrap(true);
    column->addWidget(intro);
    m_list->setViewMode(QListView::IconMode);
    m_list->setIconSize(QSize(kThumbSide, kThumbSide * 6 / 11));
    m_list->setGridSize(QSize(kThumbSide + 24, kThumbSide * 6 / 11 + 44));
    m_list->setResizeMode(QListView::Adjust);
    m_list->setMovement(QListView::Static);
    m_list->setWordWrap(true);
    m_list->setDragEnabled(true);
    m_list->setDragDropMode(QAbstractItemView::DragOnly);
    column->addWidget(m_list, 1);
    m_notes->setWordWrap(true);
    m_notes->setMinimumHeight(60);
    m_notes->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    column->addWidget(m_notes);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    column->addWidget(buttons);
    buttons->setVisible(!dock);

    auto *empty = new QListWidgetItem(placeholder(), tr("Empty graph"), m_list);
    empty->setData(Qt::UserRole, QString());
    empty->setToolTip(emptyGraphNotes());
    for (size_t i = 0; i < m_entries.size(); ++i) {
        const PresetEntry &e = m_entries[i];
        auto *item = new QListWidgetItem(placeholder(), e.user ? tr("%1 (yours)").arg(e.name)
                                                        : e.group ? tr("%1 (group)").arg(e.name) : e.name, m_list);
        item->setData(Qt::UserRole, e.path);
        item->setToolTip(e.path);
        requestThumbnail(static_cast<int>(i) + 1);
    }
    // A new graph starts empty unless the designer picks a preset.
    m_list->setCurrentRow(0);
    auto choose = [this, dock] {
        if (QListWidgetItem *item = m_list->currentItem()) {
            m_chosen = item->data(Qt::UserRole).toString();
            if (dock)
                emit presetActivated(m_chosen);
            else
                accept();
        }
    };
    connect(m_list, &QListWidget::itemActivated, this, choose);
    connect(buttons, &QDialogButtonBox::accepted, this, choose);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        m_notes->setText(row >= 1 && row <= static_cast<int>(m_entries.size()) ? m_entries[static_cast<size_t>(row - 1)].notes
                                                                                : emptyGraphNotes());
    });
    m_notes->setText(emptyGraphNotes());
}

// From the cache when this graph (by hash) was drawn before; else rendered off the UI thread.
void PresetBrowser::requestThumbnail(int row)
{
    const PresetEntry entry = m_entries[static_cast<size_t>(row - 1)];
    const QString cached = cacheFile(entry.hash);
    QImage image(cached);
    if (!image.isNull()) {
        m_list->item(row)->setIcon(QIcon(QPixmap::fromImage(image)));
        return;
    }
    QPointer<PresetBrowser> self(this);
    const NodeRegistry *registry = &m_registry;
    QThreadPool::globalInstance()->start([self, entry, cached, registry, row] {
        GroupResolver groups(*registry);
        LoadResult loaded = loadGraphFile(entry.path.toStdString(), groups);
        if (hasGroupNodes(loaded.graph))  // the groups' layers too
            loaded.graph = expandGroups(loaded.graph, groups, nullptr);
        Image rgb;
        if (previewsByRegion(loaded.graph.world)) {  // endless or huge: the area it opens on, as the preview
            const QRectF home = previewHome(loaded.graph.world);
            const double scale = kThumbSide / std::max(home.width(), home.height());
            RegionRequest region;
            region.region = {home.left(), home.top(), home.right(), home.bottom()};
            PreviewPipeline pipeline(*registry);
            rgb = pipeline.runRegion(loaded.graph, region, std::max(1, static_cast<int>(home.width() * scale)),
                                     std::max(1, static_cast<int>(home.height() * scale))).image;
        } else {
            Evaluator evaluator(*registry);
            EvalRequest request;
            request.targets = previewTargets(loaded.graph, *registry);
            const EvalResult result = evaluator.evaluate(loaded.graph, request);
            if (!result.ok())
                return;
            const auto [w, h] = previewSize(loaded.graph.world, kThumbSide);
            rgb = renderPreview(loaded.graph, result, w, h);
        }
        auto png = encodePng(rgb);
        if (!png)
            return;
        QDir().mkpath(PresetBrowser::thumbnailCacheDir());
        writeFileAtomically(cached.toStdString(), *png);
        const QImage icon = QImage::fromData(QByteArray::fromStdString(*png), "PNG");
        QMetaObject::invokeMethod(self, [self, row, icon] {
            if (self && self->m_list->item(row))
                self->m_list->item(row)->setIcon(QIcon(QPixmap::fromImage(icon)));
        }, Qt::QueuedConnection);
    });
}

} // namespace grove
