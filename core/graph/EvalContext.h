// What a node's evaluate function sees: its params, its wired inputs, the world, and the controls.
#pragma once

#include "core/base/Choices.h"
#include "core/base/DataTypes.h"
#include "core/graph/Graph.h"
#include "core/graph/NodeDescriptor.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace grove {

// A fault in a node type's own code, never in the graph: its evaluate asks for a param, input or
// output its descriptor does not declare (a misspelt name), or reads a choice through a table
// that is not the declared one. The message names the node type and the name.
class NodeCodeFault : public std::logic_error
{
public:
    using std::logic_error::logic_error;
};

// Checked builds (GROVE_CHECKED: Debug and every build with the tests) let a NodeCodeFault escape
// the evaluator, so a test or a debugging session stops at it. Other builds fail the node with
// the fault's message: the node has no result, and nothing downstream gets a wrong value.
bool nodeCodeChecked();

struct EvalLimits
{
    std::uint64_t maxPointsPerLayer;
    // Chunked worlds: threads for a layer's chunks (0: every core), and whether a finite world's
    // layers are placed whole at evaluation (false: they stay lazy, asked for by region, as
    // grove-cli's streamed export and the C API do).
    int threads = 0;
    bool placeWholeWorld = true;
    std::size_t chunkCacheBytes = std::size_t(256) << 20;  // per layer
};

class EvalContext
{
public:
    EvalContext(const NodeDescriptor &descriptor, const Node &node, const World &world,
                const std::vector<PortValue> &inputs, const EvalLimits &limits,
                const std::atomic<bool> *cancel, std::function<void(double)> progress);

    const World &world() const { return m_world; }
    const Node &node() const { return m_node; }
    const NodeDescriptor &descriptor() const { return m_descriptor; }
    const EvalLimits &limits() const { return m_limits; }

    // Params (already validated and completed with defaults). A name the descriptor does not
    // declare, like an undeclared input or output below, throws NodeCodeFault.
    const Value &param(const std::string &name) const;
    double number(const std::string &name) const { return param(name).toNumber(); }
    std::int64_t integer(const std::string &name) const { return static_cast<std::int64_t>(param(name).toNumber()); }
    bool flag(const std::string &name) const { return param(name).toBool(); }
    const std::string &text(const std::string &name) const { return param(name).toString(); }
    // A choice param's value, read through the table its declaration was made from.
    template <typename E, std::size_t N>
    E choice(const std::string &name, const ChoiceTable<E, N> &table) const
    {
        checkChoiceTable(name, choiceNames(table));
        const std::string &picked = text(name);
        if (const std::optional<E> value = choiceValue(table, picked))
            return *value;
        fault("reads choice param " + name + " with a value its table lacks: " + picked);
    }
    // world.seed + the param with the Seed role, wrapped to int32.
    std::int32_t seed() const;

    // Inputs: null when not wired; asking for an input as another type than declared faults.
    FieldPtr field(const std::string &input) const;
    LabelsPtr labels(const std::string &input) const;
    MaskPtr mask(const std::string &input) const;
    PointSetPtr points(const std::string &input) const;

    void setOutput(const std::string &port, PortValue value);
    const std::vector<PortValue> &outputs() const { return m_outputs; }
    // What a sink node (no outputs, e.g. paint) hands the caller through NodeResult::product.
    void setProduct(PortValue value) { m_product = std::move(value); }
    const PortValue &product() const { return m_product; }

    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    const std::atomic<bool> *cancelFlag() const { return m_cancel; }
    void progress(double fraction) const
    {
        if (m_progress)
            m_progress(fraction);
    }
    const std::function<void(double)> &progressCallback() const { return m_progress; }

    // The file a FilePath param names: its value resolved against the graph's folder.
    std::string filePath(const std::string &param) const;
    void setBaseDir(std::string dir) { m_baseDir = std::move(dir); }

    void fail(std::string message) { m_error = std::move(message); }
    // A failure that belongs to one param (a file that cannot be read): located at that param.
    // `param` may go below the param ("pins[3]"); its param must be declared.
    void failAt(const std::string &param, std::string message);
    // A failure that belongs to the world's settings (a chunk too small for a layer's radius).
    void failAtWorld(const std::string &key, std::string message)
    {
        m_errorPath = "world." + key;
        m_error = std::move(message);
    }
    const std::string &errorPath() const { return m_errorPath; }
    const std::string &error() const { return m_error; }
    const std::string &errorParam() const { return m_errorParam; }

    // Throws NodeCodeFault: "node type 'x' <what>".
    [[noreturn]] void fault(const std::string &what) const;

private:
    const PortValue &input(const std::string &name, DataType type) const;
    void checkChoiceTable(const std::string &name, const std::vector<std::string> &tableNames) const;

    const NodeDescriptor &m_descriptor;
    const Node &m_node;
    const World &m_world;
    const std::vector<PortValue> &m_inputs;  // by descriptor input index
    const EvalLimits &m_limits;
    const std::atomic<bool> *m_cancel;
    std::function<void(double)> m_progress;
    std::vector<PortValue> m_outputs;        // by descriptor output index
    PortValue m_product;
    std::string m_error;
    std::string m_errorParam;
    std::string m_errorPath;
    std::string m_baseDir;
};

} // namespace grove
