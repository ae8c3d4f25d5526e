// place_path: points along the polylines and polygon outlines of a shapes file (fences along a
// road, reeds along a bank, torches down a corridor), no two closer than the radius in the plane,
// on the occupancy its obstacles chain shares.
#include "ChunkedPlaceLayer.h"
#include "LayerParams.h"
#include "ParamBuilders.h"
#include "ShapesInput.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/graph/PathValue.h"
#include "core/math/ExactAtan.h"
#include "core/math/ExactHypot.h"
#include "core/sampling/ChunkedLayer.h"
#include "core/sampling/OccupancyGrid.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>
#include <vector>

namespace grove {

namespace {

enum class Side { Left, Right, Both };
constexpr ChoiceTable<Side, 3> kSides{{{Side::Left, "left"}, {Side::Right, "right"}, {Side::Both, "both"}}};

constexpr std::uint32_t kSaltPathKey = 0x50415448;  // "PATH"
constexpr std::uint32_t kSaltJitter = 0x4a495454;   // "JITT"
// A point's id: (path key, row, candidate index) in 28 + 1 + 24 bits, below 2^53 so exact in a
// double. The key comes from the path's own vertices, so an edit to one path, or a path added
// before it, leaves every other path's ids (and so their types and turns) as they were.
constexpr int kIndexBits = 24;
constexpr int kKeyBits = 28;
constexpr std::uint64_t kCandidatesPerRow = std::uint64_t(1) << kIndexBits;
constexpr const char *kNoPaths = "no paths: set path to a shapes file (.tmj, .json or .geojson), or draw paths in the preview "
                                 "with the Path tool (L)";

// One path to walk: its vertices without repeats, closed (a polygon's ring) or open.
struct Path
{
    std::vector<Vec2> v;
    bool closed = false;
    std::string label;
    std::string param = "path";  // where a problem with it is located: the file, or paths[i]
    std::vector<double> at;  // arc length at each vertex (and, closed, back at the first)
    std::uint64_t key = 0;
    double length() const { return at.back(); }
    std::size_t segments() const { return at.size() - 1; }
    Vec2 a(std::size_t i) const { return v[i]; }
    Vec2 b(std::size_t i) const { return v[(i + 1) % v.size()]; }
};

// Where a path layer grows: within `reach` of its paths (either side), so its widest clearing is
// a gap along the paths, not the open land around them.
MaskPtr nearPaths(const std::vector<Path> &paths, double reach)
{
    ShapeSet lines;
    for (const Path &p : paths) {
        lines.lines.push_back(p.v);
        if (p.closed)
            lines.lines.back().push_back(p.v.front());
    }
    return std::make_shared<ShapesMask>(std::move(lines), reach);
}

std::uint64_t bitsOf(double d)
{
    return std::bit_cast<std::uint64_t>(d == 0 ? 0.0 : d);  // -0 and 0 are one place
}

std::uint64_t keyOf(const Path &p)
{
    std::uint64_t h = p.closed ? 1 : 2;
    for (const Vec2 &v : p.v)
        h = pointHash(static_cast<std::int32_t>(h), bitsOf(v.x) ^ std::rotl(bitsOf(v.y), 29) ^ (h >> 32), kSaltPathKey);
    return h >> (64 - kKeyBits);
}

// A path from its vertices, repeats dropped ("" or why it is no path); a closed one's last vertex
// may repeat its first.
std::string addPath(const std::vector<Vec2> &vertices, bool closed, std::string label, std::vector<Path> &out)
{
    Path p;
    p.label = std::move(label);
    p.closed = closed;
    if (vertices.size() < 2)
        return p.label + " is a single point; a path needs two or more vertices";
    for (const Vec2 &v : vertices)
        if (p.v.empty() || v.x != p.v.back().x || v.y != p.v.back().y)
            p.v.push_back(v);
    if (closed && p.v.size() > 1 && p.v.back().x == p.v.front().x && p.v.back().y == p.v.front().y)
        p.v.pop_back();
    if (p.v.size() < 2)
        return p.label + " has no length: its " + std::to_string(vertices.size()) + " vertices are all at one place";
    out.push_back(std::move(p));
    return {};
}

// The paths of a shapes file in file order, polylines first, then every ring of every polygon;
// "" or what makes one no path.
std::string pathsOf(const ShapeSet &shapes, std::vector<Path> &out)
{
    if (!shapes.ellipses.empty())
        return shapes.ellipses.front().label + " is an ellipse; place_path walks polylines and polygons (draw it as a polygon)";
    for (std::size_t i = 0; i < shapes.lines.size(); ++i)
        if (std::string problem = addPath(shapes.lines[i], false,
                                          i < shapes.lineLabels.size() ? shapes.lineLabels[i] : "line " + std::to_string(i), out);
            !problem.empty())
            return problem;
    for (const ShapePolygon &polygon : shapes.polygons)
        for (std::size_t r = 0; r < polygon.rings.size(); ++r) {
            Path p;
            p.label = polygon.label + (r > 0 ? " hole " + std::to_string(r) : std::string());
            p.v = polygon.rings[r];  // the loader took out repeats and the closing vertex
            p.closed = true;
            out.push_back(std::move(p));
        }
    if (out.empty())
        return "the file holds no paths (polylines or polygons) to walk";
    return {};
}

// Each path's arc lengths and key (two paths with one key, which is rare, take the next free one
// in order); false at the first path too long to measure (the rest unmeasured).
bool measure(std::vector<Path> &paths, std::size_t &bad)
{
    std::set<std::uint64_t> keys;
    for (bad = 0; bad < paths.size(); ++bad) {
        Path &p = paths[bad];
        const std::size_t n = p.closed ? p.v.size() : p.v.size() - 1;
        p.at.assign(1, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            const Vec2 a = p.v[i], b = p.v[(i + 1) % p.v.size()];
            p.at.push_back(p.at.back() + exactHypot(b.x - a.x, b.y - a.y));
        }
        if (!std::isfinite(p.length()))
            return false;
        for (p.key = keyOf(p); !keys.insert(p.key).second;)
            p.key = (p.key + 1) & ((std::uint64_t(1) << kKeyBits) - 1);
    }
    return true;
}

// A path as a message names it: the file's with the file's name, a drawn one by its index.
std::string named(const EvalContext &ctx, const Path &p)
{
    return p.param == "path" ? ctx.text("path") + ": " + p.label : p.label;
}

bool hasDrawnPaths(const ValueMap &params)
{
    for (const auto &[k, v] : params)
        if (k == "paths")
            return v.isList() && !v.toList().empty();
    return false;
}

// The paths to walk: the file's (when `path` names one), then the drawn ones in list order;
// false when the node failed (located at the file or the drawn path at fault).
bool gatherPaths(EvalContext &ctx, std::vector<Path> &paths)
{
    if (!ctx.text("path").empty()) {
        ShapeSet shapes;
        if (!loadShapesOf(ctx, shapes, "file_scale"))
            return false;
        if (std::string problem = pathsOf(shapes, paths); !problem.empty()) {
            ctx.failAt("path", ctx.text("path") + ": " + problem);
            return false;
        }
    }
    const std::vector<std::optional<DrawnPath>> drawn = readPathList(ctx.param("paths"));
    for (std::size_t i = 0; i < drawn.size(); ++i) {
        const std::string at = "paths[" + std::to_string(i) + "]";
        if (!drawn[i]) {  // the loader refuses it; a graph built in code may not have been loaded
            ctx.failAt(at, "drawn path " + std::to_string(i) + " is no path: {points: [[x, y], ...], closed: false}");
            return false;
        }
        std::vector<Vec2> vertices;
        for (const AreaPoint &v : drawn[i]->points)
            vertices.push_back({v.x, v.y});
        if (std::string problem = addPath(vertices, drawn[i]->closed, "drawn path " + std::to_string(i), paths);
            !problem.empty()) {
            ctx.failAt(at, problem);
            return false;
        }
        paths.back().param = at;
    }
    if (paths.empty()) {
        ctx.failAt("path", kNoPaths);
        return false;
    }
    if (std::size_t bad = 0; !measure(paths, bad)) {
        ctx.failAt(paths[bad].param, named(ctx, paths[bad]) + " is too long to measure");
        return false;
    }
    return true;
}

struct Placed
{
    std::uint64_t id;
    PointXYR p;
    double tangent;  // degrees, clockwise (y down): the segment's direction
};

// The obstacles, with each lazy layer (a chunked world's place_layer left unplaced, or any layer
// of an endless world) asked only for the tiles within `reach` of a path: the only places where
// its points can refuse a candidate. The tiles are squares of a chunk's side, or of `reach` when
// that is longer, so a path meets a few per step of a tile and the work follows its length.
// Null when cancelled, or with `problem` (and the param `where` it is) when a path reaches beyond
// the chunks a world numbers.
PointSetPtr obstaclesNearPaths(const EvalContext &ctx, const PointSetPtr &obstacles, const std::vector<Path> &paths,
                               double reach, std::string &problem, std::string &where)
{
    if (!obstacles || std::none_of(obstacles->layers.begin(), obstacles->layers.end(), [](const PointLayerPtr &l) { return l && l->lazy; }))
        return obstacles;
    const double side = std::max(ctx.world().chunk, reach);
    const auto tileOf = [side](double v) { return static_cast<std::int64_t>(std::floor(v / side)); };
    std::set<std::pair<std::int64_t, std::int64_t>> tiles;
    const double around = reach + side / 2;  // every place within reach of a segment is within this of a sample
    const World &w = ctx.world();
    // an endless world's chunks end kChunkRange chunks out: a sample this far in keeps its tiles there
    const double bound = kChunkRange * w.chunk - around - side;
    const std::int64_t lo = w.endless ? std::numeric_limits<std::int64_t>::min() : tileOf(0);
    const std::int64_t hiX = w.endless ? std::numeric_limits<std::int64_t>::max() : tileOf(w.width);
    const std::int64_t hiY = w.endless ? std::numeric_limits<std::int64_t>::max() : tileOf(w.height);
    for (const Path &p : paths)
        for (std::size_t s = 0; s < p.segments(); ++s) {
            const Vec2 a = p.a(s), b = p.b(s);
            const double steps = std::ceil((p.at[s + 1] - p.at[s]) / side);
            for (double k = 0; k <= steps; ++k) {
                const double t = steps > 0 ? k / steps : 0;
                const double x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t;
                if (w.endless && std::max(std::fabs(x), std::fabs(y)) > bound) {
                    problem = named(ctx, p) + " reaches (" + formatNumber(x) + ", " + formatNumber(y) + "), beyond chunk "
                              + std::to_string(kChunkRange) + " from the origin, where the layers placed before it end: "
                              + "keep x and y within -" + formatNumber(bound) + " to " + formatNumber(bound);
                    where = p.param;
                    return nullptr;
                }
                // a finite world's layers hold nothing outside it
                const std::int64_t i0 = std::max(tileOf(x - around), lo), i1 = std::min(tileOf(x + around), hiX);
                const std::int64_t j0 = std::max(tileOf(y - around), lo), j1 = std::min(tileOf(y + around), hiY);
                for (std::int64_t j = j0; j <= j1; ++j)
                    for (std::int64_t i = i0; i <= i1; ++i)
                        tiles.insert({j, i});
            }
        }
    auto near = std::make_shared<PointSet>();
    for (const PointLayerPtr &layer : obstacles->layers) {
        if (!layer || !layer->lazy) {
            near->layers.push_back(layer);
            continue;
        }
        // every chunk the tiles need, placed at once on the layer's threads; then each tile is
        // read from them on this one
        std::vector<Region> regions;
        regions.reserve(tiles.size());
        for (const auto &[j, i] : tiles)
            regions.push_back({static_cast<double>(i) * side, static_cast<double>(j) * side,
                               static_cast<double>(i + 1) * side, static_cast<double>(j + 1) * side});
        if (layer->chunked) {
            std::vector<ChunkCoord> chunks;
            for (const Region &tile : regions)
                layer->chunked->chunksIn(tile, chunks);
            std::sort(chunks.begin(), chunks.end(), [](const ChunkCoord &a, const ChunkCoord &b) { return std::tie(a.j, a.i) < std::tie(b.j, b.i); });
            chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
            if (layer->chunked->prepare(chunks, ctx.limits().threads, ctx.cancelFlag()) != ChunkStatus::Done)
                return nullptr;
        }
        auto part = std::make_shared<PointLayer>();
        part->info = layer->info;
        for (const Region &tile : regions) {
            const auto inTile = layerInRegion(*layer, tile, 1, ctx.cancelFlag());
            if (!inTile)
                return nullptr;
            part->points.insert(part->points.end(), inTile->points.begin(), inTile->points.end());
        }
        near->layers.push_back(std::move(part));
    }
    return near;
}

} // namespace

void registerPlacePath(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "place_path";
    d.displayName = "Place Path";
    d.category = "Points";
    d.description =
        "Points along the polylines and polygon outlines (every ring) of a Tiled map or GeoJSON file, as the shapes node "
        "reads them, and along the paths drawn in the preview (`paths`): fences along a road, reeds along a bank, torches down a corridor. Each path is walked from its "
        "start: the next candidate lies radius x (1 + jitter x u) further along it (u uniform in [0, 1)), `offset` to "
        "the chosen side of the segment it falls on, and is kept when no point placed before (obstacles, other paths, "
        "this path where it turns or passes near itself) is closer than the radius in the plane. Each point turns with "
        "its segment (clockwise degrees, y down) plus `angle` and the rotation range. A path's points depend only on it, "
        "its seed and what lies within the radius of them. In a chunked world the layer is placed whole, so any chunk "
        "holds the same points; the chunked layers before it are placed only near its paths, so it also works in an "
        "endless world, and the chunked layers after it keep clear of it in every chunk.";
    d.spacing = Spacing::Plane;
    d.takesLazyLayers = true;
    d.wrapProblem = "place_path measures its spacing in the plane only: points near an edge would crowd their copies "
                    "across it";
    d.inputs = {
        port("obstacles", DataType::Points).optional().describe("points already placed: this layer keeps clear of them"),
        port("allowed", DataType::Mask).optional().role(PortRole::AllowedArea)
            .describe("where points may go: a candidate outside is dropped"),
    };
    d.outputs = {
        port("points", DataType::Points).role(PortRole::LayerPoints).describe("this layer's points"),
        port("all", DataType::Points).role(PortRole::LayerChain)
            .describe("the obstacles followed by this layer: wire it into the next layer"),
    };
    d.params = shapesFileParams();
    d.params.push_back(pathList("paths").role(ParamRole::DrawnPaths).describe(
        "paths drawn in the preview with the Path tool, in world units, walked after the file's (which is then optional): "
        "each {points: [[x, y], [x, y], ...], closed: false}"));
    for (ParamSpec &p : std::vector<ParamSpec>{
             number("radius").defaultValue(10).above(0).max(1e7).soft(1, 100)
                 .describe("minimum distance between two points, in the plane (world units)"),
             number("jitter").defaultValue(0).min(0).max(1).soft(0, 1)
                 .describe("random extra spacing along the path: each step is radius x (1 + jitter x u)"),
             number("offset").defaultValue(0).min(0).max(1e7).soft(0, 50)
                 .describe("distance from the path to the side the points stand on (world units)"),
             choice("side", kSides, Side::Left)
                 .describe("which side of the direction of travel (y down, as Tiled draws): left, right, or both (two rows)"),
             number("angle").defaultValue(0).min(-36000).max(36000).soft(-180, 180)
                 .describe("added to each point's turn along its segment (degrees, clockwise): 90 faces the right side, -90 the left"),
             number("start_margin").defaultValue(0).min(0).max(1e9).soft(0, 100)
                 .describe("arc length kept empty at the start of an open path (polygons: unused)"),
             number("end_margin").defaultValue(0).min(0).max(1e9).soft(0, 100)
                 .describe("arc length kept empty at the end of an open path (polygons: unused)"),
             seed(),
         })
        d.params.push_back(std::move(p));
    for (ParamSpec &p : shapesTransformParams("file_scale"))
        d.params.push_back(std::move(p));
    appendLayerParams(d, SpriteShape::Dot, "#c08a3e");
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        // the file is optional beside drawn paths; with neither, the node says what to do
        const auto path = std::find_if(params.begin(), params.end(), [](const auto &kv) { return kv.first == "path"; });
        if (path == params.end() || !path->second.isString() || !path->second.toString().empty())
            checkShapesFile(params, issues);
        else if (!hasDrawnPaths(params))
            issues.emplace_back("path", kNoPaths);
        checkLayerParams(params, issues);
    };
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        const double r = ctx.number("radius"), jitter = ctx.number("jitter"), offset = ctx.number("offset");
        std::vector<Path> paths;
        if (!gatherPaths(ctx, paths))
            return;
        const Side side = ctx.choice("side", kSides);
        std::vector<int> rows;  // 0 left, 1 right
        if (side != Side::Right)
            rows.push_back(0);
        if (side != Side::Left)
            rows.push_back(1);
        // Refuse before allocating: candidates lie at least r apart along a path.
        double estimate = 0;
        for (const Path &p : paths) {
            const double perRow = std::floor(p.length() / r) + 1;
            if (perRow > static_cast<double>(kCandidatesPerRow)) {
                ctx.failAt("radius", named(ctx, p) + " of length " + formatNumber(p.length())
                                         + " at radius " + formatNumber(r) + " would take more than "
                                         + std::to_string(kCandidatesPerRow) + " points a row; raise the radius or split the path");
                return;
            }
            estimate += perRow * static_cast<double>(rows.size());
        }
        if (!withinPointBudget(ctx, estimate, "at radius " + formatNumber(r) + " along its paths, this layer"))
            return;

        // where candidates can lie: the paths' box grown by the offset (and clipped to a finite world)
        Region box{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
        for (const Path &p : paths)
            for (const Vec2 &v : p.v)
                box = {std::min(box.x0, v.x), std::min(box.y0, v.y), std::max(box.x1, v.x), std::max(box.y1, v.y)};
        box = {box.x0 - offset - r, box.y0 - offset - r, box.x1 + offset + r, box.y1 + offset + r};
        if (!w.endless)
            box = {std::max(box.x0, -r), std::max(box.y0, -r), std::min(box.x1, w.width + r), std::min(box.y1, w.height + r)};
        // the grid's cells never outnumber the points it may hold by much (any cell size gives the same answers)
        const double cellCap = 4 * estimate + 1e6;
        const double bw = std::max(box.x1 - box.x0, r), bh = std::max(box.y1 - box.y0, r);
        const double cell = std::max(r / std::sqrt(2.0), std::sqrt(bw * bh / cellCap) * 1.01);
        OccupancyGrid grid(bw, bh, cell, box.x0, box.y0);
        // points that keep their own radius (hand-placed houses) on a grid apart: a query at the
        // largest of them tests each at its own, as place_layer and scatter_around do
        std::vector<PointXYR> near, kept;
        double keptRadius = 0;
        const PointSetPtr obstacles = ctx.points("obstacles");
        std::string beyond, where;
        const PointSetPtr nearby = obstaclesNearPaths(ctx, obstacles, paths, offset + 2 * r, beyond, where);
        if (!beyond.empty()) {
            ctx.failAt(where, beyond);
            return;
        }
        if (obstacles && !nearby)
            return;  // cancelled
        if (nearby)
            for (const auto &layer : nearby->layers)
                for (const PointXYR &p : layer->points) {
                    if (!std::isfinite(p.x) || !std::isfinite(p.y))
                        continue;
                    if (layer->info.keepsRadius && p.r > 0) {
                        kept.push_back(p);
                        keptRadius = std::max(keptRadius, p.r);
                    } else if (p.x >= box.x0 - r && p.x < box.x1 + r && p.y >= box.y0 - r && p.y < box.y1 + r) {
                        near.push_back(p);  // no point farther than r from every candidate can refuse one
                    }
                }
        if (near.size() + kept.size() + static_cast<std::size_t>(estimate) >= OccupancyGrid::kMaxPoints) {
            ctx.fail("the obstacles near the paths and this layer would hold more points than one occupancy can");
            return;
        }
        grid.addAll(near);
        near = {};
        std::unique_ptr<OccupancyGrid> keepOut;
        if (!kept.empty()) {
            keepOut = std::make_unique<OccupancyGrid>(bw, bh, std::max({keptRadius, cell, std::sqrt(bw * bh / 1e6)}), box.x0, box.y0);
            keepOut->addAll(kept);
        }
        const MaskPtr allowed = ctx.mask("allowed");
        const std::int32_t seed = ctx.seed();
        const double startMargin = ctx.number("start_margin"), endMargin = ctx.number("end_margin");
        const std::atomic<bool> *cancel = ctx.cancelFlag();
        PlacementTally tally{true, r};
        std::vector<Placed> placed;
        for (std::size_t pi = 0; pi < paths.size(); ++pi) {
            const Path &path = paths[pi];
            const double L = path.length();
            for (const int row : rows) {
                const double sign = row == 0 ? 1.0 : -1.0;  // left of travel, y down: (dy, -dx)
                double s = path.closed ? 0.0 : startMargin;
                const double end = path.closed ? L : L - endMargin;
                std::size_t seg = 0;
                // k stays below kCandidatesPerRow (checked above, and here against rounding in s)
                for (std::uint64_t k = 0; (path.closed ? s < end : s <= end) && k < kCandidatesPerRow; ++k) {
                    if ((k & 4095) == 0 && cancel && cancel->load(std::memory_order_relaxed))
                        return;
                    const std::uint64_t id = (path.key << (kIndexBits + 1)) | (std::uint64_t(row) << kIndexBits) | k;
                    while (seg + 1 < path.segments() && s >= path.at[seg + 1])
                        ++seg;
                    // zero-length segments never hold s: the loader and pathsOf took repeats out
                    const Vec2 a = path.a(seg), b = path.b(seg);
                    const double len = path.at[seg + 1] - path.at[seg];
                    const double t = std::clamp((s - path.at[seg]) / len, 0.0, 1.0);
                    const double dx = b.x - a.x, dy = b.y - a.y;
                    const double nx = sign * dy / len, ny = -sign * dx / len;
                    const double x = a.x + dx * t + nx * offset, y = a.y + dy * t + ny * offset;
                    s += r * (1 + jitter * pointHash01(seed, id, kSaltJitter));
                    ++tally.candidates;
                    if (!std::isfinite(x) || !std::isfinite(y)
                        || (!w.endless && !(x >= 0 && x < w.width && y >= 0 && y < w.height))) {
                        ++tally.offMap;
                        continue;
                    }
                    if (!grid.isFree(x, y, r) || (keepOut && !keepOut->isFree(x, y, keptRadius))) {
                        ++tally.tooClose;
                        continue;
                    }
                    if (allowed && !allowed->at(x, y)) {
                        ++tally.notAllowed;
                        continue;
                    }
                    grid.add(x, y, r);
                    placed.push_back({id, {x, y, r}, atan2Degrees(dy, dx)});
                }
            }
        }
        // export order is id order: a region of the layer then lists its points (and specials) sorted
        std::sort(placed.begin(), placed.end(), [](const Placed &a, const Placed &b) { return a.id < b.id; });
        auto layer = makeLayer(ctx, {});
        layer->points.reserve(placed.size());
        layer->ids.reserve(placed.size());
        for (const Placed &p : placed) {
            layer->points.push_back(p.p);
            layer->ids.push_back(p.id);
        }
        layer->assignSpecials();
        // each point's turn: its segment's, the angle, and the layer's rotation range as ever
        const double angle = ctx.number("angle");
        std::vector<PinnedAttributes> turns;
        turns.reserve(placed.size());
        for (const Placed &p : placed)
            turns.push_back({p.id, -1, p.tangent + angle + layer->attributes(p.id).rotation, std::nan("")});
        layer->info.pinned = std::move(turns);
        layer->tally = tally;
        layer->grownIn = nearPaths(paths, offset + r);
        setChainOutputs(ctx, layer, obstacles);
    };
    registry.add(std::move(d));
}

} // namespace grove
