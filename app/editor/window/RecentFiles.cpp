// The recent files: a list in the settings, shown in their menu.
#include "window/RecentFiles.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStringList>

namespace grove {

namespace {
constexpr int kMaxRecentFiles = 8;
}

RecentFiles::RecentFiles(QMenu *menu) : QObject(menu), m_menu(menu)
{
    updateMenu();
}

void RecentFiles::add(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value("recentFiles").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue("recentFiles", files);
    updateMenu();
}

void RecentFiles::updateMenu()
{
    m_menu->clear();
    const QStringList files = QSettings().value("recentFiles").toStringList();
    for (const QString &f : files)
        m_menu->addAction(QFileInfo(f).fileName(), this, [this, f] { emit chosen(f); })->setToolTip(f);
    m_menu->setEnabled(!files.isEmpty());
    m_menu->setToolTipsVisible(true);
}

} // namespace grove
