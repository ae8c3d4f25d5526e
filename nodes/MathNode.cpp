// math: combines two fields (or a field and a number) with one arithmetic operation.
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/math/ExactPower.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace grove {

namespace {

enum class MathOp { Add, Subtract, Multiply, Divide, Min, Max, Power, OneMinus, Abs };

constexpr ChoiceTable<MathOp, 9> kOps{{{MathOp::Add, "add"},
                                        {MathOp::Subtract, "subtract"},
                                        {MathOp::Multiply, "multiply"},
                                        {MathOp::Divide, "divide"},
                                        {MathOp::Min, "min"},
                                        {MathOp::Max, "max"},
                                        {MathOp::Power, "power"},
                                        {MathOp::OneMinus, "one_minus"},
                                        {MathOp::Abs, "abs"}}};

// Where the result has no real, finite value (x / 0, 0^-1, (-8)^0.5) it is 0, so one bad spot
// never spreads NaN through everything downstream.
double apply(MathOp op, double a, double b)
{
    switch (op) {
    case MathOp::Add: return a + b;
    case MathOp::Subtract: return a - b;
    case MathOp::Multiply: return a * b;
    case MathOp::Divide: return b == 0 ? 0 : a / b;
    case MathOp::Min: return std::min(a, b);
    case MathOp::Max: return std::max(a, b);
    case MathOp::Power: {
        const double p = exactPower(a, b);
        return std::isfinite(p) ? p : 0;
    }
    case MathOp::OneMinus: return 1 - a;
    case MathOp::Abs: return std::fabs(a);
    }
    return 0;
}

class MathField final : public Field
{
public:
    MathField(MathOp op, FieldPtr a, FieldPtr b, double bValue)
        : m_op(op), m_a(std::move(a)), m_b(op == MathOp::OneMinus || op == MathOp::Abs ? nullptr : std::move(b)),
          m_bValue(bValue)
    {
    }

    double at(double x, double y) const override { return apply(m_op, m_a->at(x, y), m_b ? m_b->at(x, y) : m_bValue); }
    // in a volume: both operands at depth z
    double at3(double x, double y, double z) const override
    {
        return apply(m_op, m_a->at3(x, y, z), m_b ? m_b->at3(x, y, z) : m_bValue);
    }

    // Interval arithmetic on the operands' ranges, for the operations whose result only grows or
    // falls with each operand (divide and power, with their zeros for bad spots, are not bounded).
    FieldRange rangeIn(const Region &area) const override
    {
        const FieldRange a = m_a->rangeIn(area), b = m_b ? m_b->rangeIn(area) : FieldRange{m_bValue, m_bValue};
        const bool single = m_op == MathOp::OneMinus || m_op == MathOp::Abs;
        if (!(std::isfinite(a.lo) && std::isfinite(a.hi) && (single || (std::isfinite(b.lo) && std::isfinite(b.hi)))))
            return {};
        FieldRange r;
        switch (m_op) {
        case MathOp::Add: r = {a.lo + b.lo, a.hi + b.hi}; break;
        case MathOp::Subtract: r = {a.lo - b.hi, a.hi - b.lo}; break;
        case MathOp::Multiply: {
            const double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
            r = {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
            break;
        }
        case MathOp::Min: r = {std::min(a.lo, b.lo), std::min(a.hi, b.hi)}; break;
        case MathOp::Max: r = {std::max(a.lo, b.lo), std::max(a.hi, b.hi)}; break;
        case MathOp::OneMinus: r = {1 - a.hi, 1 - a.lo}; break;
        case MathOp::Abs: r = a.lo >= 0 ? a : a.hi <= 0 ? FieldRange{-a.hi, -a.lo} : FieldRange{0, std::max(-a.lo, a.hi)}; break;
        case MathOp::Divide:
        case MathOp::Power: return {};
        }
        return std::isfinite(r.lo) && std::isfinite(r.hi) ? r.widened() : FieldRange{};
    }

    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        if (n <= 0)
            return;
        m_a->sampleRow(x0, dx, y, n, out);
        if (!m_b) {
            for (int i = 0; i < n; ++i)
                out[i] = apply(m_op, out[i], m_bValue);
            return;
        }
        std::vector<double> b(static_cast<size_t>(n));
        m_b->sampleRow(x0, dx, y, n, b.data());
        for (int i = 0; i < n; ++i)
            out[i] = apply(m_op, out[i], b[static_cast<size_t>(i)]);
    }

private:
    MathOp m_op;
    FieldPtr m_a, m_b;  // m_b null when unwired or the op takes only a
    double m_bValue;
};

} // namespace

void registerMath(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "math";
    d.displayName = "Math";
    d.category = "Fields";
    d.description = "Combines fields spot by spot: a + b, a - b, a * b, a / b, min, max, a^b, 1 - a or |a|. "
                    "Without b wired, b_value is used. Where there is no real result (division by zero, 0 to "
                    "a negative power, a negative a to a fractional power) the result is 0.";
    d.inputs = {
        port("a", DataType::Field).describe("the first operand"),
        port("b", DataType::Field).optional().describe("the second operand (unwired: b_value)"),
    };
    d.outputs = {port("field", DataType::Field).describe("op(a, b)")};
    d.params = {
        choice("op", kOps, MathOp::Add)
            .describe("add, subtract, multiply, divide (by 0 gives 0), min, max, power (a^b), one_minus (1 - a), "
                      "abs (|a|)"),
        number("b_value").defaultValue(0).min(-1e12).max(1e12).soft(-1, 2)
            .describe("b where the b input is not wired"),
    };
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", std::make_shared<MathField>(ctx.choice("op", kOps), ctx.field("a"), ctx.field("b"),
                                                           ctx.number("b_value")));
    };
    registry.add(std::move(d));
}

} // namespace grove
