// The Inspector and World panel as a designer uses them: the wheel only scrolls, undo keys reach the
// document from any field, refused numbers stay typed with their reason, and list params have real
// editors whose every edit is one undo step.
#include "tst_editor_support.h"

#include "canvas/GraphView.h"
#include "inspector/Inspector.h"
#include "inspector/ParamEditors.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QUndoStack>
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
    if (text.isEmpty())
        QTest::keyClick(field, Qt::Key_Backspace);  // typing nothing over the selection leaves it
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
    // A PNG says its size in its header: the Inspector shows a RAW file's width and height only
    // while the path names a RAW file, and follows the path as it changes (undo included).
    void theRawSizeShowsOnlyForARawFile()
    {
        auto w = window("grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n"
                        "  img: {type: image, params: {path: masks/a.png}}\n", "img");
        auto *inspector = w->findChild<Inspector *>();
        auto shown = [inspector](const char *param) {
            for (QWidget *e : inspector->findChildren<QWidget *>(QString("param:") + param))
                if (e->isVisibleTo(inspector))
                    return true;
            return false;
        };
        QVERIFY(shown("left"));
        QVERIFY(!shown("raw_width"));
        QVERIFY(!shown("raw_height"));
        setParam(w->document(), "img", "path", Value("masks/a.r16"));
        QVERIFY(shown("raw_width"));
        QVERIFY(shown("raw_height"));
        w->document()->undoStack()->undo();
        QVERIFY(!shown("raw_width"));
    }

    // Every node of every shipped preset fits the Inspector at its narrowest: nothing clipped at
    // the right, no sideways scrolling (valley's points_file did both), and a name longer than its
    // box shows its start (loot_and_camps' goblin_camp showed "olin_camp"); no slider is a sliver.
    void everyNodeFitsTheNarrowInspector_data()
    {
        addPresetRows();
    }
    void everyNodeFitsTheNarrowInspector()
    {
        QFETCH(QString, path);
        auto w = shownWindowOn(path);
        QVERIFY(w);
        auto *dock = w->findChild<QDockWidget *>("InspectorDock");
        QVERIFY(dock);
        w->resizeDocks({dock}, {dock->minimumSizeHint().width()}, Qt::Horizontal);
        for (const Node &node : w->document()->graph().nodes) {
            w->selectNode(QString::fromStdString(node.id));
            QCoreApplication::processEvents();
            QScrollArea *scroll = nullptr;  // the shown page (the one before may await deletion)
            for (QScrollArea *a : w->findChild<Inspector *>()->findChildren<QScrollArea *>())
                if (a->isVisible())
                    scroll = a;
            QVERIFY(scroll);
            QString widest;
            int most = 0;
            for (QWidget *c : scroll->widget()->findChildren<QWidget *>())
                if (c->isVisibleTo(scroll->widget()) && c->minimumSizeHint().width() > most && c->parentWidget() == scroll->widget()) {
                    most = c->minimumSizeHint().width();
                    widest = c->objectName().isEmpty() ? c->metaObject()->className() : c->objectName();
                }
            for (QLineEdit *box : scroll->widget()->findChildren<QLineEdit *>())  // a long name shows its start
                QVERIFY2(!box->isVisible() || box->objectName() == "file" || box->cursorPosition() == 0
                             || box->fontMetrics().horizontalAdvance(box->text()) < box->contentsRect().width() - 8,
                         qPrintable(QString("%1: \"%2\" shows its end").arg(QString::fromStdString(node.id), box->text())));
            for (QSlider *slider : scroll->widget()->findChildren<QSlider *>())  // a sliver read as a checkbox
                QVERIFY2(!slider->isVisible() || slider->width() >= 30,
                         qPrintable(QString("%1: a slider %2 px wide").arg(QString::fromStdString(node.id)).arg(slider->width())));
            QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0,
                     qPrintable(QString("%1 scrolls sideways by %2 in a %3 px Inspector (widest: %4, %5 px)")
                                    .arg(QString::fromStdString(node.id)).arg(scroll->horizontalScrollBar()->maximum())
                                    .arg(scroll->viewport()->width()).arg(widest).arg(most)));
        }
    }

    // Scrolling over every control of trees' Inspector scrolls the page and changes nothing.
    void wheelOverInspectorOnlyScrolls()
    {
        auto w = window(kIsland, "trees");
        // short enough that trees' 17 settings overflow even the full-height Inspector column
        w->resize(1280, 560);
        QCoreApplication::processEvents();
        Document *doc = w->document();
        auto *inspector = w->findChild<Inspector *>();
        QScrollArea *scroll = nullptr;  // the shown page (the one before may await deletion)
        for (QScrollArea *s : inspector->findChildren<QScrollArea *>())
            if (s->isVisible())
                scroll = s;
        QVERIFY(scroll);
        QScrollBar *bar = scroll->verticalScrollBar();
        QVERIFY2(bar->maximum() > 0, "the trees page must be taller than the Inspector");
        int controls = 0, scrolled = 0;
        for (ParamEditor *e : scroll->widget()->findChildren<ParamEditor *>())
            for (QWidget *c : e->findChildren<QWidget *>()) {
                if (!c->isVisible() || !(qobject_cast<QAbstractSpinBox *>(c) || qobject_cast<QComboBox *>(c)
                                         || qobject_cast<QAbstractSlider *>(c) || qobject_cast<QLineEdit *>(c)))
                    continue;
                scroll->ensureWidgetVisible(c);
                const int before = bar->value();
                for (int delta : {-120, 120, -120})
                    wheel(c, delta);
                wheel(c, before < bar->maximum() ? -120 : 120);
                ++controls;
                scrolled += bar->value() != before;
            }
        QVERIFY(controls >= 15);
        QCOMPARE(doc->undoStack()->count(), 0);
        QCOMPARE(bytes(doc), kIsland);
        QVERIFY(!w->isWindowModified());
        QCOMPARE(scrolled, controls);

        // A focused control takes the wheel: that is how a designer steps a value on purpose.
        auto *combo = editorFor(w.get(), "method")->findChild<QComboBox *>();
        combo->setFocus();
        wheel(combo, -120);
        QVERIFY(nodeBlock(bytes(doc), "trees").find("      method: fast\n") != std::string::npos);
    }

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

    // Type a value, Enter, Ctrl+Z in the same field: the graph is back; Ctrl+Y there redoes.
    void undoKeysFromAField_data()
    {
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("line");
        QTest::newRow("radius") << "radius" << "12" << "      radius: 12\n";
        QTest::newRow("k") << "k" << "40" << "      k: 40\n";
        QTest::newRow("name") << "name" << "oaks" << "      name: oaks\n";
    }
    void undoKeysFromAField()
    {
        QFETCH(QString, param);
        QFETCH(QString, typed);
        QFETCH(QString, line);
        auto w = window(kIsland, "trees");
        Document *doc = w->document();
        QWidget *field = textField(editorFor(w.get(), param));
        QVERIFY(field);
        const QString shown = fieldText(field);
        typeInto(field, typed);
        QVERIFY(nodeBlock(bytes(doc), "trees").find(line.toStdString()) != std::string::npos);
        QVERIFY(field->hasFocus());
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(bytes(doc), kIsland);
        QCOMPARE(fieldText(field), shown);
        QTest::keyClick(field, Qt::Key_Y, Qt::ControlModifier);
        QVERIFY(nodeBlock(bytes(doc), "trees").find(line.toStdString()) != std::string::npos);
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);  // nothing left to redo
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(bytes(doc), kIsland);

        // Typed but not entered: Ctrl+Z drops the typing and leaves the graph alone.
        setParam(doc, "flowers", "radius", Value(7.0));
        const std::string before = bytes(doc);
        typeInto(field, "77", false);
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(bytes(doc), before);
        QCOMPARE(fieldText(field), shown);
        // Esc drops the typing too, and leaving the field then applies nothing
        typeInto(field, "88", false);
        QTest::keyClick(field, Qt::Key_Escape);
        QCOMPARE(fieldText(field), shown);
        w->view()->setFocus();
        QCoreApplication::processEvents();
        QCOMPARE(bytes(doc), before);
    }

    // Refused numbers: the typed text stays, the reason is under the field, nothing is applied.
    void refusedNumbersStayTyped_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("reason");
        QTest::newRow("radius -5") << "trees" << "radius" << "-5" << "-5 is out of range: must be > 0 and <= 10000000";
        QTest::newRow("radius 1e308") << "trees" << "radius" << "1e308" << "1e+308 is out of range: must be > 0 and <= 10000000";
        QTest::newRow("k 1e308") << "trees" << "k" << "1e308" << "1e+308 is out of range: must be >= 1 and <= 1000";
        QTest::newRow("seed 99999999999") << "trees" << "seed" << "99999999999"
                                          << "99999999999 is out of range: must be >= -2147483648 and <= 2147483647";
        QTest::newRow("k 2.5") << "trees" << "k" << "2.5" << "expected an integer, got 2.5";
        QTest::newRow("radius abc") << "trees" << "radius" << "abc" << "\"abc\" is not a number";
        QTest::newRow("radius 2,5") << "trees" << "radius" << "2,5"
                                    << "\"2,5\" has a comma: Grove writes a decimal point in every language, as in 2.5";
        QTest::newRow("radius 1,234") << "trees" << "radius" << "1,234"
                                      << "\"1,234\" has a comma: Grove writes a decimal point in every language, as in 1.234";
        QTest::newRow("radius nan") << "trees" << "radius" << "nan" << "must be a number, not NaN";
    }
    void refusedNumbersStayTyped()
    {
        QFETCH(QString, node);
        QFETCH(QString, param);
        QFETCH(QString, typed);
        QFETCH(QString, reason);
        auto w = window(kIsland, node);
        Document *doc = w->document();
        ParamEditor *editor = editorFor(w.get(), param);
        QWidget *field = textField(editor);
        QVERIFY(field);
        auto *slider = editor->findChild<QSlider *>();
        const int sliderBefore = slider ? slider->value() : 0;
        typeInto(field, typed);
        QCOMPARE(fieldText(field), typed);
        QCOMPARE(errorText(w.get(), param), reason);
        QCOMPARE(bytes(doc), kIsland);
        QCOMPARE(doc->undoStack()->count(), 0);
        if (slider)
            QCOMPARE(slider->value(), sliderBefore);
        // Leaving the field keeps it all.
        w->view()->setFocus();
        QCOMPARE(fieldText(field), typed);
        QCOMPARE(errorText(w.get(), param), reason);
        // A valid value clears the reason and applies.
        typeInto(field, "3");
        QCOMPARE(errorText(w.get(), param), QString());
        QVERIFY(nodeBlock(bytes(doc), node.toStdString()).find("      " + param.toStdString() + ": 3\n")
                != std::string::npos);
    }

    // A huge but finite bound is stored as typed, not as .inf.
    void hugeBoundIsStoredAsTyped()
    {
        auto w = window(kIsland, "land");
        Document *doc = w->document();
        typeInto(textField(editorFor(w.get(), "min")), "1e308");
        QVERIFY(nodeBlock(bytes(doc), "land").find("      min: 1e+308\n") != std::string::npos);
    }

    // The World panel follows the same rule.
    void worldFieldsFollowTheRule_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("reason");
        QTest::newRow("width -5") << "worldWidth" << "-5" << "-5 is out of range: must be > 0 and <= 10000000";
        QTest::newRow("height 1e308") << "worldHeight" << "1e308" << "1e+308 is out of range: must be > 0 and <= 10000000";
        QTest::newRow("seed 99999999999") << "worldSeed" << "99999999999"
                                          << "99999999999 is out of range: must be >= -2147483648 and <= 2147483647";
        QTest::newRow("seed abc") << "worldSeed" << "abc" << "\"abc\" is not a number";
    }
    void worldFieldsFollowTheRule()
    {
        QFETCH(QString, field);
        QFETCH(QString, typed);
        QFETCH(QString, reason);
        auto w = window(kIsland, {});
        Document *doc = w->document();
        w->findChild<QDockWidget *>("WorldDock")->raise();
        QCoreApplication::processEvents();
        auto *box = w->findChild<QWidget *>(field);
        QVERIFY(box);
        typeInto(box, typed);
        QCOMPARE(fieldText(box), typed);
        QCOMPARE(errorText(w.get(), field), reason);
        QCOMPARE(bytes(doc), kIsland);
        typeInto(box, "640");
        QCOMPARE(errorText(w.get(), field), QString());
        QCOMPARE(doc->undoStack()->count(), 1);
    }

    // A refused width or height has its reason right under its box, as the chunk's has, also once
    // the world was endless (which hides the Width and Height rows): never over the rows above, and
    // every other row stays.
    void worldSizeReasonsShowUnderTheirBoxes()
    {
        auto w = window(kIsland, {});
        w->findChild<QDockWidget *>("WorldDock")->raise();
        QCoreApplication::processEvents();
        auto *endless = w->findChild<QCheckBox *>("worldEndless");
        QVERIFY(endless);
        endless->click();
        endless->click();  // edges again
        QWidget *panel = endless->parentWidget();
        for (const QString name : {"worldWidth", "worldHeight", "worldChunk"}) {
            auto *box = w->findChild<QLineEdit *>(name);
            auto *error = w->findChild<QLabel *>("error:" + name);
            QVERIFY(box && error);
            typeInto(box, "-5");
            QVERIFY(error->isVisible());
            // under its box, within a line of it, and clear of every other row
            QTRY_VERIFY2(error->y() >= box->geometry().bottom() && error->y() <= box->geometry().bottom() + 12,
                         qPrintable(QString("%1's reason at y %2, its box ends at %3")
                                        .arg(name).arg(error->y()).arg(box->geometry().bottom())));
            for (QWidget *other : panel->findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
                if (other != error && other->isVisible())
                    QVERIFY2(!other->geometry().intersects(error->geometry()),
                             qPrintable(name + "'s reason covers " + other->objectName()));
            QVERIFY(w->findChild<QLineEdit *>("worldSeed")->isVisible());
            typeInto(box, name == "worldChunk" ? "" : "640");
            QVERIFY2(!error->isVisible(), qPrintable(name + "'s reason stays: " + error->text()));
        }
    }

    // The World dock's Wrap box: each choice one undo step, saved as world.wrap; undo takes it back.
    void worldWrapChoiceIsOneUndoStep()
    {
        auto w = window(kIsland, {});
        Document *doc = w->document();
        w->findChild<QDockWidget *>("WorldDock")->raise();
        QCoreApplication::processEvents();
        auto *wrap = w->findChild<QComboBox *>("worldWrap");
        QVERIFY(wrap);
        QCOMPARE(wrap->currentIndex(), 0);
        QVERIFY(bytes(doc).find("wrap:") == std::string::npos);
        wrap->setFocus();
        QTest::keyClick(wrap, Qt::Key_Down);  // Off -> Both axes
        QCOMPARE(doc->undoStack()->count(), 1);
        QVERIFY(bytes(doc).find("  wrap: true\n") != std::string::npos);
        QTest::keyClick(wrap, Qt::Key_Down);  // -> Along x
        QCOMPARE(doc->undoStack()->count(), 2);
        QVERIFY(bytes(doc).find("  wrap: x\n") != std::string::npos);
        doc->undoStack()->undo();
        QVERIFY(bytes(doc).find("  wrap: true\n") != std::string::npos);
        QCOMPARE(wrap->currentIndex(), 1);
        doc->undoStack()->undo();
        QVERIFY(bytes(doc).find("wrap:") == std::string::npos);
        QCOMPARE(wrap->currentIndex(), 0);
    }

    // trees' weighted types: a row per type, weight boxes, add, remove, reorder; each one undo step.
    void typesTableEdits()
    {
        auto w = window(kIsland, "trees");
        Document *doc = w->document();
        ParamEditor *types = editorFor(w.get(), "types");
        QVERIFY(types);
        auto child = [&](const QString &name) { return types->findChild<QWidget *>(name); };
        QVERIFY(child("name:0") && child("weight:1"));
        QCOMPARE(qobject_cast<QLineEdit *>(child("name:1"))->text(), QString("pine"));

        typeInto(child("weight:1"), "2");
        QVERIFY(nodeBlock(bytes(doc), "trees").find("        - {name: oak, weight: 3}\n        - {name: pine, weight: 2}\n")
                != std::string::npos);
        typeInto(child("name:0"), "birch");
        QVERIFY(nodeBlock(bytes(doc), "trees").find("        - {name: birch, weight: 3}\n") != std::string::npos);
        QTest::mouseClick(qobject_cast<QPushButton *>(child("add")), Qt::LeftButton);
        QVERIFY(nodeBlock(bytes(doc), "trees").find("        - {name: type3}\n") != std::string::npos);
        QTest::mouseClick(qobject_cast<QPushButton *>(child("up:1")), Qt::LeftButton);
        QVERIFY(nodeBlock(bytes(doc), "trees").find("      types:\n        - {name: pine, weight: 2}\n"
                                                  "        - {name: birch, weight: 3}\n        - {name: type3}\n")
                != std::string::npos);
        QTest::mouseClick(qobject_cast<QPushButton *>(child("remove:2")), Qt::LeftButton);
        QVERIFY(nodeBlock(bytes(doc), "trees").find("        - {name: birch, weight: 3}\n      special:")
                != std::string::npos);
        QCOMPARE(doc->undoStack()->count(), 5);
        QCOMPARE(qobject_cast<QLineEdit *>(child("name:0"))->text(), QString("pine"));

        // A refused row keeps its text and its reason; the graph is unchanged.
        const std::string before = bytes(doc);
        typeInto(child("weight:0"), "-1");
        QCOMPARE(errorText(w.get(), "types"), QString("item 0: weight -1 is out of range: must be >= 0"));
        QCOMPARE(bytes(doc), before);

        for (int i = 0; i < 5; ++i)
            doc->undoStack()->undo();
        QCOMPARE(bytes(doc), kIsland);
        QCOMPARE(qobject_cast<QLineEdit *>(child("name:0"))->text(), QString("oak"));
    }

    // Ranges, the nullable special record and "no limit" bounds.
    void rangeRecordAndNoLimit()
    {
        auto w = window(kIsland, "trees");
        Document *doc = w->document();
        ParamEditor *rotation = editorFor(w.get(), "rotation");
        typeInto(rotation->findChild<QWidget *>("high"), "180");
        QVERIFY(nodeBlock(bytes(doc), "trees").find("      rotation: [0, 180]\n") != std::string::npos);
        typeInto(rotation->findChild<QWidget *>("low"), "200");
        QCOMPARE(errorText(w.get(), "rotation"), QString("low 200 is above high 180"));

        ParamEditor *special = editorFor(w.get(), "special");
        typeInto(special->findChild<QWidget *>("count"), "5");
        QVERIFY(nodeBlock(bytes(doc), "trees").find("      special: {type: oak, count: 5}\n") != std::string::npos);
        auto *none = special->findChild<QCheckBox *>("none");
        QVERIFY(none && !none->isChecked());
        none->click();
        // no special point is the default: saved as nothing at all
        QVERIFY(nodeBlock(bytes(doc), "trees").find("      special:") == std::string::npos);
        QCOMPARE(doc->undoStack()->count(), 3);
        for (int i = 0; i < 3; ++i)
            doc->undoStack()->undo();
        QCOMPARE(bytes(doc), kIsland);
        QVERIFY(!none->isChecked());

        w->selectNode("land");
        QCoreApplication::processEvents();
        auto *maxOpen = editorFor(w.get(), "max")->findChild<QCheckBox *>("noLimit");
        auto *minOpen = editorFor(w.get(), "min")->findChild<QCheckBox *>("noLimit");
        QVERIFY(maxOpen && minOpen);
        QVERIFY(maxOpen->isChecked() && !minOpen->isChecked());
        QVERIFY(!textField(editorFor(w.get(), "max"))->isEnabled());
        minOpen->click();
        // no lower limit is min's default: saved as nothing at all
        QVERIFY(nodeBlock(bytes(doc), "land").find("      min:") == std::string::npos);
        maxOpen->click();
        QVERIFY(nodeBlock(bytes(doc), "land").find("      max: 1\n") != std::string::npos);
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QCOMPARE(bytes(doc), kIsland);
    }

    // String, number and colour lists; labels the upstream offers become tick boxes.
    void stringNumberAndColorLists()
    {
        auto w = window(kBands, "bands");
        Document *doc = w->document();
        const std::string start = bytes(doc);
        ParamEditor *cuts = editorFor(w.get(), "cuts");
        typeInto(cuts->findChild<QWidget *>("item:1"), "0.7");
        QVERIFY(nodeBlock(bytes(doc), "bands").find("      cuts: [0.4, 0.7]\n") != std::string::npos);

        ParamEditor *labels = editorFor(w.get(), "labels");
        QTest::mouseClick(qobject_cast<QPushButton *>(labels->findChild<QWidget *>("remove:0")), Qt::LeftButton);
        QVERIFY(nodeBlock(bytes(doc), "bands").find("      labels: [sand, grass]\n") != std::string::npos);
        QTest::mouseClick(qobject_cast<QPushButton *>(labels->findChild<QWidget *>("add")), Qt::LeftButton);
        typeInto(labels->findChild<QWidget *>("item:2"), "rock");
        QVERIFY(nodeBlock(bytes(doc), "bands").find("      labels: [sand, grass, rock]\n") != std::string::npos);
        // Add again from the row just typed: leaving it unchanged keeps the new blank row.
        QTest::mouseClick(qobject_cast<QPushButton *>(labels->findChild<QWidget *>("add")), Qt::LeftButton);
        QVERIFY(labels->findChild<QWidget *>("item:3"));
        QVERIFY(labels->findChild<QWidget *>("item:3")->hasFocus());
        typeInto(labels->findChild<QWidget *>("item:3"), "snow");
        QVERIFY(nodeBlock(bytes(doc), "bands").find("      labels: [sand, grass, rock, snow]\n") != std::string::npos);

        ParamEditor *colors = editorFor(w.get(), "colors");
        QTest::mouseClick(qobject_cast<QPushButton *>(colors->findChild<QWidget *>("add")), Qt::LeftButton);
        auto *dialog = colors->findChild<QColorDialog *>();
        QVERIFY(dialog);
        dialog->setCurrentColor(QColor("#ff8000"));
        dialog->accept();
        QVERIFY(nodeBlock(bytes(doc), "bands").find("      colors: [\"#ff8000\"]\n") != std::string::npos);
        QCOMPARE(doc->undoStack()->count(), 5);
        for (int i = 0; i < 5; ++i)
            doc->undoStack()->undo();
        QCOMPARE(bytes(doc), start);
    }

    // allowed_rule's include under a wired labels input: a tick box per label the upstream offers.
    void includeOffersTheUpstreamLabels()
    {
        auto w = window(kBands, "beach");
        Document *doc = w->document();
        ParamEditor *include = editorFor(w.get(), "include");
        auto *water = include->findChild<QCheckBox *>("choice:water");
        auto *sand = include->findChild<QCheckBox *>("choice:sand");
        QVERIFY(water && sand && include->findChild<QCheckBox *>("choice:grass"));
        QVERIFY(sand->isChecked() && !water->isChecked());
        water->click();
        QVERIFY(nodeBlock(bytes(doc), "beach").find("      include: [water, sand]\n") != std::string::npos);
        sand->click();
        QVERIFY(nodeBlock(bytes(doc), "beach").find("      include: [water]\n") != std::string::npos);
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QVERIFY(nodeBlock(bytes(doc), "beach").find("      include: [sand]\n") != std::string::npos);
        QVERIFY(sand->isChecked() && !water->isChecked());
    }
};

int main(int argc, char **argv)
{
    return runEditorSuite<TestInspector>(argc, argv);
}

#include "tst_inspector.moc"
