// File > Open Recent: the last files opened or saved (in the settings, newest first), one action
// each in the menu it fills.
#pragma once

#include <QObject>
#include <QString>

class QMenu;

namespace grove {

class RecentFiles : public QObject
{
    Q_OBJECT

public:
    explicit RecentFiles(QMenu *menu);

    void add(const QString &path);  // to the top of the list, once

signals:
    void chosen(const QString &path);

private:
    void updateMenu();

    QMenu *m_menu;
};

} // namespace grove
