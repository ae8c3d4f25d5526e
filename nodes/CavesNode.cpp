// caves: cellular-automaton caves as a mask, true on the cave floor (the open cells).
#include "CaveAutomaton.h"
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <cmath>

namespace grove {

namespace {

// Cells one caves grid may hold (2048 x 2048): 100 steps of it take a few seconds.
constexpr double kMaxCaveCells = 4194304;

class CaveMask final : public Mask
{
public:
    CaveMask(std::vector<std::uint8_t> walls, int cols, int rows, double cell, bool invert)
        : m_walls(std::move(walls)), m_cols(cols), m_rows(rows), m_inverse(1.0 / cell), m_invert(invert)
    {
    }

    bool at(double x, double y) const override
    {
        const double fc = std::floor(x * m_inverse), fr = std::floor(y * m_inverse);
        bool open = false;  // beyond the grid (and NaN) is wall
        if (fc >= 0 && fr >= 0 && fc < m_cols && fr < m_rows)
            open = m_walls[static_cast<std::size_t>(fr) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(fc)] == 0;
        return open != m_invert;
    }

private:
    std::vector<std::uint8_t> m_walls;
    int m_cols, m_rows;
    double m_inverse;
    bool m_invert;
};

} // namespace

void registerCaves(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "caves";
    d.displayName = "Caves";
    d.category = "Labels & masks";
    d.description = "Cellular-automaton caves: a grid of cell_size cells over the world, each starting as wall when "
                    "pointHash01(seed, col + row * 2^32) < fill, then `iterations` steps of the B/S rule counting wall "
                    "neighbours (cells beyond the world are wall). True on the cave floor (the open cells).";
    d.needsWorldSize = true;
    d.outputs = {port("mask", DataType::Mask).describe("true on the cave floor (open cells); false on wall")};
    d.params = {
        number("cell_size").defaultValue(8).above(0).max(1e7).soft(2, 40)
            .describe("side of one cell in world units (at most 4194304 cells over the world)"),
        number("fill").defaultValue(0.45).min(0).max(1).soft(0.3, 0.6)
            .describe("share of cells that start as wall"),
        integer("iterations").defaultValue(5).min(1).max(100).soft(1, 12)
            .describe("steps of the rule"),
        text("rule").defaultValue(std::string(cave::kClassicRule))
            .describe("B/S rule over wall neighbours: B counts that turn an open cell to wall, S counts that keep a "
                      "wall (B5678/S45678 is the classic cave rule)"),
        seed(),
        flag("invert").defaultValue(false).describe("true on the walls instead of the floor"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        if (const std::string *rule = paramText(params, "rule")) {
            std::string why;
            if (!cave::parseRule(*rule, &why))
                issues.push_back({"rule", "rule " + quote(*rule) + ": " + why});
        }
    };
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        const double cell = ctx.number("cell_size");
        const double fcols = std::ceil(w.width / cell), frows = std::ceil(w.height / cell);
        if (!(fcols * frows <= kMaxCaveCells && fcols <= kMaxCaveCells && frows <= kMaxCaveCells)) {
            ctx.failAt("cell_size", "cell_size " + formatNumber(cell) + " cuts the " + formatNumber(w.width) + " x "
                                        + formatNumber(w.height) + " world into " + formatNumber(fcols) + " x "
                                        + formatNumber(frows) + " cells, more than the "
                                        + formatNumber(kMaxCaveCells) + " a caves grid may hold; raise cell_size");
            return;
        }
        const int cols = std::max(1, static_cast<int>(fcols)), rows = std::max(1, static_cast<int>(frows));
        const cave::Rule rule = *cave::parseRule(ctx.text("rule"));  // checkParams refused a bad one
        const double fill = ctx.number("fill");
        const std::int32_t seed = ctx.seed();
        std::vector<std::uint8_t> walls(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows));
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                walls[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)]
                    = cave::startsAsWall(seed, c, r, fill);
        const std::int64_t iterations = ctx.integer("iterations");
        for (std::int64_t i = 0; i < iterations; ++i) {
            if (ctx.cancelled())
                return;
            walls = cave::step(walls, cols, rows, rule);
            ctx.progress(static_cast<double>(i + 1) / static_cast<double>(iterations));
        }
        ctx.setOutput("mask", MaskPtr(std::make_shared<CaveMask>(std::move(walls), cols, rows, cell, ctx.flag("invert"))));
    };
    registry.add(std::move(d));
}

} // namespace grove
