// The editor as a designer in Germany starts it (a decimal comma in the C and Qt locales): every
// shipped preset opens with no problem and every layer evaluated, and the number fields show the
// graph's own decimal point. tests/run.sh generates de_DE.UTF-8 and runs the suite under it too.
#include "tst_editor_support.h"

#include "inspector/NumberField.h"
#include "preview/PreviewController.h"

#include "core/base/NumberText.h"

#include <QDir>
#include <QLocale>
#include <QTest>

#include <clocale>
#include <cstring>

using namespace grove;
using namespace grove::test;

class TestEditorLocale : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Under `LC_ALL=de_DE.UTF-8 ctest` QApplication has adopted it already; otherwise ask for it.
        if (std::strcmp(std::localeconv()->decimal_point, ",") != 0 && !std::setlocale(LC_ALL, "de_DE.UTF-8"))
            QSKIP("the de_DE.UTF-8 locale is not generated here (tests/run.sh runs locale-gen for it)");
        QCOMPARE(std::localeconv()->decimal_point, ",");
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(QLocale().decimalPoint(), QString(","));
    }

    void everyPresetOpensWithoutProblems_data()
    {
        addPresetRows();
    }
    void everyPresetOpensWithoutProblems()
    {
        QFETCH(QString, path);
        auto w = shownWindowOn(path);
        QVERIFY(w);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(120000));
        QStringList problems;
        for (const Diagnostic &d : w->document()->problems())
            problems << QString::fromStdString(d.format());
        QCOMPARE(problems, QStringList());
        const PreviewSnapshotPtr snap = w->preview()->snapshot();
        QVERIFY(!snap->layers.empty());
        for (const PreviewLayer &l : snap->layers)
            QVERIFY2(!l.skipped, qPrintable(l.name + " was not evaluated"));
    }

    // The fields show and read the file's notation, never the locale's.
    void numberFieldsUseTheGraphsDecimalPoint()
    {
        NumberField field;
        field.setNumber(0.98);
        QCOMPARE(field.text(), QString("0.98"));
        QCOMPARE(NumberField::parse("1.5e-3"), std::optional<double>(1.5e-3));
        QCOMPARE(NumberField::parse("0,98"), std::optional<double>());
        QCOMPARE(formatFixed(2.5, 2), std::string("2.50"));
        double v = 0;
        QVERIFY(parseNumber("0.98", v));
        QCOMPARE(v, 0.98);
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestEditorLocale>(argc, argv);
}

#include "tst_editor_locale.moc"
