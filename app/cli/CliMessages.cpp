// The messages every grove-cli command shares.
#include "CliMessages.h"

#include "ChunkedRun.h"

namespace grove::cli {

int usageError(std::ostream &err, const std::string &message)
{
    err << "grove-cli: " << message << "\n(see grove-cli --help)\n";
    return kExitUsage;
}

void printDiagnostics(std::ostream &err, const Diagnostics &diagnostics)
{
    for (const auto &d : diagnostics)
        err << d.format() << "\n";
}

int interrupted(std::ostream &err)
{
    err << "grove-cli: interrupted; nothing written\n";
    return kExitInterrupted;
}

} // namespace grove::cli
