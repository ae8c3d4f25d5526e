// Graphs stay the same bytes across Grove versions: a param added with a default changes no saved
// text, hash or export; a changed default without a new node version fails the version table;
// graphs as earlier Groves saved them give their pinned exports; old node versions read through
// migrations (a renamed param, a moved default), and newer ones and other formats are located errors.
#include "NodeVersionTable.h"
#include "TestSupport.h"

#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/base/Sha256.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <regex>

using namespace grove;
using namespace grove::test;

class TestGraphVersions : public QObject
{
    Q_OBJECT
private slots:
    void theVersionTableMatchesTheBuiltinNodes();
    void aChangedDefaultWithoutANewVersionFails();
    void aNewVersionWithItsMigrationOnlyAsksForTheTable();
    void addingAParamWithADefaultChangesNoPreset();
    void paramsAtTheirDefaultAreNotSaved();
    void graphsAsEarlierGrovesSavedThemGiveTheirPinnedExports();
    void aMovedDefaultReadsAsTheOldDefault();
    void aRenamedParamReadsUnderItsNewName();
    void aNodeFromANewerGroveIsALocatedError();
    void formatVersionsOutsideWhatThisGroveReadsAreLocatedErrors();
    void aVersionWithoutItsMigrationIsRefused();
};

static std::string presetsDir() { return sourceDir() + "/presets"; }
static std::string tablePath() { return testsDir() + "/node_versions.txt"; }

static std::string joined(const std::vector<std::string> &lines)
{
    std::string s;
    for (const auto &l : lines)
        s += l + "\n";
    return s;
}

// The built-in registry with `change` applied to a copy of every descriptor.
static std::unique_ptr<NodeRegistry> registryWith(const std::function<void(NodeDescriptor &)> &change)
{
    auto nodes = std::make_unique<NodeRegistry>();
    for (const auto &d : registry().all()) {
        NodeDescriptor copy = *d;
        change(copy);
        nodes->add(std::move(copy));
    }
    return nodes;
}

static ParamSpec *paramOf(NodeDescriptor &d, const std::string &name)
{
    for (auto &p : d.params)
        if (p.name == name)
            return &p;
    return nullptr;
}

// A graph file as grove-cli reads it (groups expanded), with another registry.
static LoadResult loadAs(const std::string &text, const std::string &name, const NodeRegistry &nodes,
                         const std::string &baseDir = presetsDir())
{
    LoadResult loaded = loadGraphFromString(text, name, nodes, baseDir);
    if (loaded.ok())
        expandLoadedGroups(loaded, baseDir + "/" + name, nodes);
    return loaded;
}

static std::vector<std::string> presetNames()
{
    std::vector<std::string> names;
    for (const auto &f : listDir(presetsDir()))
        if (f.ends_with(".grove.yaml"))
            names.push_back(f);
    return names;
}

void TestGraphVersions::theVersionTableMatchesTheBuiltinNodes()
{
    if (const char *out = std::getenv("GROVE_WRITE_NODE_VERSIONS"))
        writeFile(out, nodeVersionTable(registry()));
    const std::string table = readFile(tablePath());
    QVERIFY2(!table.empty(), "tests/node_versions.txt is missing");
    const auto problems = nodeVersionProblems(registry(), table);
    QVERIFY2(problems.empty(), joined(problems).c_str());
}

void TestGraphVersions::aChangedDefaultWithoutANewVersionFails()
{
    const auto changed = registryWith([](NodeDescriptor &d) {
        if (d.typeId == "value_noise")
            paramOf(d, "octaves")->defaultValue = Value(paramOf(d, "octaves")->defaultValue.toNumber() + 1);
    });
    const auto problems = nodeVersionProblems(*changed, readFile(tablePath()));
    QCOMPARE(problems.size(), size_t(1));
    QVERIFY2(problems[0].starts_with("value_noise.octaves's default changed from "), problems[0].c_str());
    QVERIFY2(problems[0].find("bump value_noise's version to 2, add a migration from version 1") != std::string::npos,
             problems[0].c_str());

    // a renamed param at the same version fails the same way; a new param only asks for its line
    const auto renamed = registryWith([](NodeDescriptor &d) {
        if (d.typeId == "value_noise")
            paramOf(d, "octaves")->name = "layers";
    });
    const std::string text = joined(nodeVersionProblems(*renamed, readFile(tablePath())));
    QVERIFY2(text.find("value_noise.octaves is gone at the same version: bump value_noise's version to 2") != std::string::npos,
             text.c_str());
    QVERIFY2(text.find("value_noise.layers is new") != std::string::npos, text.c_str());
}

void TestGraphVersions::aNewVersionWithItsMigrationOnlyAsksForTheTable()
{
    const auto bumped = registryWith([](NodeDescriptor &d) {
        if (d.typeId != "value_noise")
            return;
        const Value old = paramOf(d, "octaves")->defaultValue;
        paramOf(d, "octaves")->defaultValue = Value(old.toNumber() + 1);
        d.version = 2;
        d.migrations.push_back({1, {{"octaves", old}}, {}, {}});
    });
    const auto problems = nodeVersionProblems(*bumped, readFile(tablePath()));
    QCOMPARE(problems.size(), size_t(1));
    QCOMPARE(problems[0], std::string("value_noise is at version 2 and the table at 1: update tests/node_versions.txt with its defaults"));
    QVERIFY(nodeVersionProblems(*bumped, nodeVersionTable(*bumped)).empty());
}

// Every node type gains a param with a default, and every record list a field with one: no
// preset's saved text, graph hash or export changes.
void TestGraphVersions::addingAParamWithADefaultChangesNoPreset()
{
    const auto extended = registryWith([](NodeDescriptor &d) {
        for (auto &p : d.params)
            if (p.kind == ParamKind::RecordList)
                p.fields.push_back({"added_later", ParamKind::Number, false, Value(2.5)});
        ParamSpec added;
        added.name = "added_later";
        added.kind = ParamKind::Number;
        added.defaultValue = Value(0.5);
        d.params.push_back(added);
    });
    int exported = 0;
    for (const auto &name : presetNames()) {
        const std::string text = readFile(presetsDir() + "/" + name);
        const LoadResult before = loadAs(text, name, registry());
        const LoadResult after = loadAs(text, name, *extended);
        QVERIFY2(before.ok() && after.ok(), (name + ":\n" + formatAll(after.diagnostics)).c_str());
        QVERIFY2(std::any_of(after.graph.nodes.begin(), after.graph.nodes.end(), [](const Node &n) { return n.param("added_later") != nullptr; }),
                 name.c_str());
        QCOMPARE(saveGraphToString(after.graph, *extended), saveGraphToString(before.graph, registry()));
        QCOMPARE(graphHash(after.graph, *extended), graphHash(before.graph, registry()));
        if (before.graph.world.endless)
            continue;
        QCOMPARE(exportJson(after.graph, name, *extended), exportJson(before.graph, name));
        ++exported;
    }
    QVERIFY(exported >= 11);
}

void TestGraphVersions::paramsAtTheirDefaultAreNotSaved()
{
    const std::string text = "grove: 1\nworld: {width: 200, height: 120, seed: 7}\nnodes:\n"
                             "  trees:\n    type: place_layer\n    params: {radius: 9, seed: 0, sprite: tree, types: [{name: oak, weight: 1}, {name: ash, weight: 3}]}\n";
    const LoadResult loaded = load(text);
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    const std::string saved = saveGraphToString(loaded.graph, registry());
    // seed 0 is place_layer's default, weight 1 a type's; the radius, the sprite and ash's weight are not
    const NodeDescriptor &layer = *registry().find("place_layer");
    QCOMPARE(toFlowYaml(layer.param("seed")->defaultValue), std::string("0"));
    QVERIFY2(saved.find("      seed:") == std::string::npos, saved.c_str());
    QVERIFY2(saved.find("      radius: 9\n") != std::string::npos, saved.c_str());
    QVERIFY2(saved.find("  - {name: oak}\n") != std::string::npos, saved.c_str());
    QVERIFY2(saved.find("  - {name: ash, weight: 3}\n") != std::string::npos, saved.c_str());
    // and reads back as the same graph, every param complete
    const LoadResult again = load(saved);
    QVERIFY(again.ok());
    QVERIFY(again.graph == loaded.graph);
    QCOMPARE(again.graph.nodes[0].params.size(), layer.params.size());
}

// tests/formats/: each graph as an earlier Grove saved it gives the bytes pinned in exports.sha256.
void TestGraphVersions::graphsAsEarlierGrovesSavedThemGiveTheirPinnedExports()
{
    const std::string dir = testsDir() + "/formats";
    std::istringstream pins(readFile(dir + "/exports.sha256"));
    std::string digest, path;
    int checked = 0;
    while (pins >> digest >> path) {
        const std::string name = path.substr(path.rfind('/') + 1);
        const std::string text = readFile(dir + "/" + path);
        QVERIFY2(!text.empty(), path.c_str());
        const LoadResult loaded = loadAs(text, name, registry());
        QVERIFY2(loaded.ok(), (path + ":\n" + formatAll(loaded.diagnostics)).c_str());
        const std::string bytes = exportJson(loaded.graph, name);
        QVERIFY2(Sha256::hex(bytes) == digest, (path + " exports " + Sha256::hex(bytes) + ", pinned " + digest).c_str());
        ++checked;
    }
    QCOMPARE(checked, 17);
}

static const char *kOldLayer = "grove: 1\nname: Old\nworld: {width: 240, height: 160, seed: 11}\nnodes:\n"
                               "  trees:\n    type: place_layer\n    params: {radius: 12}\n";

// A hash-free export: the points and everything else but the graph's hash.
static std::string withoutHash(const std::string &bytes)
{
    return std::regex_replace(bytes, std::regex("sha256:[0-9a-f]{64}"), "sha256:-");
}

void TestGraphVersions::aMovedDefaultReadsAsTheOldDefault()
{
    // place_layer version 2 moves the default of its seed from 0 to 5
    const auto moved = registryWith([](NodeDescriptor &d) {
        if (d.typeId != "place_layer")
            return;
        const Value old = paramOf(d, "seed")->defaultValue;
        paramOf(d, "seed")->defaultValue = Value(5.0);
        d.version = 2;
        d.migrations.push_back({1, {{"seed", old}}, {}, {}});
    });
    const LoadResult before = load(kOldLayer);
    const LoadResult after = loadAs(kOldLayer, "old.grove.yaml", *moved);
    QVERIFY2(after.ok(), formatAll(after.diagnostics).c_str());
    QCOMPARE(after.graph.nodes[0].param("seed")->toNumber(), 0.0);
    QCOMPARE(after.graph.nodes[0].version, 2);
    // the same points; the version is in the text, so the hash tells the two apart
    QCOMPARE(withoutHash(exportJson(after.graph, "old.grove.yaml", *moved)), withoutHash(exportJson(before.graph, "old.grove.yaml")));
    const std::string saved = saveGraphToString(after.graph, *moved);
    QVERIFY2(saved.find("    type: place_layer\n    version: 2\n    params:\n      radius: 12\n      seed: 0\n") != std::string::npos,
             saved.c_str());
    QVERIFY(graphHash(after.graph, *moved) != graphHash(before.graph, registry()));
    // a graph saved at version 2 reads as itself, with the new default where it says nothing
    const LoadResult reread = loadAs(saved, "old.grove.yaml", *moved);
    QVERIFY(reread.ok());
    QCOMPARE(saveGraphToString(reread.graph, *moved), saved);
    const LoadResult fresh = loadAs("grove: 1\nworld: {width: 240, height: 160, seed: 11}\nnodes:\n  trees:\n"
                                    "    type: place_layer\n    version: 2\n", "new.grove.yaml", *moved);
    QVERIFY(fresh.ok());
    QCOMPARE(fresh.graph.nodes[0].param("seed")->toNumber(), 5.0);
}

void TestGraphVersions::aRenamedParamReadsUnderItsNewName()
{
    // value_noise version 2 calls octaves layers
    const auto renamed = registryWith([](NodeDescriptor &d) {
        if (d.typeId != "value_noise")
            return;
        paramOf(d, "octaves")->name = "layers";
        d.version = 2;
        d.migrations.push_back({1, {}, {{"octaves", "layers"}}, {}});
    });
    const std::string old = "grove: 1\nworld: {width: 64, height: 64, seed: 3}\nnodes:\n"
                            "  height:\n    type: value_noise\n    params: {frequency: 0.02, octaves: 3}\n";
    const LoadResult loaded = loadAs(old, "noise.grove.yaml", *renamed);
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    QCOMPARE(loaded.graph.nodes[0].param("layers")->toNumber(), 3.0);
    QVERIFY(!loaded.graph.nodes[0].param("octaves"));
    const std::string saved = saveGraphToString(loaded.graph, *renamed);
    QVERIFY2(saved.find("    version: 2\n    params:\n      frequency: 0.02\n      layers: 3\n") != std::string::npos, saved.c_str());

    // a version 1 file that already uses the new name as well: located at the node
    const std::string both = "grove: 1\nworld: {width: 64, height: 64, seed: 3}\nnodes:\n"
                             "  height:\n    type: value_noise\n    version: 1\n    params: {octaves: 3, layers: 4}\n";
    const LoadResult clash = loadAs(both, "noise.grove.yaml", *renamed);
    QVERIFY(!clash.ok());
    const std::string message = formatAll(clash.diagnostics);
    QVERIFY2(message.find("noise.grove.yaml:6:14: error: node 'height': param octaves (value_noise version 1) is called "
                          "layers since version 2, and the node gives both: keep one")
                 != std::string::npos,
             message.c_str());
}

void TestGraphVersions::aNodeFromANewerGroveIsALocatedError()
{
    const std::string newer = "grove: 1\nworld: {width: 64, height: 64, seed: 3}\nnodes:\n"
                              "  height:\n    type: value_noise\n    version: 3\n";
    const LoadResult loaded = load(newer, "newer.grove.yaml");
    QVERIFY(!loaded.ok());
    const std::string message = formatAll(loaded.diagnostics);
    QVERIFY2(message.find("newer.grove.yaml:6:14: error: node 'height' is value_noise version 3, newer than this Grove "
                          "knows (version 1): it was saved by a newer Grove; update Grove to open it")
                 != std::string::npos,
             message.c_str());
    for (const char *bad : {"0", "1.5", "two"}) {
        const LoadResult r = load("grove: 1\nworld: {width: 64, height: 64, seed: 3}\nnodes:\n  height:\n"
                                  "    type: value_noise\n    version: " + std::string(bad) + "\n", "bad.grove.yaml");
        QVERIFY2(!r.ok(), bad);
        QVERIFY2(formatAll(r.diagnostics).starts_with("bad.grove.yaml:6:14: error: "), formatAll(r.diagnostics).c_str());
    }
}

void TestGraphVersions::formatVersionsOutsideWhatThisGroveReadsAreLocatedErrors()
{
    const std::string rest = "\nworld: {width: 64, height: 64, seed: 3}\nnodes: {}\n";
    const std::string newer = formatAll(load("grove: 2" + rest, "f.grove.yaml").diagnostics);
    QCOMPARE(newer, std::string("f.grove.yaml:1:8: error: this graph is format version 2, newer than this Grove reads (1); "
                                "update Grove to open it (at grove)\n"));
    const std::string older = formatAll(load("grove: 0" + rest, "f.grove.yaml").diagnostics);
    QCOMPARE(older, std::string("f.grove.yaml:1:8: error: grove: 0 is no format version: graph formats start at 1 "
                                "(this Grove reads up to 1) (at grove)\n"));
    QVERIFY(load("grove: 1" + rest).ok());
}

void TestGraphVersions::aVersionWithoutItsMigrationIsRefused()
{
    bool refused = false;
    try {
        registryWith([](NodeDescriptor &d) {
            if (d.typeId == "value_noise")
                d.version = 3, d.migrations.push_back({1, {}, {}, {}});
        });
    } catch (const std::logic_error &e) {
        refused = true;
        QCOMPARE(std::string(e.what()), std::string("node type value_noise declares its versions wrongly: version 3 without a "
                                                    "migration from version 2 (graphs saved then could not be read)"));
    }
    QVERIFY(refused);
}

QTEST_GUILESS_MAIN(TestGraphVersions)
#include "tst_graph_versions.moc"
