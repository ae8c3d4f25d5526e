// Chunked worlds in the editor: the chunk grid toggle draws borders (off and disabled in a world
// without chunks, back on in a chunked one), a 65536 x 65536 world's
// preview places only the chunks in view (and pans reuse them), the World panel's chunk field and
// Endless switch undo as one step each, an endless world round-trips through save and load, and its
// layers' cards show their points.
#include "tst_editor_support.h"

#include "canvas/GraphScene.h"
#include "canvas/NodeItem.h"
#include "document/Document.h"
#include "window/MainWindow.h"
#include "preview/PreviewController.h"
#include "window/PreviewDock.h"
#include "preview/PreviewView.h"
#include "window/WorldPanel.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/render/PreviewPipeline.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QLineF>
#include <QSettings>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>

#include <cmath>

using namespace grove;
using namespace grove::test;

namespace {

const std::string kEndlessPreset = GROVE_SOURCE_DIR "/presets/endless.grove.yaml";

// The endless preset with edges: 65536 x 65536 in chunks of 256 (65,536 chunks), rocks 8 and trees 4.
std::string bigWorld()
{
    std::string text = readFile(kEndlessPreset);
    const std::string from = "world:\n  seed: 2026\n", to = "world:\n  width: 65536\n  height: 65536\n  seed: 2026\n";
    const auto at = text.find(from);
    if (at == std::string::npos)
        qFatal("the endless preset's world changed");
    return text.replace(at, from.size(), to);
}

const std::string kSmallChunked = [] {
    std::string text = kIsland;
    const std::string seed = "  seed: 123456\n";
    return text.replace(text.find(seed), seed.size(), seed + "  chunk: 256\n");
}();

PreviewView *viewOf(MainWindow *w) { return w->previewDock()->view(); }

// How many chunks a region spans across and down.
QSize chunkSpan(const QRectF &r, double chunk)
{
    return QSize(static_cast<int>(std::ceil(r.right() / chunk) - std::floor(r.left() / chunk)),
                 static_cast<int>(std::ceil(r.bottom() / chunk) - std::floor(r.top() / chunk)));
}

// A layer's chunks for a region w x h chunks across: the region, the lower-phase neighbours its
// chunks wait for (up to 2 chunks out), and for a layer under another the chunks near those (1 more)
// with their own neighbours: a rectangle `reach` chunks wider on every side.
std::uint64_t coneBound(QSize span, int reach)
{
    return std::uint64_t(span.width() + 2 * reach) * std::uint64_t(span.height() + 2 * reach);
}

const PreviewLayer *layerOf(const PreviewSnapshotPtr &snap, const std::string &id)
{
    for (const PreviewLayer &l : snap->layers)
        if (l.nodeId == id)
            return &l;
    return nullptr;
}

// The chunk placements made so far by a layer of the shown snapshot (its region layer shares the
// lazy layer's ChunkedLayer, which the evaluator keeps while the graph stays).
std::uint64_t placements(MainWindow *w, const std::string &id)
{
    const PreviewLayer *l = layerOf(w->preview()->snapshot(), id);
    return l && l->points && l->points->chunked ? l->points->chunked->placements() : 0;
}

// A shown region snapshot of `rect` (or one inside it: the view's aspect) with its points placed.
bool showsRegion(MainWindow *w, const QRectF &rect)
{
    if (!caughtUp(w))
        return false;
    const PreviewSnapshotPtr s = w->preview()->snapshot();
    return s->regional && !s->overBudget && s->covers.intersects(rect) && viewOf(w)->paintedGeneration() == s->generation;
}

QImage grabView(MainWindow *w)
{
    viewOf(w)->repaint();
    return viewOf(w)->grab().toImage();
}

} // namespace

class TestPreviewChunks : public QObject
{
    Q_OBJECT

private slots:
    // Ctrl+B's action: off, the map has no line on a chunk border; on, it has, and away from the
    // borders the pixels are the same. The choice is remembered.
    void chunkBordersToggle()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, kSmallChunked);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QAction *toggle = w->previewDock()->chunkBordersAction();
        QCOMPARE(toggle->shortcut(), QKeySequence("Ctrl+B"));
        QVERIFY(toggle->isEnabled());
        toggle->setChecked(false);
        PreviewView *view = viewOf(w.get());
        QVERIFY(!w->preview()->snapshot()->regional);  // 880 x 480 in chunks of 256: placed whole
        const QImage off = grabView(w.get());
        toggle->setChecked(true);
        QVERIFY(view->chunkBordersVisible());
        const QImage on = grabView(w.get());
        const qreal dpr = on.devicePixelRatio();
        const QPoint border = (view->widgetAt(QPointF(256, 300)) * dpr).toPoint();
        const QPoint inside = (view->widgetAt(QPointF(384, 300)) * dpr).toPoint();
        int changed = 0;
        for (int dx = -1; dx <= 1; ++dx)
            changed += on.pixel(border + QPoint(dx, 0)) != off.pixel(border + QPoint(dx, 0));
        QVERIFY2(changed > 0, "no line at x = 256");
        QCOMPARE(on.pixel(inside), off.pixel(inside));
        QVERIFY(QSettings().value("preview/chunkBorders").toBool());
        toggle->setChecked(false);
        QVERIFY(!QSettings().value("preview/chunkBorders").toBool());
        QCOMPARE(grabView(w.get()).pixel(border), off.pixel(border));
    }

    // Ctrl+B in an endless world, then a world without chunks in the same tab: the button shows
    // off there as well as disabled (not pressed), and the next chunked world has the borders again.
    void chunkBordersFollowTheWorld()
    {
        QSettings().setValue("preview/chunkBorders", false);
        QTemporaryDir dir;
        auto w = openWindowOn(dir, readFile(kEndlessPreset));
        w->preview()->setPrefetch(false);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(60000));
        QAction *toggle = w->previewDock()->chunkBordersAction();
        QToolButton *button = nullptr;
        for (QToolButton *b : w->previewDock()->findChildren<QToolButton *>())
            if (b->defaultAction() == toggle)
                button = b;
        QVERIFY(button && toggle->isEnabled() && !button->isChecked());
        toggle->trigger();  // as Ctrl+B does
        QVERIFY(button->isChecked() && viewOf(w.get())->chunkBordersVisible());

        const QString flat = dir.filePath("flat.grove.yaml"), chunked = dir.filePath("chunked.grove.yaml");
        writeFile(flat.toStdString(), kIsland);
        writeFile(chunked.toStdString(), kSmallChunked);
        QVERIFY(w->openFile(flat));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->graph.world.chunk == 0, patientMs(30000));
        QVERIFY(!toggle->isEnabled());
        QVERIFY(!button->isChecked());
        QVERIFY(!toggle->isChecked());  // nor ticked in the View menu
        QVERIFY(QSettings().value("preview/chunkBorders").toBool());  // the choice stays

        QVERIFY(w->openFile(chunked));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->graph.world.chunk == 256, patientMs(30000));
        QVERIFY(toggle->isEnabled() && button->isChecked());
        QVERIFY(viewOf(w.get())->chunkBordersVisible());
        toggle->trigger();
        QVERIFY(!QSettings().value("preview/chunkBorders").toBool());
    }

    // An endless graph that cannot be placed (its chunk under four times a radius) says why over
    // the map and stays still: the message does not come and go with each run, resizing the map
    // and asking for a new region each time, for ever.
    void anEndlessGraphThatFailsSettlesOnItsProblem()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, "grove: 1\nworld: {seed: 3, chunk: 128}\nnodes:\n"
                                   "  rocks:\n    type: place_layer\n    params: {radius: 34}\n");
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        auto *status = w->previewDock()->findChild<QLabel *>("previewStatus");
        QVERIFY2(status && status->isVisible() && status->text().contains("world chunk 128 is less than 4 times"),
                 qPrintable(status ? status->text() : QString("no status label")));
        // a good chunk again: the picture comes and the message goes
        const QString good = dir.filePath("good.grove.yaml");
        writeFile(good.toStdString(), "grove: 1\nworld: {seed: 3, chunk: 256}\nnodes:\n"
                                      "  rocks:\n    type: place_layer\n    params: {radius: 34}\n");
        QVERIFY(w->openFile(good));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->regional, patientMs(30000));
        QVERIFY(!status->isVisible());
    }

    // 65536 x 65536 in chunks of 256: the whole world shows its ground and says why no points;
    // zoomed in, only the chunks in view (and their cones) are placed, at full detail; a pan of one
    // chunk places about one more column; panning back places nothing.
    void bigWorldPlacesOnlyTheChunksInView()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, bigWorld());
        w->preview()->setPrefetch(false);  // only what the views ask for, counted
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->regional, patientMs(60000));
        PreviewSnapshotPtr s = w->preview()->snapshot();
        QVERIFY(s->overBudget);
        QCOMPARE(s->chunksInView, std::size_t(65536));
        QVERIFY(viewOf(w.get())->message().contains("Zoom in to see the points"));
        QVERIFY(viewOf(w.get())->message().contains("65,536 chunks in view"));
        QVERIFY(!s->image.isNull());
        QCOMPARE(placements(w.get(), "trees"), std::uint64_t(0));
        QCOMPARE(layerOf(s, "trees")->notPlaced, true);

        // about 4 x 3 chunks in the middle of the world
        const QRectF first(32768, 32768, 1024, 768);
        QElapsedTimer clock;
        clock.start();
        viewOf(w.get())->zoomTo(first);
        QTRY_VERIFY_WITH_TIMEOUT(showsRegion(w.get(), first), patientMs(60000));
        qInfo("zoom in to 4 x 3 chunks: %lld ms to the painted frame", clock.elapsed());
        s = w->preview()->snapshot();
        QVERIFY(viewOf(w.get())->message().isEmpty());
        const QSize span = chunkSpan(s->covers, 256);
        QCOMPARE(s->chunksInView, std::size_t(span.width() * span.height()));
        QVERIFY(s->chunksInView <= 40);
        const std::uint64_t rocks = placements(w.get(), "rocks"), trees = placements(w.get(), "trees");
        qInfo("%zu chunks in view; placed %llu rocks chunks, %llu trees chunks", s->chunksInView,
              (unsigned long long)rocks, (unsigned long long)trees);
        // the view and its cone, of 65,536: trees wait for neighbours 2 out, rocks reach 2 beyond that
        QVERIFY2(trees >= s->chunksInView && trees <= coneBound(span, 2), std::to_string(trees).c_str());
        QVERIFY2(rocks >= s->chunksInView && rocks <= coneBound(span, 4), std::to_string(rocks).c_str());
        const PreviewLayer *treeLayer = layerOf(s, "trees");
        QVERIFY(treeLayer->inView && treeLayer->points->points.size() > 1000);
        for (const PointXYR &p : treeLayer->points->points)  // the view, plus the sprites' margin
            QVERIFY(s->covers.adjusted(-17, -17, 17, 17).contains(p.x, p.y));
        // full detail: every point in view is there, as the chunks hold them
        std::size_t inChunks = 0;
        std::vector<ChunkCoord> chunks;
        treeLayer->points->chunked->chunksIn({s->covers.left(), s->covers.top(), s->covers.right(), s->covers.bottom()}, chunks);
        for (const ChunkCoord &c : chunks)
            for (const PointXYR &p : treeLayer->points->chunked->chunk(c.i, c.j)->points)
                inChunks += s->covers.contains(p.x, p.y);
        std::size_t shown = 0;
        for (const PointXYR &p : treeLayer->points->points)
            shown += s->covers.contains(p.x, p.y);
        QCOMPARE(shown, inChunks);

        // one chunk to the right: about one new column of chunks (the rows in view and the cone's)
        const QRectF right = first.translated(256, 0);
        clock.restart();
        viewOf(w.get())->zoomTo(right);
        QTRY_VERIFY_WITH_TIMEOUT(showsRegion(w.get(), right) && w->preview()->snapshot()->covers.left() > first.left(), patientMs(60000));
        qInfo("pan by one chunk: %lld ms to the painted frame", clock.elapsed());
        const std::uint64_t newTrees = placements(w.get(), "trees") - trees, newRocks = placements(w.get(), "rocks") - rocks;
        qInfo("pan: %zu chunks in view; placed %llu more rocks chunks, %llu more trees chunks",
              w->preview()->snapshot()->chunksInView, (unsigned long long)newRocks, (unsigned long long)newTrees);
        // a column of the cone, or two where the new edge column's phase reaches a chunk further
        QVERIFY2(newTrees >= 1 && newTrees <= 2 * std::uint64_t(span.height() + 4) && newTrees < trees / 2,
                 std::to_string(newTrees).c_str());
        QVERIFY2(newRocks <= 2 * std::uint64_t(span.height() + 8) && newRocks < rocks / 2, std::to_string(newRocks).c_str());

        // back where it was: every chunk is cached
        const std::uint64_t before = placements(w.get(), "trees") + placements(w.get(), "rocks");
        clock.restart();
        viewOf(w.get())->zoomTo(first);
        QTRY_VERIFY_WITH_TIMEOUT(showsRegion(w.get(), first) && w->preview()->snapshot()->covers.left() < right.left(), patientMs(60000));
        qInfo("pan back (cached chunks): %lld ms to the painted frame", clock.elapsed());
        QCOMPARE(placements(w.get(), "trees") + placements(w.get(), "rocks"), before);
    }

    // Once a view is shown and nothing waits, the chunks one chunk around it are placed in the
    // background: asking for them afterwards places nothing, and the next pan finds them.
    void prefetchPlacesTheRingAroundTheView()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, bigWorld());
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->regional, patientMs(60000));
        QVERIFY(!w->preview()->isPrefetching());  // the whole world in view: over the budget, nothing to fetch
        const QRectF first(16384, 16384, 1024, 768);
        viewOf(w.get())->zoomTo(first);
        QTRY_VERIFY_WITH_TIMEOUT(showsRegion(w.get(), first) && !w->preview()->isPrefetching(), patientMs(60000));
        const PreviewSnapshotPtr s = w->preview()->snapshot();
        for (const char *id : {"rocks", "trees"}) {
            const ChunkedLayer &layer = *layerOf(s, id)->points->chunked;
            std::vector<ChunkCoord> ring;
            layer.chunksIn({s->covers.left() - 256, s->covers.top() - 256, s->covers.right() + 256, s->covers.bottom() + 256}, ring);
            const std::uint64_t before = layer.placements();
            QCOMPARE(layer.prepare(ring, 1, nullptr), ChunkStatus::Done);
            QCOMPARE(layer.placements(), before);
        }
        const std::uint64_t before = placements(w.get(), "trees");
        QElapsedTimer clock;
        clock.start();
        const QRectF right = first.translated(256, 0);
        viewOf(w.get())->zoomTo(right);
        QTRY_VERIFY_WITH_TIMEOUT(showsRegion(w.get(), right) && w->preview()->snapshot()->covers.left() > first.left(), patientMs(60000));
        qInfo("pan by one chunk onto prefetched chunks: %lld ms to the painted frame", clock.elapsed());
        // the view's own chunks were ready; only the next ring (after the frame) adds any
        QVERIFY(placements(w.get(), "trees") >= before);
    }

    // An endless world opens on 4 x 4 chunks from the origin, with its points.
    void endlessWorldOpensOnItsOrigin()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, readFile(kEndlessPreset));
        w->preview()->setPrefetch(false);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->regional, patientMs(60000));
        const PreviewSnapshotPtr s = w->preview()->snapshot();
        QCOMPARE(s->home, QRectF(0, 0, 1024, 1024));
        QVERIFY(!s->overBudget);
        QVERIFY(s->covers.contains(QRectF(0, 0, 1024, 1024)));
        QVERIFY(layerOf(s, "trees")->points->points.size() > 1000);
        QVERIFY(layerOf(s, "rocks")->points->points.size() > 100);
        qInfo("endless: %zu chunks in view; placed %llu rocks chunks, %llu trees chunks", s->chunksInView,
              (unsigned long long)placements(w.get(), "rocks"), (unsigned long long)placements(w.get(), "trees"));
        QVERIFY(placements(w.get(), "trees") <= coneBound(chunkSpan(s->covers, 256), 2));
        QVERIFY(placements(w.get(), "rocks") <= coneBound(chunkSpan(s->covers, 256), 4));
        // far from the origin, as far as the chunk range lets the view go
        const QRectF far(-8000000, 3000000, 1024, 768);
        viewOf(w.get())->zoomTo(far);
        QTRY_VERIFY_WITH_TIMEOUT(showsRegion(w.get(), far), patientMs(60000));
        QVERIFY(layerOf(w->preview()->snapshot(), "trees")->points->points.size() > 100);
    }

    // An endless world's layer cards show the layer's points around the origin (the area the map
    // opens on), not an empty dark card: each card lit by its points' colour over much of it.
    void endlessLayerCardsShowTheirPoints()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, readFile(kEndlessPreset));
        w->preview()->setPrefetch(false);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->complete(), patientMs(60000));
        for (const char *id : {"rocks", "trees"}) {
            NodeItem *card = w->scene()->nodeItem(id);
            QTRY_VERIFY_WITH_TIMEOUT(!card->thumbnail().isNull(), patientMs(15000));
            const QImage thumb = card->thumbnail();
            int lit = 0;
            for (int y = 0; y < thumb.height(); ++y)
                for (int x = 0; x < thumb.width(); ++x)
                    lit += qGray(thumb.pixel(x, y)) > 70;  // the card's dark ground is about 29
            QVERIFY2(lit * 10 > thumb.width() * thumb.height(), qPrintable(QString("%1: %2 of %3 pixels lit")
                                                                              .arg(id).arg(lit).arg(thumb.width() * thumb.height())));
        }
    }

    // A new chunk size for an endless world keeps the place in view (it went back to the origin).
    void aNewChunkSizeKeepsTheEndlessView()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, readFile(kEndlessPreset));
        w->preview()->setPrefetch(false);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->regional, patientMs(60000));
        const QRectF far(40000, 20000, 1024, 768);
        viewOf(w.get())->zoomTo(far);
        QTRY_VERIFY_WITH_TIMEOUT(showsRegion(w.get(), far), patientMs(60000));
        auto *field = w->findChild<QLineEdit *>("worldChunk");
        QVERIFY(field);
        field->setText("128");
        emit field->editingFinished();
        QCOMPARE(w->document()->graph().world.chunk, 128.0);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->graph.world.chunk == 128, patientMs(60000));
        const QPointF centre = viewOf(w.get())->visibleWorld().center();
        QVERIFY2(QLineF(centre, far.center()).length() < 64, qPrintable(QString("the view's centre: %1, %2").arg(centre.x()).arg(centre.y())));
        QVERIFY(showsRegion(w.get(), far));
        QVERIFY(layerOf(w->preview()->snapshot(), "trees")->points->points.size() > 100);
    }

    // The chunk field: a bad size stays typed with the core's reason under it and changes nothing;
    // a good one is one undo step; empty means no chunks.
    void chunkFieldUndo()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, kIsland);
        auto *field = w->findChild<QLineEdit *>("worldChunk");
        auto *error = w->findChild<QLabel *>("error:worldChunk");
        QVERIFY(field && error);
        QVERIFY(field->text().isEmpty());
        const std::string saved = bytes(w->document());
        auto type = [&](const QString &text) {
            field->setText(text);
            emit field->editingFinished();
        };
        type("abc");
        QVERIFY(!error->isHidden());
        QVERIFY(error->text().contains("not a number"));
        type("-5");
        QVERIFY(!error->isHidden());
        type("0.01");  // 880 / 0.01 chunks a side
        QVERIFY2(error->text().contains("more than 32768 chunks a side"), qPrintable(error->text()));
        QCOMPARE(field->text(), QString("0.01"));  // still typed
        QCOMPARE(bytes(w->document()), saved);
        QCOMPARE(w->document()->undoStack()->count(), 0);
        type("256");
        QVERIFY(error->isHidden());
        QCOMPARE(w->document()->graph().world.chunk, 256.0);
        QCOMPARE(w->document()->undoStack()->count(), 1);
        QVERIFY(bytes(w->document()).find("  chunk: 256\n") != std::string::npos);
        w->document()->undoStack()->undo();
        QCOMPARE(w->document()->graph().world.chunk, 0.0);
        QVERIFY(field->text().isEmpty());
        QCOMPARE(bytes(w->document()), saved);
        w->document()->undoStack()->redo();
        QCOMPARE(field->text(), QString("256"));
        type("");  // off
        QCOMPARE(w->document()->graph().world.chunk, 0.0);
        QCOMPARE(bytes(w->document()), saved);
    }

    // Endless: one step each way; saved without width and height, loaded back endless; unticked,
    // the world gets back its size.
    void endlessRoundTrips()
    {
        QTemporaryDir dir;
        auto w = openWindowOn(dir, kIsland);
        w->findChild<QDockWidget *>("WorldDock")->raise();  // its tab in front, where the user clicks
        QCoreApplication::processEvents();
        auto *endless = w->findChild<QCheckBox *>("worldEndless");
        auto *width = w->findChild<QLineEdit *>("worldWidth");
        QVERIFY(endless && width);
        QVERIFY(!endless->isChecked());
        QVERIFY(width->isVisibleTo(w.get()));
        endless->click();
        const World &world = w->document()->graph().world;
        QVERIFY(world.endless);
        QCOMPARE(world.chunk, 256.0);  // an endless world needs chunks
        QCOMPARE(w->document()->undoStack()->count(), 1);
        QVERIFY(!width->isVisibleTo(w.get()));
        const QString path = dir.filePath("endless.grove.yaml");
        QVERIFY(!w->document()->save(path).has_value());
        const std::string text = readFile(path.toStdString());
        QVERIFY2(text.find("world:\n  seed: 123456\n  chunk: 256\nnodes:") != std::string::npos, text.c_str());
        Document loaded(registry());
        Diagnostics diagnostics;
        QVERIFY(loaded.load(path, &diagnostics));
        QVERIFY(loaded.graph().world.endless);
        QCOMPARE(loaded.graph().world, w->document()->graph().world);
        QCOMPARE(bytes(&loaded), text);
        endless->click();
        QCOMPARE(w->document()->graph().world.width, 880.0);
        QCOMPARE(w->document()->graph().world.height, 480.0);
        QVERIFY(!w->document()->graph().world.endless);
        QCOMPARE(w->document()->undoStack()->count(), 2);
        QVERIFY(width->isVisibleTo(w.get()));
        w->document()->undoStack()->undo();
        QVERIFY(w->document()->graph().world.endless);
        QVERIFY(endless->isChecked());
        w->document()->undoStack()->undo();
        QVERIFY(!w->document()->graph().world.endless);
        QCOMPARE(w->document()->graph().world.chunk, 0.0);
        QCOMPARE(bytes(w->document()), kIsland);
    }
};

int main(int argc, char **argv)
{
    return runEditorSuite<TestPreviewChunks>(argc, argv);
}

#include "tst_preview_chunks.moc"
