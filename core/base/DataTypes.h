// What flows on wires: fields, labels, masks and point layers, each an immutable shared value.
#pragma once

#include "core/base/Choices.h"

#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace grove {

enum class DataType { Field, Labels, Mask, Points };

const char *dataTypeName(DataType type);

using Rgb = std::array<std::uint8_t, 3>;

// "#rrggbb" -> Rgb; anything else gives black (params are validated before this is called).
Rgb parseHexColor(const std::string &text);

// A rectangle of the world: x0 <= x < x1, y0 <= y < y1.
struct Region
{
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool contains(double x, double y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
    bool empty() const { return !(x1 > x0 && y1 > y0); }
    bool operator==(const Region &) const = default;
};

// What a field can take over a whole rectangle: lo <= at(x, y) <= hi for every (x, y) with
// x0 <= x <= x1 and y0 <= y <= y1 (edges included). Unknown is (-inf, +inf). Placement asks it
// of the fields behind an allowed area to skip the spots a rectangle decides (Mask::over), so a
// range must hold for the values at() computes, rounding included: implementations widen theirs.
struct FieldRange
{
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    bool known() const { return lo > -std::numeric_limits<double>::infinity() || hi < std::numeric_limits<double>::infinity(); }
    // wider by a margin far beyond the rounding of any field's arithmetic (values near 1: ulps of 1e-16)
    FieldRange widened() const { return {lo - 1e-9 * (1 + std::fabs(lo)), hi + 1e-9 * (1 + std::fabs(hi))}; }
};

// A scalar function over world coordinates. Evaluated at single points during placement and
// a row at a time for rasters, so implementations can batch the hot loop.
class Field
{
public:
    Field();
    virtual ~Field() = default;
    virtual double at(double x, double y) const = 0;
    // The field in a volume (place_volume): z is the depth coordinate. The default is at(x, y), a
    // 2D field extruded along z; value_noise and simplex_noise are truly 3D, and the nodes that
    // combine fields (allowed_rule, density) forward z to their inputs.
    virtual double at3(double x, double y, double z) const
    {
        (void)z;
        return at(x, y);
    }
    // out[i] = at(x0 + i * dx, y) for i in [0, n); x is accumulated exactly as the default does.
    virtual void sampleRow(double x0, double dx, double y, int n, double *out) const;
    // sampleRow through a one-row memo per thread: the preview asks the same row of one field
    // twice (its hill shading, then the labels cut from it), and the second ask is a copy.
    void sampleRowShared(double x0, double dx, double y, int n, double *out) const;
    // The largest value the field can take, when it is known (density: max_radius); +inf when not.
    // Placement uses it to bound how far a candidate's conflicts can be.
    virtual double upperBound() const;
    // Bounds of at() over `area` (see FieldRange); the default knows nothing.
    virtual FieldRange rangeIn(const Region &area) const;

protected:
    // Tells fields apart in per-thread memos (an address can be reused by a later field).
    std::uint64_t serial() const { return m_serial; }

private:
    std::uint64_t m_serial;
};

// A categorical function: a label index at (x, y) plus the labels' names and colors.
class Labels
{
public:
    virtual ~Labels() = default;
    virtual int at(double x, double y) const = 0;
    // out[i] = at(x0 + i * dx, y) for i in [0, n); overridden where the upstream has row calls.
    virtual void sampleRow(double x0, double dx, double y, int n, int *out) const;
    // The labels at() may give over `area` (edges included): bit i for label i; kOtherLabels (bit 63)
    // for anything else (no label, a label past 62, or not known). The default knows nothing.
    static constexpr std::uint64_t kOtherLabels = std::uint64_t(1) << 63, kAnyLabel = ~std::uint64_t(0);
    virtual std::uint64_t labelsIn(const Region &area) const;
    std::vector<std::string> names;
    std::vector<Rgb> colors;  // one per name
};

// What a mask is over a whole rectangle (edges included): true everywhere, false everywhere, or
// not known to be either.
enum class MaskOver { Mixed, AllTrue, AllFalse };

// A boolean function: where something may go.
class Mask
{
public:
    virtual ~Mask() = default;
    virtual bool at(double x, double y) const = 0;
    // at() over `area` (2D; see FieldRange for the contract); the default knows nothing.
    virtual MaskOver over(const Region &area) const;
    // In a volume; the default extrudes the 2D mask along z (see Field::at3).
    virtual bool at3(double x, double y, double z) const
    {
        (void)z;
        return at(x, y);
    }
};

struct WeightedType
{
    std::string name;
    double weight = 1;
};

// What a pin (a hand-placed point of a layer) fixes about itself: each unset field comes from the
// per-point hash like any other point's.
struct PinnedAttributes
{
    std::uint64_t id = 0;
    int type = -1;                  // index into LayerInfo::types; -1: the hash picks
    double rotation = std::nan(""); // NaN: the hash picks within the layer's range
    double scale = std::nan("");
};

// How the preview draws a layer's points: the shapes it knows, by the names a layer's sprite param
// offers (the param is declared from this table, so the preview never matches names).
enum class SpriteShape { Tree, Rock, Chest, Flower, Dot };
inline constexpr ChoiceTable<SpriteShape, 5> kSpriteShapes{{{SpriteShape::Tree, "tree"},
                                                            {SpriteShape::Rock, "rock"},
                                                            {SpriteShape::Chest, "chest"},
                                                            {SpriteShape::Flower, "flower"},
                                                            {SpriteShape::Dot, "dot"}}};

// The per-layer description exports and the preview need; attributes of a point are derived
// from (attributeSeed, point id), so they are not stored per point.
struct LayerInfo
{
    std::string name;     // the layer name (defaults to the node id)
    std::string nodeId;
    bool exported = true;
    std::int32_t attributeSeed = 0;
    std::vector<WeightedType> types;
    std::string specialType;  // empty: no special points
    std::int64_t specialCount = 0;
    double rotationMin = 0, rotationMax = 0;
    double scaleMin = 1, scaleMax = 1;
    Rgb color{52, 136, 74};
    SpriteShape sprite = SpriteShape::Dot;
    // Every later layer keeps at least these points' own radius from them (hand-placed houses),
    // not the smaller of the two radii that layers keep from each other.
    bool keepsRadius = false;
    // A volume layer (place_volume): PointLayer::z holds each point's depth in [0, world.depth),
    // a placement coordinate rather than a terrain height; the preview shades by it and the
    // statistics measure spacing in 3D.
    bool volume = false;
    // The layer's pins, sorted by id: their own type, rotation or scale, where they give one.
    std::vector<PinnedAttributes> pinned;
    // Words the designer gives the layer ("solid", "tall"): filter_points passes on the obstacle
    // layers carrying one it names; the JSON export lists them.
    std::vector<std::string> tags;
};

struct PointXYR
{
    double x, y, r;
};

class ChunkedLayer;

struct PointAttributes
{
    int type = -1;      // index into LayerInfo::types, -1 when the layer has no types
    double rotation = 0;  // degrees, clockwise
    double scale = 1;
};

// Why a sampler turned candidates down, counted on its rejection paths (a layer that comes out
// empty can then say why). `tooClose` counts candidates within the spacing of an earlier point:
// an obstacle's or the layer's own (only obstacles while the layer has no point yet).
struct PlacementTally
{
    bool counted = false;        // the layer came from a sampler that counts
    double radius = 0;           // the layer's minimum radius
    std::uint64_t candidates = 0, offMap = 0, tooClose = 0, notAllowed = 0;
};

// A named value per point (the `attribute` node samples a field into one): values[i] belongs to
// point i. Exports write them after a point's own fields; a layer without any writes as before.
struct AttributeColumn
{
    std::string name;
    std::vector<double> values;
};

class PointLayer;

// A change a node makes to each point of a layer on its own (an attribute stored, points
// filtered). An endless world's layer holds no points to change, so it keeps its refinements,
// and layerInRegion applies them in order to the points of each region it is asked for: as each
// point's outcome depends on that point alone, a region's refined points are the refined world's
// points inside it.
class PointRefinement
{
public:
    virtual ~PointRefinement() = default;
    // `layer` refined (its points, ids, heights and columns); null when cancelled.
    virtual std::shared_ptr<PointLayer> apply(const PointLayer &layer, const std::atomic<bool> *cancel) const = 0;
};

// One layer's points, in placement order.
class PointLayer
{
public:
    LayerInfo info;
    PlacementTally tally;
    std::vector<PointXYR> points;
    // Height per point (terrain: the height field times height_scale), empty when the layer has
    // none; exports then write z (3D engines' up axis) for every point.
    std::vector<double> z;
    std::vector<std::uint64_t> specialIds;  // sorted ids reserved for info.specialType
    // Point i's id: i itself, or ids[i] when the layer came from chunks (ids that stay put when
    // other chunks change; below 2^53, so exact in a double).
    std::vector<std::uint64_t> ids;
    // Named per-point values, in the order they were added; empty for most layers.
    std::vector<AttributeColumn> columns;
    // A chunked world's layer: where its points come from, chunk by chunk, on demand. An endless
    // world's layer holds no points itself: ask it for a region (layerInRegion).
    std::shared_ptr<const ChunkedLayer> chunked;
    // Where the layer was allowed to grow when that is not just its allowed-area input (its erased
    // areas taken out): what its statistics measure within. Null: the input.
    std::shared_ptr<const Mask> grownIn;
    bool lazy = false;  // true: `points` is not held (an endless world): ask `chunked` for a region
    // A lazy layer's refinements, applied in order to each region's points; `columns` then holds
    // the names of the attributes they add, without values.
    std::vector<std::shared_ptr<const PointRefinement>> refinements;

    std::uint64_t idOf(std::size_t i) const { return ids.empty() ? i : ids[i]; }
    PointAttributes attributes(std::uint64_t id) const;
    // Picks specialIds from the hash order; call once the points are final.
    void assignSpecials();
    // The points i with keep[i] set, in order, with their ids, heights, attribute values and
    // specials, and the layer's description and tally (not its chunks or where it grew).
    std::shared_ptr<PointLayer> subset(const std::vector<char> &keep) const;
};

using PointLayerPtr = std::shared_ptr<const PointLayer>;

// What a `points` wire carries: one or more layers in placement order (place_layer's `all`
// output is its obstacles followed by its own layer, sharing the upstream layers, not copying).
struct PointSet
{
    std::vector<PointLayerPtr> layers;
    std::size_t size() const;
};

using FieldPtr = std::shared_ptr<const Field>;
using LabelsPtr = std::shared_ptr<const Labels>;
using MaskPtr = std::shared_ptr<const Mask>;
using PointSetPtr = std::shared_ptr<const PointSet>;

// What the paint node hands the preview renderer (a product, not a wire type): the ground's
// labels with one colour each, hill-shaded by `shade`; `moisture` grows bigger trees.
struct Ground
{
    LabelsPtr labels;
    FieldPtr shade;            // null: flat ground
    FieldPtr moisture;         // null: every tree at its base size
    std::vector<Rgb> palette;  // by label index
    std::vector<char> flat;    // by label index: 1 = never hill-shaded (water is flat)
    double shading = 0.5;
};

using GroundPtr = std::shared_ptr<const Ground>;

using PortValue = std::variant<std::monostate, FieldPtr, LabelsPtr, MaskPtr, PointSetPtr, GroundPtr>;

// A well-mixed 64-bit hash of (seed, id, salt), for attributes that must never move a point.
std::uint64_t pointHash(std::int32_t seed, std::uint64_t id, std::uint32_t salt);
// The top 53 bits of pointHash as a double in [0, 1).
double pointHash01(std::int32_t seed, std::uint64_t id, std::uint32_t salt);

} // namespace grove
