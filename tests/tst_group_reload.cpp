// Group files reloaded in one editor document (app/editor/document/Document.h): the document owns
// the resolver; a reload reads the group file again and the node's descriptor follows it, any
// number of times; saving reads no group file. Built alone with the document library, so the
// sanitizer build (-DGROVE_SANITIZE=ON) compiles no more of the editor than it needs.
#include "GroupTestFiles.h"

#include "document/Document.h"

#include "core/graph/GraphValidator.h"
#include "core/graph/GroupResolver.h"

#include <QTemporaryDir>

#include <filesystem>

using namespace grove;
using namespace grove::test;

class TestGroupReload : public QObject
{
    Q_OBJECT

private slots:
    // 10,000 edits of the group file, each reloaded: the card's descriptor shows each new default
    // and the graph checks clean; descriptors kept from earlier reloads still read as they were.
    void tenThousandReloadsInOneDocument()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        writeTopWithGroup(d, 1);
        Document doc(registry());
        Diagnostics problems;
        QVERIFY(doc.load(QString::fromStdString(d + "/top.grove.yaml"), &problems));
        QCOMPARE(QString::fromStdString(formatAll(problems)), QString());
        std::vector<std::pair<int, std::shared_ptr<const NodeDescriptor>>> kept;
        for (int i = 2; i <= 10001; ++i) {
            writeFile(d + "/parts/dots.grove.yaml", groupFileWithGap(i));
            doc.reloadGroups();
            const Node *g = doc.graph().node("g");
            QVERIFY(g);
            if (gapOf(doc.groups().find(*g, doc.graph().baseDir)) != i)
                QFAIL(("reload " + std::to_string(i) + " shows another default").c_str());
            if (i % 1000 == 2)
                kept.emplace_back(i, doc.groups().descriptor(*g, doc.graph().baseDir));
            if (i % 500 == 0)  // and the graph still checks clean against the new file
                QCOMPARE(QString::fromStdString(formatAll(validateGraph(doc.graph(), doc.groups()))), QString());
        }
        for (const auto &[i, descriptor] : kept)
            QCOMPARE(gapOf(descriptor.get()), double(i));
        QCOMPARE(doc.groups().size(), size_t(1));  // one file held, however often it was read
    }

    // Once loaded, the group file may be gone: Save writes the same bytes as before and the
    // problems it lists afterwards do not include a missing group file.
    void savingReadsNoGroupFile()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        writeTopWithGroup(d, 23);
        Document doc(registry());
        Diagnostics problems;
        QVERIFY(doc.load(QString::fromStdString(d + "/top.grove.yaml"), &problems));
        QVERIFY(!doc.save(QString::fromStdString(d + "/before.grove.yaml")));
        const std::string before = readFile(d + "/before.grove.yaml");
        QVERIFY2(before.find("gap: 23") != std::string::npos, before.c_str());

        std::filesystem::remove_all(d + "/parts");
        QVERIFY(!doc.save(QString::fromStdString(d + "/after.grove.yaml")));
        QCOMPARE(QString::fromStdString(readFile(d + "/after.grove.yaml")), QString::fromStdString(before));
        QCOMPARE(QString::fromStdString(formatAll(doc.problems())), QString());
    }
};

QTEST_GUILESS_MAIN(TestGroupReload)
#include "tst_group_reload.moc"
