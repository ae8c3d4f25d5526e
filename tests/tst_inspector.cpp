// The Inspector and World panel as a designer uses them: undo and redo keys.
#include "tst_editor_support.h"

#include "GraphView.h"
#include "Inspector.h"
#include "ParamEditors.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

using namespace grove;
using namespace grove::test;

namespace {

// A small graph with labels feeding an allowed rule, for string, colour and number lists.
const std::string kBands = R"yaml(grove: 1
name: Bands
world: {width: 100, height: 100, seed: 1}
nodes:
  height:
    type: value_noise
  bands:
    type: threshold
    inputs: {field: height}
    params: {cuts: [0.4, 0.6], labels: [water, sand, grass]}
  beach:
    type: allowed_rule
    inputs: {labels: bands}
    params: {include: [sand]}
)yaml";

ParamEditor *editorFor(QWidget *w, const QString &param)
{
    auto *e = w->findChild<ParamEditor *>("param:" + param);
    if (!e)
        qWarning("no editor for %s", qPrintable(param));
    return e;
}

// The box a designer types a param's value into.
QWidget *textField(QWidget *editor)
{
    if (auto *spin = editor->findChild<QAbstractSpinBox *>())
        return spin;
    return editor->findChild<QLineEdit *>();
}

QString fieldText(QWidget *field)
{
    if (auto *spin = qobject_cast<QAbstractSpinBox *>(field))
        return spin->text();
    return qobject_cast<QLineEdit *>(field)->text();
}

// Select-all, type, Enter: what a designer does in a number box.
void typeInto(QWidget *field, const QString &text, bool enter = true)
{
    field->setFocus();
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(field, text);
    if (enter)
        QTest::keyClick(field, Qt::Key_Return);
}

// A real wheel notch as the window system delivers it (spontaneous, so Qt propagates it to the
// parents when the widget ignores it).
void wheel(QWidget *target, int delta)
{
    const QPointF local(target->width() / 2.0, target->height() / 2.0);
    QWheelEvent event(local, target->mapToGlobal(local), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&event);
    qApp->notify(target, &event);  // as QTest sends keys: sendEvent() would make it non-spontaneous
}

QString errorText(QWidget *w, const QString &name)
{
    auto *label = w->findChild<QLabel *>("error:" + name);
    return label && label->isVisible() ? label->text() : QString();
}

} // namespace

class TestInspector : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> window(const std::string &text, const QString &select)
    {
        auto w = openWindowOn(m_dir, text);
        w->activateWindow();
        if (!QTest::qWaitForWindowActive(w.get()))
            qWarning("window not active");
        if (!select.isEmpty())
            w->selectNode(select);
        QCoreApplication::processEvents();
        return w;
    }

private slots:
    // Ctrl+Y and Ctrl+Shift+Z both redo.
    void ctrlYRedoes()
    {
        auto w = window(kIsland, {});
        Document *doc = w->document();
        setParam(doc, "trees", "radius", Value(12.0));
        const std::string changed = bytes(doc);
        w->view()->setFocus();
        QTest::keyClick(w->view(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(bytes(doc), kIsland);
        QTest::keyClick(w->view(), Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(bytes(doc), changed);
        QTest::keyClick(w->view(), Qt::Key_Z, Qt::ControlModifier);
        QTest::keyClick(w->view(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(bytes(doc), changed);
    }
};

int main(int argc, char **argv)
{
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", (home.path() + "/config").toUtf8());
    qputenv("XDG_DATA_HOME", (home.path() + "/data").toUtf8());
    qputenv("GROVE_AUTOSAVE_MS", "3600000");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Grove");
    QApplication::setApplicationName("Grove");
    TestInspector test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_inspector.moc"
