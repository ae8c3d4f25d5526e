// File > New: the shipped presets and the user's own, with thumbnails rendered by the core
// renderer (cached as PNGs by graph hash), plus an empty graph.
#pragma once

#include <QDialog>
#include <QStringList>

class QLabel;
class QListWidget;

namespace grove {

struct Graph;
class NodeRegistry;
class GroupResolver;

struct PresetEntry
{
    QString path;
    QString name;
    QString notes;
    QString hash;   // graphHash: names the cached thumbnail
    bool user = false;
    bool group = false;  // a group file (presets/groups/): it opens as a graph, and drags onto the canvas as a group node
};

class PresetBrowser : public QDialog
{
    Q_OBJECT

public:
    // Dialog: File > New (Open/Cancel). Dock: the same list as a plain widget for the Presets dock
    // (View menu), where entries drag onto the canvas and activating one emits presetActivated.
    enum class Mode { Dialog, Dock };
    explicit PresetBrowser(const NodeRegistry &registry, QWidget *parent = nullptr, Mode mode = Mode::Dialog);

    // Where presets are looked for: the source tree's presets/ (GROVE_PRESETS_DIR), presets/ next to
    // the binary, then the user's AppDataLocation/presets.
    static QStringList shippedDirs();
    static QString userDir();
    // Writes `graph` as a preset named `name` into userDir() (atomically); the path written, or the
    // reason it was not.
    static QString writeUserPreset(const Graph &graph, const GroupResolver &groups, const QString &name,
                                   const QString &description, bool *ok);
    // A graph's file name from its name ("Loot and camps": loot_and_camps.grove.yaml), safe on
    // every system; the preset's, and what Save offers a new graph.
    static QString fileNameFor(const QString &graphName);
    static QString thumbnailCacheDir();
    static std::vector<PresetEntry> findPresets(const NodeRegistry &registry);

    const std::vector<PresetEntry> &entries() const { return m_entries; }
    // The chosen preset's path after accept(); empty for "Empty graph".
    QString chosenPath() const { return m_chosen; }
    QListWidget *list() const { return m_list; }

signals:
    void presetActivated(const QString &path);  // Dock mode: an entry double-clicked (empty: "Empty graph")

private:
    void requestThumbnail(int row);

    const NodeRegistry &m_registry;
    std::vector<PresetEntry> m_entries;
    QListWidget *m_list;
    QLabel *m_notes;
    QString m_chosen;
};

} // namespace grove
