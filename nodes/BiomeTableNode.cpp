// biome_table: a Whittaker-style lookup, biome = table[row label][column label] (height x moisture).
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <bit>

namespace grove {

namespace {

class BiomeLabels final : public Labels
{
public:
    BiomeLabels(LabelsPtr rows, LabelsPtr columns, int rowCount, int columnCount, std::vector<int> biomeOfCell)
        : m_rows(std::move(rows)), m_columns(std::move(columns)), m_rowCount(rowCount), m_columnCount(columnCount),
          m_biomeOfCell(std::move(biomeOfCell))
    {
    }

    int at(double x, double y) const override
    {
        const int r = m_rows->at(x, y), c = m_columns->at(x, y);
        if (r < 0 || r >= m_rowCount || c < 0 || c >= m_columnCount)
            return -1;  // an upstream spot without a label has no biome either
        return m_biomeOfCell[static_cast<size_t>(r * m_columnCount + c)];
    }
    void sampleRow(double x0, double dx, double y, int n, int *out) const override
    {
        thread_local std::vector<int> columns;
        columns.resize(static_cast<size_t>(std::max(n, 0)));
        m_rows->sampleRow(x0, dx, y, n, out);
        m_columns->sampleRow(x0, dx, y, n, columns.data());
        for (int i = 0; i < n; ++i) {
            const int r = out[i], c = columns[static_cast<size_t>(i)];
            out[i] = r < 0 || r >= m_rowCount || c < 0 || c >= m_columnCount
                         ? -1
                         : m_biomeOfCell[static_cast<size_t>(r * m_columnCount + c)];
        }
    }

    // Every table cell of a row and a column the area may have.
    std::uint64_t labelsIn(const Region &area) const override
    {
        const std::uint64_t rows = m_rows->labelsIn(area);
        if (rows & kOtherLabels)
            return kAnyLabel;
        const std::uint64_t columns = m_columns->labelsIn(area);
        if (columns & kOtherLabels)
            return kAnyLabel;
        std::uint64_t bits = 0;
        for (std::uint64_t rs = rows; rs; rs &= rs - 1)
            for (std::uint64_t cs = columns; cs; cs &= cs - 1) {
                const int r = std::countr_zero(rs), c = std::countr_zero(cs);
                const int biome = r < m_rowCount && c < m_columnCount ? m_biomeOfCell[static_cast<size_t>(r * m_columnCount + c)] : -1;
                bits |= biome >= 0 && biome < 63 ? std::uint64_t(1) << biome : kOtherLabels;
            }
        return bits;
    }

private:
    LabelsPtr m_rows, m_columns;
    int m_rowCount, m_columnCount;
    std::vector<int> m_biomeOfCell;  // row-major, index into names
};

std::vector<std::string> distinctInOrder(const ValueList &table)
{
    std::vector<std::string> names;
    for (const auto &v : table)
        if (std::find(names.begin(), names.end(), v.toString()) == names.end())
            names.push_back(v.toString());
    return names;
}

// Colours for seed 002's biomes, so the default table previews like a map; others cycle a palette.
Rgb biomeColor(const std::string &name, size_t index)
{
    static const std::pair<const char *, Rgb> known[] = {
        {"desert", {224, 201, 138}}, {"grassland", {164, 194, 98}}, {"swamp", {93, 122, 78}},
        {"scrub", {184, 168, 106}},  {"forest", {63, 122, 58}},     {"rainforest", {31, 94, 54}},
        {"bare_rock", {140, 140, 140}}, {"tundra", {183, 194, 176}}, {"snow", {242, 244, 247}},
    };
    for (const auto &[n, c] : known)
        if (name == n)
            return c;
    static const Rgb palette[] = {{42, 102, 156}, {218, 200, 140}, {118, 156, 72}, {150, 156, 164},
                                  {46, 90, 52},   {226, 150, 255}, {255, 204, 80}, {124, 76, 36}};
    return palette[index % 8];
}

std::string labelCount(const Labels &labels)
{
    return std::to_string(labels.names.size()) + (labels.names.size() == 1 ? " label (" : " labels (")
           + commaList(labels.names) + ")";
}

} // namespace

void registerBiomeTable(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "biome_table";
    d.displayName = "Biome Table";
    d.category = "Labels & masks";
    d.description = "Looks up a biome from two sets of bands, like a Whittaker diagram: the rows input (e.g. height: "
                    "low, mid, high) picks the row, the columns input (e.g. moisture: dry, medium, wet) the column. "
                    "Write the table row after row; columns says how many names make one row.";
    d.inputs = {
        port("rows", DataType::Labels).describe("picks the table row (e.g. height bands from a threshold)"),
        port("columns", DataType::Labels).describe("picks the table column (e.g. moisture bands from a threshold)"),
    };
    d.outputs = {port("labels", DataType::Labels)
                     .describe("the biome per spot; names are the table's biomes, each once, in the order they "
                               "first appear")};
    d.params = {
        nameList("table")
            .defaultValue(ValueList{"desert", "grassland", "swamp", "scrub", "forest", "rainforest", "bare_rock",
                                    "tundra", "snow"})
            .describe("biome names row after row: one row per rows label, one name per columns label"),
        integer("columns").defaultValue(3).min(1).max(4096).soft(1, 8)
            .describe("names per table row: the number of labels on the columns input"),
        colorList("colors").describe("one colour per distinct biome, in first-appearance order (empty: automatic)"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        ValueList table, colors;
        double columns = 1;
        for (const auto &[k, v] : params) {
            if (k == "table")
                table = v.toList();
            if (k == "columns")
                columns = v.toNumber();
            if (k == "colors")
                colors = v.toList();
        }
        const auto perRow = static_cast<size_t>(std::max(1.0, columns));
        if (table.empty())
            issues.emplace_back("table", "the table needs at least one biome");
        else if (table.size() % perRow != 0)
            issues.emplace_back("table", std::to_string(table.size()) + " names do not fill rows of " + std::to_string(perRow)
                                             + " columns: give a multiple of " + std::to_string(perRow) + ", row after row");
        for (size_t i = 0; i < table.size(); ++i)
            if (table[i].toString().empty()) {
                issues.emplace_back("table", "item " + std::to_string(i) + " is empty: every cell needs a biome name");
                break;
            }
        const auto names = distinctInOrder(table);
        if (!colors.empty() && colors.size() != names.size())
            issues.emplace_back("colors", "give one colour per distinct biome (" + std::to_string(names.size()) + ": "
                                              + commaList(names) + ") or none");
    };
    d.evaluate = [](EvalContext &ctx) {
        LabelsPtr rows = ctx.labels("rows"), columns = ctx.labels("columns");
        const ValueList &table = ctx.param("table").toList();
        const auto columnCount = static_cast<size_t>(ctx.integer("columns"));
        const size_t rowCount = table.size() / columnCount;
        if (rows->names.size() != rowCount) {
            ctx.fail("the table has " + std::to_string(rowCount) + (rowCount == 1 ? " row" : " rows") + " ("
                     + std::to_string(table.size()) + " names in rows of " + std::to_string(columnCount)
                     + "), but the rows input has " + labelCount(*rows));
            return;
        }
        if (columns->names.size() != columnCount) {
            ctx.fail("the table has " + std::to_string(columnCount) + (columnCount == 1 ? " column" : " columns")
                     + ", but the columns input has " + labelCount(*columns));
            return;
        }
        const auto names = distinctInOrder(table);
        std::vector<int> biomeOfCell;
        for (const auto &v : table)
            biomeOfCell.push_back(static_cast<int>(std::find(names.begin(), names.end(), v.toString()) - names.begin()));
        auto labels = std::make_shared<BiomeLabels>(rows, columns, static_cast<int>(rowCount),
                                                    static_cast<int>(columnCount), std::move(biomeOfCell));
        const ValueList &colors = ctx.param("colors").toList();
        for (size_t i = 0; i < names.size(); ++i) {
            labels->names.push_back(names[i]);
            labels->colors.push_back(i < colors.size() ? parseHexColor(colors[i].toString()) : biomeColor(names[i], i));
        }
        ctx.setOutput("labels", LabelsPtr(labels));
    };
    registry.add(std::move(d));
}

} // namespace grove
