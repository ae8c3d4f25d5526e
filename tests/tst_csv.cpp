// CSV as Grove reads it, in both places it does: a points file a graph reads (points_file) and a
// Grove CSV export read back (grove-cli diff). Quoted fields may hold commas, doubled quotes and
// line breaks; CRLF ends records; an unclosed quote is an error at its line and column.
#include "TestSupport.h"

#include "core/base/CsvReader.h"
#include "core/formats/PointsExportReader.h"
#include "core/formats/PointsFile.h"

#include <QTemporaryDir>
#include <QTest>

#include <sstream>

using namespace grove;
using namespace grove::test;

namespace {

std::vector<std::vector<std::string>> records(const std::string &text, std::string *error = nullptr)
{
    CsvText input(text);
    CsvReader csv(input);
    std::vector<std::vector<std::string>> out;
    for (std::vector<std::string> fields; csv.next(fields);)
        out.push_back(fields);
    if (error)
        *error = csv.error();
    return out;
}

} // namespace

class TestCsv : public QObject
{
    Q_OBJECT

private slots:
    void quotedFieldsHoldCommasQuotesAndLineBreaks()
    {
        std::string error;
        const auto r = records("\xEF\xBB\xBFname,note\r\n\"a, b\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",\"cr\r\nlf\"\nlast,", &error);
        QCOMPARE(error, std::string());
        using Rows = std::vector<std::vector<std::string>>;
        QCOMPARE(r, (Rows{{"name", "note"}, {"a, b", "say \"hi\""}, {"two\nlines", "cr\r\nlf"}, {"last", ""}}));
    }

    void anUnclosedQuoteIsAnErrorWhereItOpens()
    {
        std::string error;
        const auto r = records("x,y\n1,2\n3,\"4\n5,6\n", &error);
        QCOMPARE(r.size(), size_t(2));
        QCOMPARE(error, std::string("3:3: a quoted field is never closed"));
    }

    void aFieldPastTheBoundStopsTheReader()
    {
        CsvText input("a,bbbbbbbbbbbb,c\n");
        CsvReader csv(input, 8);
        std::vector<std::string> fields;
        QVERIFY(!csv.next(fields));
        QVERIFY(fields.empty());
        QVERIFY2(csv.error().starts_with("1:3: a field longer than"), csv.error().c_str());
    }

    // points_file: a quoted layer name with a line break in it is one row, and the next row's
    // number is its own line in the file
    void aPointsFileReadsAQuotedLineBreak()
    {
        QTemporaryDir dir;
        const std::string csv = dir.filePath("houses.csv").toStdString();
        writeFile(csv, "layer,x,y,r\n\"old\ntown\",1,2,3\r\nnew,4,5,6\nnew,7,oops,8\n");
        PointsFileOptions options;
        options.layer = "old\ntown";
        PointsLoad points = loadPointsFile(csv, options);
        QVERIFY2(points.ok(), points.error.c_str());
        QCOMPARE(points.points.size(), size_t(1));
        QCOMPARE(points.points[0].x, 1.0);
        QCOMPARE(points.points[0].r, 3.0);

        options.layer.clear();
        points = loadPointsFile(csv, options);
        QCOMPARE(points.error, std::string("line 5: y is \"oops\", not a number"));

        writeFile(csv, "layer,x,y\nold,1,2\n\"new,4,5\n");
        points = loadPointsFile(csv, options);
        QCOMPARE(points.error, std::string("line 3, column 1: a quoted field is never closed"));
        QVERIFY(points.points.empty());
    }

    // grove-cli diff's reader: a layer name with a line break, as the CSV export quotes it
    void anExportReadsAQuotedLineBreak()
    {
        std::istringstream in("layer,id,x,y,r\r\n\"river\nbank\",0,1.5,2,3\r\ntrees,1,4,5,6\r\n\"river\nbank\",2,7,8,9\r\n");
        PointsExportRead read = readPointsExport(in, 1 << 20);
        QVERIFY2(read.ok(), read.error.c_str());
        QCOMPARE(read.layers.size(), size_t(2));
        QCOMPARE(read.layers[0].name, std::string("river\nbank"));
        QCOMPARE(read.layers[0].points.size(), size_t(2));
        QCOMPARE(read.layers[0].points[1].id, std::uint64_t(2));
        QCOMPARE(read.layers[0].points[1].x, 7.0);
        QCOMPARE(read.layers[1].points[0].y, 5.0);

        std::istringstream bad("layer,id,x,y,r\ntrees,0,1,2,3\n\"trees,1,4,5,6\n");
        read = readPointsExport(bad, 1 << 20);
        QCOMPARE(read.error, std::string("3:1: a quoted field is never closed"));
        QVERIFY(read.layers.empty());
    }
};

QTEST_GUILESS_MAIN(TestCsv)
#include "tst_csv.moc"
