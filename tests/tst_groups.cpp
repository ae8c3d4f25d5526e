// Group nodes (core/graph/GroupGraph.h): a graph with groups evaluates to the same bytes as the same
// graph with the groups written out, two instances differ, nested groups pass exposed params down,
// an edited group file changes the result, and broken includes are located errors.
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/export/ExportJob.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/NodeRegistry.h"

#include <QDir>
#include <QTemporaryDir>

#include <filesystem>
#include <thread>

using namespace grove;
using namespace grove::test;

class TestGroups : public QObject
{
    Q_OBJECT

private slots:
    void seedOffsetIsFnv1a();
    void descriptorComesFromTheFile();
    void shippedGroupMatchesInlined_data();
    void shippedGroupMatchesInlined();
    void presetMatchesInlined_data();
    void presetMatchesInlined();
    void groupFilesAreCanonical_data();
    void groupFilesAreCanonical();
    void nestedGroupsPassParamsDown();
    void unwiredInputKeepsTheInnerDefault();
    void editingTheFileChangesTheResult();
    void chainOf64IsFineAnd65IsNot();
    void cycleThroughTwoFilesIsLocated();
    void problemInsideKeepsItsOwnPlace();
    void groupThenUngroupIsByteIdentical();
    void groupingRefusesACycle();
};

static std::string presetsDir() { return sourceDir() + "/presets"; }

static std::string exportBytes(const Graph &graph, const std::string &name) { return exportJson(graph, name); }

// A file with groups, loaded as grove-cli loads it and expanded.
static LoadResult loadExpanded(const std::string &path)
{
    LoadResult loaded = loadGraphFile(path, registry());
    if (loaded.ok())
        expandLoadedGroups(loaded, path, registry());
    return loaded;
}

// The same graph with its groups written out as plain nodes, saved and read back.
static Graph inlinedByText(const std::string &path)
{
    LoadResult loaded = loadGraphFile(path, registry());
    Diagnostics problems;
    const Graph expanded = expandGroups(loaded.graph, registry(), &problems);
    if (!problems.empty())
        qWarning("%s", formatAll(problems).c_str());
    const std::string text = saveGraphToString(expanded, registry());
    if (text.find("type: group") != std::string::npos)
        qWarning("the inlined graph still has groups");
    return loadGraphFromString(text, "inlined.grove.yaml", registry(), loaded.graph.baseDir).graph;
}

static std::string at(const std::string &dir, const std::string &name) { return dir + "/" + name; }

void TestGroups::seedOffsetIsFnv1a()
{
    // FNV-1a 32-bit: "a" -> 0xe40c292c, "" -> the offset basis 0x811c9dc5, read as int32
    QCOMPARE(groupSeedOffset("a"), static_cast<std::int32_t>(0xe40c292cu));
    QCOMPARE(groupSeedOffset(""), static_cast<std::int32_t>(0x811c9dc5u));
    QCOMPARE(offsetSeed(2147483647, 1), std::int32_t(-2147483647 - 1));  // int32 wrap-around
}

void TestGroups::descriptorComesFromTheFile()
{
    Node node;
    node.id = "woods";
    node.type = "group";
    node.params = {{"graph", Value(std::string("groups/forest_undergrowth.grove.yaml"))}};
    Graph graph;
    graph.baseDir = presetsDir();
    graph.nodes.push_back(node);
    GroupResolver groups(registry());
    resolveGroups(groups, graph);
    const NodeDescriptor *d = groups.find(node, presetsDir());
    QVERIFY(d);
    QCOMPARE(QString::fromStdString(d->displayName), QString("Forest with undergrowth"));
    QCOMPARE(d->inputNames(), (std::vector<std::string>{"area", "obstacles"}));
    QCOMPARE(d->input("area")->type, DataType::Mask);
    QCOMPARE(d->input("obstacles")->type, DataType::Points);
    QCOMPARE(d->outputNames(), (std::vector<std::string>{"all", "shrubs", "trees"}));
    QCOMPARE(d->output("trees")->type, DataType::Points);
    QCOMPARE(d->paramNames(), (std::vector<std::string>{"graph", "shrub_spacing", "tree_spacing"}));
    const ParamSpec *spacing = d->param("tree_spacing");
    QCOMPARE(spacing->min, 4.0);  // narrowed from place_layer's radius > 0
    QCOMPARE(spacing->max, 80.0);
    QCOMPARE(spacing->defaultValue, Value(12.0));  // what the file gives trees.radius
    QCOMPARE(QString::fromStdString(spacing->description), QString("minimum distance between trees"));
    QCOMPARE(d->param("graph")->role, ParamRole::FilePath);
    // the bare type the catalog lists
    QCOMPARE(registry().find("group")->paramNames(), (std::vector<std::string>{"graph"}));
}

void TestGroups::shippedGroupMatchesInlined_data()
{
    QTest::addColumn<QString>("group");
    for (const QString &f : QDir(QString::fromStdString(presetsDir() + "/groups")).entryList({"*.grove.yaml"}, QDir::Files, QDir::Name))
        QTest::newRow(f.toUtf8().constData()) << f;
}

// Every shipped group, twice in one graph with nothing wired (its own defaults inside): the same
// bytes as the expansion written out, and the two instances place different points.
void TestGroups::shippedGroupMatchesInlined()
{
    QFETCH(QString, group);
    const std::string inner = presetsDir() + "/groups/" + group.toStdString();
    LoadResult alone = loadGraphFile(inner, registry());
    QVERIFY2(alone.ok(), formatAll(alone.diagnostics).c_str());
    QVERIFY2(!exportBytes(alone.graph, "alone").starts_with("failed"), "a group file evaluates on its own");
    QVERIFY(!alone.graph.groupOutputs.empty());

    QTemporaryDir dir;
    const std::string outer = at(dir.path().toStdString(), "uses.grove.yaml");
    writeFile(outer, "grove: 1\nworld: {width: " + formatNumber(alone.graph.world.width) + ", height: "
                         + formatNumber(alone.graph.world.height) + ", seed: 11}\nnodes:\n"
                         + "  one:\n    type: group\n    params: {graph: " + inner + "}\n"
                         + "  two:\n    type: group\n    params: {graph: " + inner + "}\n");
    LoadResult loaded = loadExpanded(outer);
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    const std::string bytes = exportBytes(loaded.graph, "uses.grove.yaml");
    QVERIFY2(bytes.starts_with("{"), bytes.c_str());
    QCOMPARE(bytes, exportBytes(inlinedByText(outer), "uses.grove.yaml"));

    // two instances: the same layers under two prefixes, with different points
    Evaluator ev(registry());
    const EvalResult r = ev.evaluate(loaded.graph);
    int compared = 0;
    for (const std::string &id : exportedLayers(loaded.graph, registry())) {
        if (!id.starts_with("one_"))
            continue;
        const std::string twin = "two_" + id.substr(4);
        const auto a = layersOf(r, {id}), b = layersOf(r, {twin});
        QCOMPARE(a.size(), size_t(1));
        QCOMPARE(b.size(), size_t(1));
        QVERIFY(!a[0]->points.empty());
        QVERIFY2(a[0]->points.size() != b[0]->points.size() || a[0]->points.front().x != b[0]->points.front().x,
                 (id + " and " + twin + " are the same").c_str());
        ++compared;
    }
    QVERIFY(compared >= 1);
}

void TestGroups::presetMatchesInlined_data()
{
    QTest::addColumn<QString>("preset");
    for (const QString &f : QDir(QString::fromStdString(presetsDir())).entryList({"*.grove.yaml"}, QDir::Files, QDir::Name))
        if (readFile(presetsDir() + "/" + f.toStdString()).find("type: group") != std::string::npos)
            QTest::newRow(f.toUtf8().constData()) << f;
}

// The shipped presets that use groups: the same bytes as their groups written out.
void TestGroups::presetMatchesInlined()
{
    QFETCH(QString, preset);
    const std::string path = presetsDir() + "/" + preset.toStdString();
    LoadResult loaded = loadExpanded(path);
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    QVERIFY(!hasGroupNodes(loaded.graph));
    const std::string bytes = exportBytes(loaded.graph, preset.toStdString());
    QVERIFY2(bytes.starts_with("{"), bytes.c_str());
    QCOMPARE(bytes, exportBytes(inlinedByText(path), preset.toStdString()));
}

void TestGroups::groupFilesAreCanonical_data()
{
    QTest::addColumn<QString>("file");
    for (const QString &f : QDir(QString::fromStdString(presetsDir() + "/groups")).entryList({"*.grove.yaml"}, QDir::Files, QDir::Name))
        QTest::newRow(f.toUtf8().constData()) << QString::fromStdString(presetsDir() + "/groups/") + f;
}

// grove-cli format leaves them as they are: inputs, outputs and expose after the world, by name.
void TestGroups::groupFilesAreCanonical()
{
    QFETCH(QString, file);
    const std::string text = readFile(file.toStdString());
    LoadResult loaded = loadGraphFile(file.toStdString(), registry());
    QVERIFY2(loaded.ok() && loaded.diagnostics.empty(), formatAll(loaded.diagnostics).c_str());
    QCOMPARE(saveGraphToString(loaded.graph, registry()), text);
    const auto reloaded = loadGraphFromString(text, "again", registry(), loaded.graph.baseDir);
    QVERIFY(reloaded.graph == loaded.graph);
}

// A group inside a group: the outer file exposes the inner group's exposed param under its own
// name, and the value given at the top reaches the layer two files down.
void TestGroups::nestedGroupsPassParamsDown()
{
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    QDir().mkpath(dir.path() + "/parts");
    writeFile(at(d, "parts/leaf.grove.yaml"), "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                              "outputs:\n  points: {from: dots.points}\n"
                                              "expose:\n  gap: {param: dots.radius}\n"
                                              "nodes:\n  dots:\n    type: place_layer\n    params: {radius: 10, seed: 3}\n");
    writeFile(at(d, "parts/pair.grove.yaml"), "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                              "outputs:\n  first: {from: a.points}\n"
                                              "expose:\n  spacing: {param: a.gap}\n"
                                              "nodes:\n  a:\n    type: group\n    params: {graph: leaf.grove.yaml, gap: 10}\n"
                                              "  b:\n    type: group\n    params: {graph: leaf.grove.yaml, gap: 25}\n");
    writeFile(at(d, "top.grove.yaml"), "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                       "nodes:\n  p:\n    type: group\n    params: {graph: parts/pair.grove.yaml, spacing: 7}\n"
                                       "  after:\n    type: place_layer\n    inputs: {obstacles: p.first}\n    params: {radius: 30}\n");
    LoadResult loaded = loadExpanded(at(d, "top.grove.yaml"));
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    std::vector<std::string> ids;
    for (const Node &n : loaded.graph.nodes)
        ids.push_back(n.id);
    std::sort(ids.begin(), ids.end());
    QCOMPARE(ids, (std::vector<std::string>{"after", "p_a_dots", "p_b_dots"}));
    QCOMPARE(*loaded.graph.node("p_a_dots")->param("radius"), Value(7.0));   // from the top
    QCOMPARE(*loaded.graph.node("p_b_dots")->param("radius"), Value(25.0));  // the middle file's own
    // seeds: the leaf's 3, offset by the middle group's id, then by the top one's
    const std::int32_t seed = offsetSeed(offsetSeed(3, groupSeedOffset("a")), groupSeedOffset("p"));
    QCOMPARE(*loaded.graph.node("p_a_dots")->param("seed"), Value(static_cast<double>(seed)));
    QCOMPARE(loaded.graph.node("after")->input("obstacles")->toString(), std::string("p_a_dots.points"));
    QCOMPARE(exportBytes(loaded.graph, "top"), exportBytes(inlinedByText(at(d, "top.grove.yaml")), "top"));
}

// A declared input the inner file wires itself keeps that wire until a group node wires it.
void TestGroups::unwiredInputKeepsTheInnerDefault()
{
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    writeFile(at(d, "g.grove.yaml"), "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                     "inputs:\n  area: {to: [dots.allowed]}\n"
                                     "outputs:\n  dots: {from: dots.points}\n"
                                     "nodes:\n  noise:\n    type: value_noise\n  patch:\n    type: allowed_rule\n    inputs: {field: noise}\n"
                                     "  dots:\n    type: place_layer\n    inputs: {allowed: patch}\n    params: {radius: 10}\n");
    writeFile(at(d, "top.grove.yaml"), "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                       "nodes:\n  n:\n    type: value_noise\n  m:\n    type: allowed_rule\n    inputs: {field: n}\n"
                                       "  wired:\n    type: group\n    inputs: {area: m}\n    params: {graph: g.grove.yaml}\n"
                                       "  loose:\n    type: group\n    params: {graph: g.grove.yaml}\n");
    LoadResult loaded = loadExpanded(at(d, "top.grove.yaml"));
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    QCOMPARE(loaded.graph.node("wired_dots")->input("allowed")->toString(), std::string("m"));
    QCOMPARE(loaded.graph.node("loose_dots")->input("allowed")->toString(), std::string("loose_patch"));
    GroupResolver groups(registry());
    QVERIFY(groups.find(*loadGraphFile(at(d, "top.grove.yaml"), groups).graph.node("wired"), d)->input("area")->optional);
}

// The group file is read again when it changes (same size, new contents): the outer result follows.
void TestGroups::editingTheFileChangesTheResult()
{
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    auto inner = [&](int radius) {
        writeFile(at(d, "g.grove.yaml"), "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                         "outputs:\n  dots: {from: dots.points}\n"
                                         "nodes:\n  dots:\n    type: place_layer\n    params: {radius: " + std::to_string(radius) + "}\n");
    };
    inner(10);
    writeFile(at(d, "top.grove.yaml"), "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                                       "nodes:\n  g:\n    type: group\n    params: {graph: g.grove.yaml}\n");
    const LoadResult top = loadGraphFile(at(d, "top.grove.yaml"), registry());
    QVERIFY2(top.ok(), formatAll(top.diagnostics).c_str());
    Evaluator ev(registry());  // one evaluator, as the editor's preview keeps it
    const EvalResult before = ev.evaluate(top.graph);
    QVERIFY(before.ok());
    const size_t countBefore = layersOf(before, {"g_dots"}).at(0)->points.size();
    inner(30);  // the same number of bytes
    const EvalResult after = ev.evaluate(top.graph);
    QVERIFY(after.ok());
    const size_t countAfter = layersOf(after, {"g_dots"}).at(0)->points.size();
    QVERIFY2(countAfter * 4 < countBefore, (std::to_string(countBefore) + " -> " + std::to_string(countAfter)).c_str());
}

// 64 group files below the top graph are allowed; the 65th is a located error, quickly.
void TestGroups::chainOf64IsFineAnd65IsNot()
{
    QTemporaryDir dir;
    QDir::setCurrent(dir.path());  // the messages name the files as the graph does
    auto chain = [&](int files) {
        // each file a node and a group with the next; the last one empty (its node's id, 64 groups
        // deep, would pass the 128 characters of an id)
        for (int i = 1; i <= files; ++i)
            writeFile("c" + std::to_string(i) + ".grove.yaml",
                      "grove: 1\nworld: {width: 100, height: 100, seed: 1}\n"
                      + (i == files ? std::string("nodes: {}\n")
                                    : "nodes:\n  x:\n    type: constant\n  n:\n    type: group\n    params: {graph: c"
                                          + std::to_string(i + 1) + ".grove.yaml}\n"));
        writeFile("top.grove.yaml", "grove: 1\nworld: {width: 100, height: 100, seed: 1}\n"
                                    "nodes:\n  g:\n    type: group\n    params: {graph: c1.grove.yaml}\n");
        return loadExpanded("top.grove.yaml");
    };
    LoadResult ok = chain(64);
    QVERIFY2(ok.ok(), formatAll(ok.diagnostics).c_str());
    QCOMPARE(ok.graph.nodes.size(), size_t(63));
    std::string deepest = "g";
    for (int i = 1; i < 63; ++i)
        deepest += "_n";
    QVERIFY(ok.graph.node(deepest + "_x"));
    LoadResult bad = chain(65);
    QVERIFY(!bad.ok());
    QCOMPARE(QString::fromStdString(formatAll(bad.diagnostics)),
             QString("c64.grove.yaml:8:21: error: group 'n': group files include one another more than 64 deep (c65.grove.yaml would "
                     "be group file 65 below the top graph) (in group 'n', included from c63.grove.yaml:8:21) (in group 'n', included "
                     "from c62.grove.yaml:8:21) ... (in group 'g', included from top.grove.yaml:6:21) (at nodes.n.params.graph)\n"));
}

void TestGroups::cycleThroughTwoFilesIsLocated()
{
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    writeFile(at(d, "a.grove.yaml"), "grove: 1\nworld: {width: 100, height: 100, seed: 1}\n"
                                     "nodes:\n  to_b:\n    type: group\n    params: {graph: b.grove.yaml}\n");
    writeFile(at(d, "b.grove.yaml"), "grove: 1\nworld: {width: 100, height: 100, seed: 1}\n"
                                     "nodes:\n  back:\n    type: group\n    params: {graph: a.grove.yaml}\n");
    // opened on its own, a.grove.yaml is the top of the chain
    const LoadResult loaded = loadGraphFile(at(d, "a.grove.yaml"), registry());
    QCOMPARE(QString::fromStdString(formatAll(loaded.diagnostics)),
             QString::fromStdString(at(d, "b.grove.yaml") + ":6:21: error: group 'back': includes its own file: a.grove.yaml -> b.grove.yaml -> "
                                    "a.grove.yaml (in group 'to_b', included from " + at(d, "a.grove.yaml") + ":6:21) (at nodes.back.params.graph)\n"));
    // and evaluation refuses it without expanding anything
    Evaluator ev(registry());
    QVERIFY(!ev.evaluate(loaded.graph).ok());
}

// A problem inside the group file is reported at its own line, with where it is included.
void TestGroups::problemInsideKeepsItsOwnPlace()
{
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    QDir().mkpath(dir.path() + "/g");
    writeFile(at(d, "g/bad.grove.yaml"), "grove: 1\nworld: {width: 100, height: 100, seed: 1}\n"
                                         "nodes:\n  dots:\n    type: place_layer\n    params: {radius: -1}\n");
    QDir::setCurrent(dir.path());
    writeFile("top.grove.yaml", "grove: 1\nworld: {width: 100, height: 100, seed: 1}\n"
                                "nodes:\n  forest:\n    type: group\n    params: {graph: g/bad.grove.yaml}\n");
    const LoadResult loaded = loadGraphFile("top.grove.yaml", registry());
    QCOMPARE(QString::fromStdString(formatAll(loaded.diagnostics)),
             QString("g/bad.grove.yaml:6:22: error: param 'radius': -1 is out of range: must be > 0 and <= 10000000 "
                     "(in group 'forest', included from top.grove.yaml:6:21) (at nodes.dots.params.radius)\n"));
    // two groups of one file: each problem at its own group (the file is read once, and cached)
    writeFile("two.grove.yaml", "grove: 1\nworld: {width: 100, height: 100, seed: 1}\n"
                                "nodes:\n  a:\n    type: group\n    params: {graph: g/bad.grove.yaml}\n"
                                "  b:\n    type: group\n    params: {graph: g/missing.grove.yaml}\n"
                                "  c:\n    type: group\n    params: {graph: g/bad.grove.yaml}\n"
                                "  d:\n    type: group\n    params: {graph: g/missing.grove.yaml}\n");
    const std::string two = formatAll(loadGraphFile("two.grove.yaml", registry()).diagnostics);
    QVERIFY2(two.find("(in group 'a', included from two.grove.yaml:6:21)") != std::string::npos, two.c_str());
    QVERIFY2(two.find("(in group 'c', included from two.grove.yaml:12:21)") != std::string::npos, two.c_str());
    QVERIFY2(two.find("two.grove.yaml:9:21: error: group 'b': cannot open 'g/missing.grove.yaml'") != std::string::npos, two.c_str());
    QVERIFY2(two.find("two.grove.yaml:15:21: error: group 'd': cannot open 'g/missing.grove.yaml'") != std::string::npos, two.c_str());
}

// Grouping two layers of the island into a file beside it keeps every point where it was (the
// seeds inside are offset back), and ungrouping gives back the very bytes of the file.
void TestGroups::groupThenUngroupIsByteIdentical()
{
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    const std::string original = readFile(presetsDir() + "/island_world.grove.yaml");
    writeFile(at(d, "island.grove.yaml"), original);
    GroupResolver groups(registry());
    const LoadResult loaded = loadGraphFile(at(d, "island.grove.yaml"), groups);
    QVERIFY(loaded.ok());
    const Grouping grouped = groupNodes(loaded.graph, {"rocks", "trees", "forest"}, "woods", "parts/woods.grove.yaml", groups);
    QVERIFY2(grouped.problem.empty(), grouped.problem.c_str());
    // the selection's outside links became declared inputs and outputs
    QCOMPARE(grouped.inner.groupInputs.size(), size_t(3));  // chests.all, shore_and_land, ground
    QCOMPARE(grouped.inner.groupInputs.at("chests_all").to, (std::vector<Link>{{"rocks", "obstacles"}}));
    QCOMPARE(grouped.inner.groupOutputs.at("trees_all").from, (Link{"trees", "all"}));
    QCOMPARE(grouped.outer.node("flowers")->input("obstacles")->toString(), std::string("woods.trees_all"));
    QDir().mkpath(dir.path() + "/parts");
    writeFile(at(d, "parts/woods.grove.yaml"), saveGraphToString(grouped.inner, registry()));
    writeFile(at(d, "island.grove.yaml"), saveGraphToString(grouped.outer, registry()));

    // the same world: every layer's points as before, under the group's ids
    LoadResult regrouped = loadExpanded(at(d, "island.grove.yaml"));
    QVERIFY2(regrouped.ok(), formatAll(regrouped.diagnostics).c_str());
    Evaluator ev(registry());
    const EvalResult before = ev.evaluate(loaded.graph), after = ev.evaluate(regrouped.graph);
    QVERIFY(before.ok() && after.ok());
    for (const auto &[was, now] : std::vector<std::pair<std::string, std::string>>{
             {"rocks", "woods_rocks"}, {"trees", "woods_trees"}, {"flowers", "flowers"}, {"chests", "chests"}}) {
        const auto a = layersOf(before, {was}), b = layersOf(after, {now});
        QCOMPARE(a.at(0)->points.size(), b.at(0)->points.size());
        for (size_t i = 0; i < a[0]->points.size(); ++i)
            QVERIFY2(a[0]->points[i].x == b[0]->points[i].x && a[0]->points[i].y == b[0]->points[i].y, now.c_str());
    }

    // ungroup: the original bytes
    GroupResolver withGroups(registry());
    const LoadResult withGroup = loadGraphFile(at(d, "island.grove.yaml"), withGroups);
    QVERIFY2(withGroup.ok(), formatAll(withGroup.diagnostics).c_str());
    const Ungrouping ungrouped = ungroupNode(withGroup.graph, "woods", withGroups);
    QVERIFY2(ungrouped.problem.empty(), ungrouped.problem.c_str());
    QCOMPARE(QString::fromStdString(saveGraphToString(ungrouped.graph, registry())), QString::fromStdString(original));
}

void TestGroups::groupingRefusesACycle()
{
    GroupResolver groups(registry());
    const LoadResult loaded = loadGraphFile(presetsDir() + "/island_world.grove.yaml", groups);
    // chests -> rocks -> trees: chests and trees without rocks would give to rocks and take from it
    const Grouping grouped = groupNodes(loaded.graph, {"chests", "trees"}, "g", "g.grove.yaml", groups);
    QVERIFY(grouped.outer.nodes.empty());
    QCOMPARE(QString::fromStdString(grouped.problem),
             QString("the selection takes from a node that takes from the selection: grouping it would make a cycle; select that node too"));
    QCOMPARE(QString::fromStdString(groupNodes(loaded.graph, {"trees"}, "rocks", "g.grove.yaml", groups).problem),
             QString("another node is called 'rocks'"));
}

QTEST_GUILESS_MAIN(TestGroups)
#include "tst_groups.moc"
