// The group resolver (core/graph/GroupResolver.h): group files are read when a graph is loaded
// and held; looking a descriptor up, checking and saving the graph read none of them, and a
// descriptor held as a shared pointer outlives any number of later resolutions.
#include "GroupTestFiles.h"

#include "core/graph/GraphReader.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/NodeRegistry.h"

#include <QTemporaryDir>

#include <filesystem>

using namespace grove;
using namespace grove::test;

class TestGroupResolver : public QObject
{
    Q_OBJECT

private slots:
    // Loaded once, the group file may go: the descriptor, the checks and the saved bytes (which
    // carry the file's default for gap) are what they were, and nothing says the file is missing.
    void savingAndCheckingReadNoGroupFile()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        writeTopWithGroup(d, 17);
        GroupResolver groups(registry());
        const LoadResult loaded = loadGraphFile(d + "/top.grove.yaml", groups);
        QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
        const std::string saved = saveGraphToString(loaded.graph, groups);
        QVERIFY2(saved.find("gap: 17") != std::string::npos, saved.c_str());

        std::filesystem::remove_all(d + "/parts");
        const Node &g = *loaded.graph.node("g");
        QCOMPARE(gapOf(groups.find(g, loaded.graph.baseDir)), 17.0);
        QCOMPARE(QString::fromStdString(saveGraphToString(loaded.graph, groups)), QString::fromStdString(saved));
        QCOMPARE(QString::fromStdString(formatAll(validateGraph(loaded.graph, groups))), QString());
        // reading the saved text back (as the editor does after a save) reads no group file either
        const LoadResult again = loadGraphFromString(saved, "top.grove.yaml", groups, d);
        QCOMPARE(QString::fromStdString(formatAll(again.diagnostics)), QString());
        // a resolver that never read it finds the file gone, located at the graph param
        GroupResolver fresh(registry());
        const LoadResult missing = loadGraphFile(d + "/top.grove.yaml", fresh);
        QVERIFY(formatAll(missing.diagnostics).find("nodes.g.params.graph") != std::string::npos
                || formatAll(missing.diagnostics).find("cannot open") != std::string::npos);
    }

    // A descriptor held from the first load stays whole while the file is read again 5,000 times
    // (more than the 4,096 the old global queue kept); each new one has the file's new default.
    void heldDescriptorOutlivesManyResolutions()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        writeTopWithGroup(d, 1);
        GroupResolver groups(registry());
        const LoadResult loaded = loadGraphFile(d + "/top.grove.yaml", groups);
        QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
        const Node &g = *loaded.graph.node("g");
        const std::shared_ptr<const NodeDescriptor> first = groups.descriptor(g, loaded.graph.baseDir);
        QCOMPARE(gapOf(first.get()), 1.0);
        for (int i = 2; i <= 5001; ++i) {
            writeFile(d + "/parts/dots.grove.yaml", groupFileWithGap(i));
            groups.clear();
            resolveGroups(groups, loaded.graph, d + "/top.grove.yaml");
            QCOMPARE(groups.size(), size_t(1));
            if (gapOf(groups.find(g, loaded.graph.baseDir)) != i)
                QFAIL(("resolution " + std::to_string(i) + " shows the old default").c_str());
        }
        QCOMPARE(gapOf(first.get()), 1.0);
        QCOMPARE(first->outputs.size(), size_t(1));
        QCOMPARE(first->outputs.front().name, std::string("dots"));
        QCOMPARE(gapOf(groups.descriptor(g, loaded.graph.baseDir).get()), 5001.0);
    }

    // A graph edited to name a group file nobody read yet: looking up shows the plain group type
    // and says so, until the owner resolves it.
    void lookingUpNeverReads()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        std::filesystem::create_directories(d + "/parts");
        writeFile(d + "/parts/dots.grove.yaml", groupFileWithGap(5));
        GroupResolver groups(registry());
        LoadResult loaded = loadGraphFromString("grove: 1\nworld: {width: 300, height: 200, seed: 1}\nnodes: {}\n",
                                                "top.grove.yaml", groups, d);
        Node g;
        g.id = "g";
        g.type = kGroupType;
        g.setParam(kGroupGraphParam, Value(std::string("parts/dots.grove.yaml")));
        loaded.graph.nodes.push_back(g);
        QVERIFY(!groups.find(g, d)->param("gap"));
        QVERIFY(formatAll(validateGraph(loaded.graph, groups)).find("is not read yet") != std::string::npos);
        resolveGroups(groups, loaded.graph);
        QCOMPARE(gapOf(groups.find(g, d)), 5.0);
        QCOMPARE(QString::fromStdString(formatAll(validateGraph(loaded.graph, groups))), QString());
    }
};

QTEST_GUILESS_MAIN(TestGroupResolver)
#include "tst_group_resolver.moc"
