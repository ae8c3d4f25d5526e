// The one description of a node type: ports, params, their roles and evaluation. Everything else
// (loader, evaluator, editor, preview, exports, grove-cli, docs) reads it.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/NodeVersions.h"
#include "core/base/Value.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace grove {

class EvalContext;

enum class ParamKind {
    Number,      // a double within [min, max]
    Integer,     // a whole number within [min, max]
    Bool,
    String,
    Enum,        // one of enumValues
    NumberList,  // e.g. threshold cuts
    StringList,  // e.g. label names
    Color,       // "#rrggbb"
    ColorList,
    Range,       // [low, high], each within [min, max]
    RecordList,  // a list of records, each a map with the spec's fields (e.g. weighted types)
    Record,      // null, or one record with the spec's fields (e.g. a special type and its count)
    AreaList,    // areas of the world: each {circle: [x, y, radius]} or {polygon: [[x, y], [x, y], [x, y], ...]}
    PathList,    // polylines: each {points: [[x, y], [x, y], ...], closed: false} (PathValue.h)
};

const char *paramKindName(ParamKind kind);

// What a param means to Grove beyond its value. Readers outside the node (preview, exports,
// grove-cli) find params by role, never by name, so renaming a param cannot break them.
enum class ParamRole {
    None,
    LayerName,     // string: the layer's name in exports; empty means the node id
    ExportSwitch,  // bool: the layer is exported and drawn in the preview
    PositionX,     // number: a world position a click in the preview sets (with PositionY)
    PositionY,
    PositionMode,  // enum: set to roleValue when a click sets the position
    FilePath,      // string: a file the node reads, relative to the graph's folder; its contents
                   // are part of the node's cache key, and the editor watches it
    Pins,          // record list with x and y: points placed by hand (the preview's pin, move and delete tools)
    EraseAreas,    // area list: where the layer stays empty (the preview's erase tools)
    DrawnPaths,    // path list: paths drawn in the preview (its Path tool) that the node walks
    Seed,          // integer: added to world.seed (EvalContext::seed); groups offset it so copies differ
};

// What a record field means to readers outside the node: the Pins role's records say by these
// which field holds what, so the editor writes a pin without naming the fields.
enum class FieldRole {
    None,
    X,         // number, required: the pin's position
    Y,
    Type,      // string: one of the layer's type names
    Rotation,  // number: degrees
    Scale,     // number
};

// What an output port carries for readers outside the node.
enum class PortRole {
    None,
    LayerPoints,  // points: this node's own layer
    LayerChain,   // points: the layer's obstacles followed by the layer (one shared occupancy)
    AllowedArea,  // a mask input: where the layer may grow (its statistics are measured there)
    // A points input that takes one layer's own points and gives them back, refined, as this
    // node's LayerPoints output (an attribute added, points filtered): exports and the preview
    // then take the refined layer in place of the source, at the source's place and under its
    // name. A node with this input makes no layer of its own: left unwired (a filter of obstacles
    // alone), its LayerPoints output is not exported.
    Refines,
};

// What a node's layer promises about its points' spacing, for checks made outside the node (the
// test suites check every node that makes one): no two points closer than the smaller of their
// radii, measured in the plane (x, y) or in the volume (x, y, z).
enum class Spacing {
    None,    // no promise (random points, grids, points read from a file)
    Plane,
    Volume,
};

// The catalog's words for roles ("layer name", "layer points"); "" for None.
const char *paramRoleName(ParamRole role);
const char *portRoleName(PortRole role);

// One field of a record param: a string, number or integer under a fixed key.
struct RecordField
{
    std::string name;
    ParamKind kind = ParamKind::String;  // String, Number or Integer
    bool required = false;               // a String must then be non-empty
    Value defaultValue;                  // filled in when absent, so saves are explicit
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool optional = false;               // absent stays absent: no default is filled in (a pin's rotation)
    FieldRole role = FieldRole::None;
};

struct ParamSpec
{
    std::string name;
    ParamKind kind = ParamKind::Number;
    Value defaultValue;
    std::string description;
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;     // e.g. radius > 0
    bool allowInfinite = false;    // allowed_rule's open bounds
    double softMin = 0, softMax = 1;  // the slider's range in the editor (the spin box goes to min/max)
    std::vector<std::string> enumValues;
    std::vector<RecordField> fields;  // Record and RecordList: the keys of a record, in save order
    std::string uniqueField;          // RecordList: a field no two records may share
    std::string recordNoun;           // RecordList: what one record is called in messages ("type")
    ParamRole role = ParamRole::None;
    std::string roleValue;            // PositionMode: the enum value that uses the position
    std::string namesFrom;            // StringList: names picked from the labels wired into this input
    // When it matters, given the node's params (null: always); the editor shows the param only then.
    // A param that does not matter keeps its value, and is saved and read as any other.
    std::function<bool(const ValueMap &params)> mattersWhen;

    // Record and RecordList: the field with a role, or nullptr.
    const RecordField *fieldWithRole(FieldRole r) const
    {
        for (const RecordField &f : fields)
            if (f.role == r)
                return &f;
        return nullptr;
    }
};

struct PortSpec
{
    std::string name;
    DataType type = DataType::Field;
    bool optional = false;
    std::string description;
    PortRole role = PortRole::None;
};

// Issues a descriptor's cross-param check reports: (param name, message).
using ParamIssues = std::vector<std::pair<std::string, std::string>>;

struct NodeDescriptor
{
    std::string typeId;
    // Goes up by one whenever a default or what the node computes changes (saved as `version: N`
    // above 1, so the graph hash changes with it); `migrations` then says how each older version
    // reads. Adding a param with a default keeps the version. tests/node_versions.txt holds every
    // type's version and defaults, and tst_node_versions fails when they drift apart.
    int version = 1;
    std::vector<NodeMigration> migrations;
    std::string displayName;
    std::string category;     // "Fields", "Labels & masks", "Density", "Points", "Output"
    std::string description;
    std::vector<PortSpec> inputs;
    std::vector<PortSpec> outputs;
    std::vector<ParamSpec> params;
    bool matchesSeedJs = false;  // gives the seed JavaScript's numbers bit for bit
    // Reads the world's width and height (a raster or a scatter over the whole world): in an
    // endless world (world.chunk without width and height) the node is a problem.
    bool needsWorldSize = false;
    // It places in a volume: the graph needs world.depth > 0 (place_volume).
    bool needsWorldDepth = false;
    // Places chunk by chunk in a chunked world, and takes such layers, which may hold no points
    // until a region is asked for, on its points inputs (place_layer). Other nodes get those
    // layers placed whole in a finite world; in an endless world wiring one in is a problem.
    bool chunked = false;
    // Takes such lazy layers on its points inputs as they are and asks them only for the finite
    // places it needs (place_path: near its paths), so it works in an endless world; its chain
    // output passes them on, still lazy.
    bool takesLazyLayers = false;
    // In a wrapped world (world.wrap) what the node makes cannot repeat with the world (spacing
    // measured only in the plane, a pattern with edges of its own): this says why, and the graph
    // is a problem there. Empty: the node wraps (or its output does not depend on position).
    std::string wrapProblem;
    // Checks the params against a wrapped world whose period is (periodX, periodY) along each axis
    // (0: that axis does not wrap); a noise's frequency must repeat over it.
    std::function<void(const ValueMap &params, double periodX, double periodY, ParamIssues &issues)> checkWrap;
    // Its layer's spacing promise (with a LayerPoints output).
    Spacing spacing = Spacing::None;
    // Evaluates the node; reports failure through EvalContext::fail.
    std::function<void(EvalContext &)> evaluate;
    // Checks between params (cuts ascending, labels = cuts + 1, ...); params are already kind-checked.
    std::function<void(const ValueMap &params, ParamIssues &issues)> checkParams;

    const ParamSpec *param(const std::string &name) const;
    const PortSpec *input(const std::string &name) const;
    const PortSpec *output(const std::string &name) const;
    int inputIndex(const std::string &name) const;
    int outputIndex(const std::string &name) const;
    std::vector<std::string> paramNames() const;
    std::vector<std::string> inputNames() const;
    std::vector<std::string> outputNames() const;

    // The param or output with a role, or nullptr when the node has none.
    const ParamSpec *paramWithRole(ParamRole role) const;
    const PortSpec *outputWithRole(PortRole role) const;
    const PortSpec *inputWithRole(PortRole role) const;
    // The node makes a layer of points: its own points and, when it places them on an occupancy
    // its obstacles share, the chain.
    bool makesLayer() const { return outputWithRole(PortRole::LayerPoints) != nullptr; }
};

// Checks one value against its spec: returns the problem, or nothing when it is valid. `where`,
// when given, receives the path of the offending part below the param ("[3].x"), so the problem
// can be placed at that item's line.
std::optional<std::string> checkParamValue(const ParamSpec &spec, const Value &value, std::string *where = nullptr);

// Every param of the node in catalog order: given values where present, defaults elsewhere.
// Records get every field, in field order. Unknown names are dropped (the loader reports them
// before this is called).
ValueMap completeParams(const NodeDescriptor &descriptor, const ValueMap &given);

// Why a descriptor's roles are inconsistent (a role on a param of the wrong kind, a role given
// twice, a position without its pair), or nothing. The registry refuses such a descriptor.
std::optional<std::string> checkRoles(const NodeDescriptor &descriptor);

} // namespace grove
