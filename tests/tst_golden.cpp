// Exactness against the seed JavaScript: every golden case in tests/golden/<subject>/<case>/ is a
// graph plus the points or samples node computed from the seed code; Grove must match bit for bit.
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/formats/PointsExport.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <dirent.h>

using namespace grove;
using namespace grove::test;

class TestGolden : public QObject
{
    Q_OBJECT

private slots:
    void exact_data();
    void exact();
    void enoughCases();
};

static std::vector<std::string> subdirs(const std::string &dir)
{
    std::vector<std::string> out;
    if (DIR *d = ::opendir(dir.c_str())) {
        while (dirent *e = ::readdir(d))
            if (e->d_name[0] != '.' && e->d_type == DT_DIR)
                out.push_back(e->d_name);
        ::closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

static std::string goldenDir() { return testsDir() + "/golden"; }

// Bit-for-bit comparison of doubles, printing both in full when they differ.
static bool sameDouble(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void TestGolden::exact_data()
{
    QTest::addColumn<QString>("dir");
    for (const auto &subject : subdirs(goldenDir()))
        for (const auto &c : subdirs(goldenDir() + "/" + subject))
            QTest::newRow((subject + "/" + c).c_str()) << QString::fromStdString(goldenDir() + "/" + subject + "/" + c);
}

void TestGolden::exact()
{
    QFETCH(QString, dir);
    const std::string d = dir.toStdString();
    LoadResult loaded = loadGraphFile(d + "/graph.grove.yaml", registry());
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    const nlohmann::json expected = nlohmann::json::parse(readFile(d + "/expected.json"));
    Evaluator ev(registry());
    EvalResult result = ev.evaluate(loaded.graph);
    QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
    int checked = 0;

    if (expected.contains("layers")) {
        for (const auto &layer : expected["layers"]) {
            const std::string node = layer["node"];
            const auto layers = layersOf(result, {node});
            QVERIFY2(layers.size() == 1, node.c_str());
            const auto &got = layers[0]->points;
            const auto &want = layer["points"];
            const bool checkRadius = registry().find(loaded.graph.node(node)->type)->typeId == "place_layer";
            QVERIFY2(got.size() == want.size(),
                     (node + ": " + std::to_string(got.size()) + " points, expected " + std::to_string(want.size())).c_str());
            ++checked;  // an empty layer (start point off the map) is a result too
            for (size_t i = 0; i < got.size(); ++i) {
                const double x = want[i][0], y = want[i][1], r = want[i][2];
                const bool same = sameDouble(got[i].x, x) && sameDouble(got[i].y, y) && (!checkRadius || sameDouble(got[i].r, r));
                QVERIFY2(same, (node + " point " + std::to_string(i) + ": got " + formatNumber(got[i].x) + ", "
                                + formatNumber(got[i].y) + ", " + formatNumber(got[i].r) + " expected " + formatNumber(x)
                                + ", " + formatNumber(y) + ", " + formatNumber(r)).c_str());
                ++checked;
            }
        }
    }
    if (expected.contains("fields")) {
        for (const auto &f : expected["fields"]) {
            const std::string node = f["node"];
            PortValue v = result.output(node);
            const auto *field = std::get_if<FieldPtr>(&v);
            QVERIFY(field && *field);
            for (const auto &s : f["samples"]) {
                const double x = s[0], y = s[1], want = s[2];
                const double got = (*field)->at(x, y);
                QVERIFY2(sameDouble(got, want), (node + " at " + formatNumber(x) + ", " + formatNumber(y) + ": got "
                                                 + formatNumber(got) + " expected " + formatNumber(want)).c_str());
                ++checked;
            }
        }
    }
    if (expected.contains("labels")) {
        for (const auto &f : expected["labels"]) {
            const std::string node = f["node"];
            PortValue v = result.output(node);
            const auto *labels = std::get_if<LabelsPtr>(&v);
            QVERIFY(labels && *labels);
            for (const auto &s : f["samples"]) {
                const double x = s[0], y = s[1];
                const int want = s[2];
                QCOMPARE((*labels)->at(x, y), want);
                ++checked;
            }
        }
    }
    // volume/: place_volume against tests/oracle/volume.mjs, points as [x, y, z, r]
    if (expected.contains("volumes")) {
        for (const auto &layer : expected["volumes"]) {
            const std::string node = layer["node"];
            const auto layers = layersOf(result, {node});
            QVERIFY2(layers.size() == 1, node.c_str());
            const auto &got = *layers[0];
            const auto &want = layer["points"];
            QVERIFY2(got.points.size() == want.size() && got.z.size() == want.size(),
                     (node + ": " + std::to_string(got.points.size()) + " points, expected " + std::to_string(want.size())).c_str());
            ++checked;
            for (size_t i = 0; i < got.points.size(); ++i) {
                const double x = want[i][0], y = want[i][1], z = want[i][2], r = want[i][3];
                const PointXYR &p = got.points[i];
                const bool same = sameDouble(p.x, x) && sameDouble(p.y, y) && sameDouble(got.z[i], z) && sameDouble(p.r, r);
                QVERIFY2(same, (node + " point " + std::to_string(i) + ": got " + formatNumber(p.x) + ", " + formatNumber(p.y)
                                + ", " + formatNumber(got.z[i]) + ", " + formatNumber(p.r) + " expected " + formatNumber(x) + ", "
                                + formatNumber(y) + ", " + formatNumber(z) + ", " + formatNumber(r)).c_str());
                ++checked;
            }
        }
    }
    if (expected.contains("fields3")) {
        for (const auto &f : expected["fields3"]) {
            const std::string node = f["node"];
            PortValue v = result.output(node);
            const auto *field = std::get_if<FieldPtr>(&v);
            QVERIFY(field && *field);
            for (const auto &s : f["samples"]) {
                const double x = s[0], y = s[1], z = s[2], want = s[3];
                const double got = (*field)->at3(x, y, z);
                QVERIFY2(sameDouble(got, want), (node + " at " + formatNumber(x) + ", " + formatNumber(y) + ", " + formatNumber(z)
                                                 + ": got " + formatNumber(got) + " expected " + formatNumber(want)).c_str());
                ++checked;
            }
        }
    }
    QVERIFY2(checked > 0, "a golden case with nothing to check");
}

void TestGolden::enoughCases()
{
    size_t cases = 0;
    for (const auto &subject : subdirs(goldenDir()))
        cases += subdirs(goldenDir() + "/" + subject).size();
    QVERIFY2(cases >= 100, ("only " + std::to_string(cases) + " golden cases").c_str());
}

QTEST_APPLESS_MAIN(TestGolden)
#include "tst_golden.moc"
