// The bytes of an export (points files and preview PNG), shared by grove-cli and the editor.
#pragma once

#include "core/graph/Graph.h"
#include "core/formats/PointsExport.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace grove {

struct EvalResult;
class NodeRegistry;

struct ExportJob
{
    ExportFormat format = ExportFormat::Json;
    bool split = false;               // one file per layer instead of one file
    std::vector<std::string> layers;  // exported node ids, in export order
    std::string graphPath;            // the graph's file; only its name goes into the export, no folders
    int pngSize = 0;                  // the PNG's longer side; 0: no PNG
    int threads = 0;                  // chunks, raster rows and the points text in parallel; 0: every core
    // Chunked worlds: only the points in this region (lazy layers compute just its chunks); the
    // JSON's bounds are the region. Unset: every layer as evaluated.
    std::optional<Region> region;
    const std::atomic<bool> *cancel = nullptr;  // a region's chunks stop when set
    // The points files are written as writeExport stages them, a megabyte at a time, instead of
    // held whole in memory first (ExportFile::render): grove-cli's -o FILE.
    bool streamText = false;
};

struct ExportFile
{
    std::string name;  // with split: "<layer>.<ext>", unique within the job; else empty
    std::string bytes;
    // With ExportJob::streamText, in place of the bytes: writes them to the sink a piece at a time
    // and returns the rest (exportPoints with a sink).
    std::function<std::string(const TextSink &)> render;
};

struct ExportOutput
{
    std::vector<ExportFile> files;  // one without split, one per layer with it
    std::string png;                // the PNG bytes when the job asked for one
    std::vector<std::string> warnings;  // what the format could not carry (exportWarnings)
};

// What to evaluate for a job: its layers, plus the preview's nodes when it renders a PNG.
std::vector<std::string> exportTargets(const Graph &graph, const NodeRegistry &registry, const ExportJob &job);

// Renders every byte of a job from an evaluated graph; nothing (with the reason in *error) when
// the PNG cannot be encoded or the job was cancelled.
std::optional<ExportOutput> buildExport(const Graph &graph, const NodeRegistry &registry, const EvalResult &result,
                                        const ExportJob &job, std::string *error = nullptr);

// A layer name made safe as a file name: [A-Za-z0-9._-], never empty or hidden.
std::string safeFileName(const std::string &name);

} // namespace grove
