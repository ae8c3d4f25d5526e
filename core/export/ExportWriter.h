// Writes an export's bytes to their destinations, the same way for grove-cli and the editor.
#pragma once

#include "core/export/ExportJob.h"

#include <optional>
#include <string>

namespace grove {

struct ExportDestination
{
    std::string points;  // the points file, or with split the folder for one file per layer; empty: none
    std::string png;     // the preview PNG; empty: none
};

// Checks every destination before anything is written: a folder where a file goes, a file where
// the split folder goes, a folder that cannot be written to. The reason, or nothing.
std::optional<std::string> checkExportDestination(const ExportDestination &destination, bool split);

// Checks, then writes: a missing split folder is created (its parent must exist, as a file's
// folder must), and each file is replaced atomically. The reason on failure; a failed check writes nothing.
std::optional<std::string> writeExport(const ExportOutput &output, const ExportDestination &destination, bool split);

} // namespace grove
