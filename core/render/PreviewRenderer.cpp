// Preview rendering: ground colours with hill shading, then sprites made of blended circles.
#include "core/render/PreviewRenderer.h"

#include "core/eval/Evaluator.h"
#include "core/graph/LayerRefinement.h"
#include "core/graph/NodeRegistry.h"
#include "core/formats/PngWriter.h"
#include "core/formats/PointsExport.h"
#include "core/fields/Raster.h"
#include "core/base/ParallelFor.h"

#include <algorithm>
#include <bit>
#include <atomic>
#include <cmath>
#include <set>

namespace grove {

namespace {

const Rgb kNeutralGround{200, 194, 176};
const Rgb kUnknownLabel{128, 128, 128};
const Rgb kBlack{0, 0, 0};
const Rgb kWhite{255, 255, 255};
const Rgb kGold{255, 204, 80};
const Rgb kBlossom{255, 226, 120};

// Opacities out of 256 (256 covers): seed 000's 0.2, 0.25, 0.35, 0.4, 0.5 and 0.8.
constexpr int kCover = 256, kGlow = 51, kSoft = 64, kShadow = 90, kDarkShadow = 102, kHalf = 128, kShine = 205;

// Hill shading compares with the ground this many world units up and to the left.
constexpr double kShadeOffset = 3;
// A body never shrinks below this many pixels, so every point stays visible on a small preview.
constexpr double kMinBodyPixels = 0.75;

bool cancelled(const RenderOptions &options)
{
    return options.cancel && options.cancel->load(std::memory_order_relaxed);
}

// seed 000's stampCircle in 1/256-pixel fixed point: a pixel is inside when its centre is
// within the radius, and it moves towards the colour by alpha / 256 (floored, as the seed does).
class Canvas
{
public:
    explicit Canvas(Image &image) : m_image(image) {}

    void stamp(double cx, double cy, double radius, const Rgb &color, int alpha)
    {
        if (!(radius > 0) || !std::isfinite(cx) || !std::isfinite(cy) || !std::isfinite(radius))
            return;
        const double limit = 4.0 * (m_image.width + m_image.height) + 4 * radius;
        if (std::abs(cx) > limit || std::abs(cy) > limit)
            return;
        const std::int64_t x0 = std::llround(cx * 256), y0 = std::llround(cy * 256), r = std::llround(radius * 256);
        if (r <= 0)
            return;
        const std::int64_t rr = r * r;
        const std::int64_t yMin = std::max<std::int64_t>(0, floorDiv(y0 - r, 256));
        const std::int64_t yMax = std::min<std::int64_t>(m_image.height - 1, floorDiv(y0 + r, 256));
        const std::int64_t xMin = std::max<std::int64_t>(0, floorDiv(x0 - r, 256));
        const std::int64_t xMax = std::min<std::int64_t>(m_image.width - 1, floorDiv(x0 + r, 256));
        for (std::int64_t y = yMin; y <= yMax; ++y) {
            const std::int64_t dy = y * 256 + 128 - y0;
            std::uint8_t *row = m_image.rgb.data() + static_cast<size_t>(y) * static_cast<size_t>(m_image.width) * 3;
            for (std::int64_t x = xMin; x <= xMax; ++x) {
                const std::int64_t dx = x * 256 + 128 - x0;
                if (dx * dx + dy * dy > rr)
                    continue;
                std::uint8_t *p = row + x * 3;
                for (int c = 0; c < 3; ++c)
                    p[c] = static_cast<std::uint8_t>(p[c] + (((color[c] - p[c]) * alpha) >> 8));
            }
        }
    }

private:
    static std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

    Image &m_image;
};

Rgb scaled(const Rgb &c, int light256)
{
    Rgb out;
    for (int i = 0; i < 3; ++i)
        out[i] = static_cast<std::uint8_t>(std::min(255, (c[i] * light256) >> 8));
    return out;
}

// Types after the first are told apart by shade: odd ones darker, even ones lighter.
Rgb typeTint(const Rgb &c, int type)
{
    if (type <= 0)
        return c;
    return type % 2 == 1 ? scaled(c, 205) : scaled(c, 294);
}

// The ground and the key of the node that made it; an empty key and null without one.
std::pair<std::string, GroundPtr> findGround(const Graph &graph, const EvalResult &result)
{
    for (int i : topologicalOrder(graph)) {
        auto it = result.nodes.find(graph.nodes[static_cast<size_t>(i)].id);
        if (it == result.nodes.end())
            continue;
        if (const auto *g = std::get_if<GroundPtr>(&it->second->product); g && *g && (*g)->labels)
            return {it->second->key, *g};
    }
    return {};
}

// Runs work(row) for rows [0, h) on `threads` threads, rows handed out a few at a time; false
// when cancelled. Each row is computed the same way on any thread, so bytes never depend on it.
template <typename Work>
bool forRows(int h, int threads, const RenderOptions &options, Work work)
{
    threads = std::clamp(threads, 1, std::max(1, h / 8));
    return parallelFor(static_cast<std::size_t>(std::max(h, 0)), threads, 4, [&](std::size_t begin, std::size_t end, int) {
        if (cancelled(options))
            return false;
        for (std::size_t row = begin; row < end; ++row)
            work(static_cast<int>(row));
        return true;
    });
}

// True when the shade `kShadeOffset` up and to the left of pixel (px, py) is, bit for bit, the
// shade at pixel (px - k, py - k), for every pixel with px, py >= k: then it need not be sampled again.
bool shadeOffsetIsWholePixels(int w, int h, double x0, double y0, double sx, double sy, int k)
{
    const auto same = [](double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); };
    for (int px = k; px < w; ++px)
        if (!same((x0 - kShadeOffset) + px * sx, x0 + (px - k) * sx))
            return false;
    for (int py = k; py < h; ++py)
        if (!same((y0 + (py + 0.5) * sy) - kShadeOffset, y0 + (py - k + 0.5) * sy))
            return false;
    return true;
}

// The ground: label colours lit by the slope of the shade field. Rows in two passes: labels and
// shade at each pixel, then the light (the shade up-left is, where it falls on whole pixels, a
// value the first pass already has).
void paintGround(Image &image, const Region &region, const Ground *ground, const RenderOptions &options, bool &stopped)
{
    const int w = image.width, h = image.height;
    const auto pixel = [&](int px, int py) { return image.rgb.data() + (static_cast<size_t>(py) * w + px) * 3; };
    if (!ground) {
        for (int py = 0; py < h; ++py)
            for (int px = 0; px < w; ++px)
                std::copy(kNeutralGround.begin(), kNeutralGround.end(), pixel(px, py));
        return;
    }
    // With the region at the origin (the whole world) these are the values the preview always
    // sampled: adding 0 changes no double.
    const double sx = (region.x1 - region.x0) / w, sy = (region.y1 - region.y0) / h;
    const double x0 = region.x0 + 0.5 * sx, y0 = region.y0;
    const bool shaded = ground->shade && ground->shading != 0;
    const int threads = options.threads > 0 ? options.threads : defaultRasterThreads();
    const size_t cells = static_cast<size_t>(w) * static_cast<size_t>(h);
    GroundScratch own;
    GroundScratch &scratch = options.groundScratch ? *options.groundScratch : own;
    scratch.labels.resize(cells);  // every row is sampled before it is read
    scratch.shade.resize(shaded ? cells : 0);
    std::vector<int> &labels = scratch.labels;
    std::vector<double> &here = scratch.shade;
    // x is accumulated as Field::sampleRow does, so the row paths give at()'s values.
    stopped = !forRows(h, threads, options, [&](int py) {
        const double wy = y0 + (py + 0.5) * sy;
        const size_t row = static_cast<size_t>(py) * w;
        if (shaded)  // first, so labels cut from the same field find the row in the memo
            ground->shade->sampleRowShared(x0, sx, wy, w, here.data() + row);
        ground->labels->sampleRow(x0, sx, wy, w, labels.data() + row);
    });
    if (stopped)
        return;
    const int k = static_cast<int>(kShadeOffset);
    const bool reuse = shaded && k == kShadeOffset && shadeOffsetIsWholePixels(w, h, x0, y0, sx, sy, k);
    const int labelCount = static_cast<int>(ground->palette.size());
    stopped = !forRows(h, threads, options, [&](int py) {
        thread_local std::vector<double> upLeft;
        const size_t row = static_cast<size_t>(py) * w;
        if (shaded) {
            upLeft.resize(static_cast<size_t>(w));
            const double wy = y0 + (py + 0.5) * sy;
            if (!reuse || py < k) {
                ground->shade->sampleRow(x0 - kShadeOffset, sx, wy - kShadeOffset, w, upLeft.data());
            } else {
                ground->shade->sampleRow(x0 - kShadeOffset, sx, wy - kShadeOffset, std::min(k, w), upLeft.data());
                for (int px = k; px < w; ++px)
                    upLeft[static_cast<size_t>(px)] = here[row - static_cast<size_t>(k) * w + px - k];
            }
        }
        for (int px = 0; px < w; ++px) {
            const int label = labels[row + px];
            const bool known = label >= 0 && label < labelCount;
            const Rgb &base = known ? ground->palette[static_cast<size_t>(label)] : kUnknownLabel;
            int light = 256;
            if (shaded && known && !ground->flat[static_cast<size_t>(label)]) {
                const double slope = here[row + px] - upLeft[static_cast<size_t>(px)];
                const double l = (1 + slope * 10 * ground->shading) * 256;
                light = std::isfinite(l) ? static_cast<int>(std::llround(std::clamp(l, 0.0, 1024.0))) : 256;
            }
            const Rgb c = scaled(base, light);
            std::copy(c.begin(), c.end(), pixel(px, py));
        }
    });
}

// A sprite's body radius in world units before the scale attribute: a share of the spacing,
// capped near seed 000's sizes so big spacings (chests 140 apart) still give small objects.
double bodyRadius(SpriteShape sprite, double r)
{
    switch (sprite) {
    case SpriteShape::Tree: return std::min(r * 0.45, 9.0);
    case SpriteShape::Rock: return std::min(r * 0.4, 5.5);
    case SpriteShape::Chest: return std::min(r * 0.4, 6.5);
    case SpriteShape::Flower: return std::min(r * 0.3, 2.0);
    case SpriteShape::Dot: break;
    }
    return std::min(r * 0.3, 8.0);  // dot: big enough to read the spacing in sampler comparisons
}

// Point i of a layer as its sprite; light scales its colour (256: as it is; a volume's deeper
// points get less).
void drawPoint(Canvas &canvas, const PointLayer &layer, size_t i, const Ground *ground, const Region &region, double kx,
               double ky, int light)
{
    const LayerInfo &info = layer.info;
    const SpriteShape sprite = info.sprite;
    const double k = (kx + ky) / 2;
    {
        const PointXYR &p = layer.points[i];
        const PointAttributes a = layer.attributes(layer.idOf(i));
        double body = bodyRadius(sprite, p.r) * a.scale;
        // Wetter ground grows bigger trees: 0.5x on dry ground up to 1.5x on the wettest (moisture in [0, 1]).
        if (sprite == SpriteShape::Tree && ground && ground->moisture) {
            const double m = ground->moisture->at(p.x, p.y);
            body *= 0.5 + (std::isfinite(m) ? std::clamp(m, 0.0, 1.0) : 0.5);
        }
        const double b = std::max(body * k, kMinBodyPixels);
        const double x = (p.x - region.x0) * kx, y = (p.y - region.y0) * ky;
        const Rgb color = light == 256 ? typeTint(info.color, a.type) : scaled(typeTint(info.color, a.type), light);
        const bool special = !layer.specialIds.empty()
                             && std::binary_search(layer.specialIds.begin(), layer.specialIds.end(), layer.idOf(i));
        switch (sprite) {
        case SpriteShape::Tree:
            canvas.stamp(x + 0.45 * b, y + 0.55 * b, b, kBlack, kShadow);
            canvas.stamp(x, y, b, color, kCover);
            canvas.stamp(x - 0.35 * b, y - 0.35 * b, 0.45 * b, kWhite, kSoft);
            break;
        case SpriteShape::Rock:
            canvas.stamp(x + 0.4 * b, y + 0.4 * b, b, kBlack, kShadow);
            canvas.stamp(x, y, b, color, kCover);
            canvas.stamp(x - 0.3 * b, y - 0.3 * b, 0.4 * b, kWhite, kHalf);
            break;
        case SpriteShape::Chest:
            canvas.stamp(x, y, 2.15 * b, kGold, kGlow);  // a soft glow, so loot catches the eye
            canvas.stamp(x + 0.3 * b, y + 0.3 * b, b, kBlack, kDarkShadow);
            canvas.stamp(x, y, b, color, kCover);
            canvas.stamp(x, y, 0.62 * b, kGold, kCover);
            canvas.stamp(x - 0.23 * b, y - 0.23 * b, 0.23 * b, kWhite, kShine);
            break;
        case SpriteShape::Flower:
            canvas.stamp(x, y, b, i % 3 == 0 ? kBlossom : color, kCover);  // every third one a blossom
            break;
        case SpriteShape::Dot:
            canvas.stamp(x + 0.3 * b, y + 0.3 * b, b, kBlack, kSoft + 13);
            canvas.stamp(x, y, b, color, kCover);
            canvas.stamp(x - 0.3 * b, y - 0.3 * b, 0.35 * b, kWhite, kShadow);
            break;
        }
        if (special && sprite != SpriteShape::Chest) {
            // Reserved points (collectibles) show a ringed gold mark, unlike any flower.
            canvas.stamp(x, y, std::max(0.5 * b, 1.0), kBlack, kShadow);
            canvas.stamp(x, y, std::max(0.35 * b, 0.75), kGold, kCover);
        }
    }
}

void drawLayer(Canvas &canvas, const PointLayer &layer, const Ground *ground, const Region &region, double kx, double ky)
{
    for (size_t i = 0; i < layer.points.size(); ++i)
        drawPoint(canvas, layer, i, ground, region, kx, ky, 256);
}

// The volume layers' points together, deepest first so the nearest end on top, each darker the
// deeper it is (light from 1 at depth 0 down to 0.35 at world.depth); only those in the slab.
void drawVolumes(Canvas &canvas, const std::vector<const PointLayer *> &volumes, double depth, const RenderOptions &options,
                 const Ground *ground, const Region &region, double kx, double ky)
{
    struct Item
    {
        double z;
        size_t layer, i;
    };
    std::vector<Item> items;
    for (size_t l = 0; l < volumes.size(); ++l)
        for (size_t i = 0; i < volumes[l]->points.size() && i < volumes[l]->z.size(); ++i) {
            const double z = volumes[l]->z[i];
            if (z >= options.sliceMin && z < options.sliceMax)
                items.push_back({z, l, i});
        }
    std::stable_sort(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.z > b.z; });
    for (const Item &it : items) {
        const double t = depth > 0 ? std::clamp(it.z / depth, 0.0, 1.0) : 0.0;
        drawPoint(canvas, *volumes[it.layer], it.i, ground, region, kx, ky, static_cast<int>(std::lround(256 * (1 - 0.65 * t))));
    }
}

// Exported layers in graph order, each once (an `all` output repeats upstream layers), a refined
// layer in its source's place (core/graph/LayerRefinement.h).
std::vector<PointLayerPtr> exportedLayersOf(const Graph &graph, const EvalResult &result,
                                             const std::set<std::string> &hidden)
{
    const LayerRefinements refinements(graph, [&result](const Node &n) -> const NodeDescriptor * {
        auto it = result.nodes.find(n.id);
        return it == result.nodes.end() ? nullptr : it->second->descriptor;
    });
    std::vector<std::string> ids;
    for (int i : topologicalOrder(graph))
        if (const std::string &id = graph.nodes[static_cast<size_t>(i)].id; !refinements.isRefiner(id))
            ids.push_back(refinements.exportedFrom(id));
    std::vector<PointLayerPtr> layers;
    std::set<const PointLayer *> seen;
    for (const auto &l : layersOf(result, ids))
        if (l && l->info.exported && !l->points.empty() && !hidden.count(l->info.nodeId) && seen.insert(l.get()).second)
            layers.push_back(l);
    return layers;
}

// The world rectangle the image covers.
Region regionOf(const World &world, const RenderOptions &options)
{
    return options.region.empty() ? Region{0, 0, world.width, world.height} : options.region;
}

} // namespace

std::vector<PointLayerPtr> previewLayers(const Graph &graph, const EvalResult &result, const std::set<std::string> &hidden)
{
    return exportedLayersOf(graph, result, hidden);
}

Image renderGround(const Graph &graph, const EvalResult &result, int width, int height, const RenderOptions &options)
{
    const Region region = regionOf(graph.world, options);
    if (width <= 0 || height <= 0 || region.empty() || !std::isfinite(region.x1 - region.x0)
        || !std::isfinite(region.y1 - region.y0) || static_cast<double>(width) * height > 1.0e9)
        return {};
    Image image;
    image.width = width;
    image.height = height;
    image.rgb.assign(static_cast<size_t>(width) * static_cast<size_t>(height) * 3, 0);
    const GroundPtr ground = findGround(graph, result).second;
    bool stopped = false;
    paintGround(image, region, ground.get(), options, stopped);
    return stopped ? Image{} : image;
}

bool drawLayers(Image &image, const Graph &graph, const EvalResult &result, const RenderOptions &options)
{
    const Region region = regionOf(graph.world, options);
    if (image.empty() || region.empty())
        return false;
    const GroundPtr ground = findGround(graph, result).second;
    // Biggest things first, so small ones drawn later stay visible; graph order on ties.
    std::vector<PointLayerPtr> layers;
    if (options.layers) {
        for (const PointLayerPtr &l : *options.layers)
            if (l && l->info.exported && !l->points.empty() && !options.hiddenLayers.count(l->info.nodeId))
                layers.push_back(l);
    } else {
        layers = exportedLayersOf(graph, result, options.hiddenLayers);
    }
    std::vector<std::pair<double, size_t>> order;
    for (size_t i = 0; i < layers.size(); ++i) {
        double sum = 0;
        for (const auto &p : layers[i]->points)
            sum += p.r;
        order.emplace_back(sum / static_cast<double>(layers[i]->points.size()), i);
    }
    std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) { return a.first > b.first; });

    Canvas canvas(image);
    const double kx = image.width / (region.x1 - region.x0), ky = image.height / (region.y1 - region.y0);
    std::vector<const PointLayer *> volumes;
    for (const auto &[meanRadius, i] : order) {
        if (cancelled(options))
            return false;
        if (layers[i]->info.volume)
            volumes.push_back(layers[i].get());
        else
            drawLayer(canvas, *layers[i], ground.get(), region, kx, ky);
    }
    if (!volumes.empty())
        drawVolumes(canvas, volumes, graph.world.depth, options, ground.get(), region, kx, ky);
    return true;
}

std::string groundKey(const Graph &graph, const EvalResult &result)
{
    return findGround(graph, result).first;
}

Image renderPreview(const Graph &graph, const EvalResult &result, int width, int height, const RenderOptions &options)
{
    Image image = renderGround(graph, result, width, height, options);
    if (image.empty() || !options.sprites)
        return image;
    return drawLayers(image, graph, result, options) ? image : Image{};
}

std::pair<int, int> previewSize(const World &world, int maxSide)
{
    const double w = world.width > 0 ? world.width : 1, h = world.height > 0 ? world.height : 1;
    const double side = std::max(1, maxSide);
    const double scale = std::min(1.0, side / std::max(w, h));
    auto pixels = [&](double v) { return static_cast<int>(std::clamp(std::round(v * scale), 1.0, side)); };
    return {pixels(w), pixels(h)};
}

std::optional<std::string> writePreviewPng(const Graph &graph, const EvalResult &result, const std::string &path,
                                           int maxSide)
{
    if (maxSide <= 0)
        return "the preview size must be at least 1 pixel, not " + std::to_string(maxSide);
    if (!result.ok())
        return std::string("nothing to paint: the graph did not evaluate");
    const auto [w, h] = previewSize(graph.world, maxSide);
    const Image image = renderPreview(graph, result, w, h);
    if (image.empty())
        return "cannot render a " + std::to_string(w) + " x " + std::to_string(h) + " preview";
    return writePng(image, path);
}

std::vector<std::string> previewTargets(const Graph &graph, const NodeRegistry &registry)
{
    const std::vector<std::string> exported = exportedLayers(graph, registry);
    const std::set<std::string> wanted(exported.begin(), exported.end());
    std::vector<std::string> ids;
    for (int i : topologicalOrder(graph)) {
        const Node &node = graph.nodes[static_cast<size_t>(i)];
        const NodeDescriptor *desc = registry.find(node.type);
        if (wanted.count(node.id) || (desc && desc->outputs.empty()))
            ids.push_back(node.id);
    }
    return ids;
}

} // namespace grove
