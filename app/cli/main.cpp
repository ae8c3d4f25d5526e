// grove-cli: validate graphs, evaluate them headless and export their layers, list the catalog.
#include "ChunkedRun.h"
#include "CliApp.h"

#include "core/sampling/SimdPath.h"

#include <clocale>
#include <iostream>

int main(int argc, char **argv)
{
    // The user's locale, as the editor's QApplication and many a host of libgrove adopt it: Grove
    // reads and writes numbers without it (core/base/NumberText.h), and the locale CTest pass holds the
    // CLI to that too.
    std::setlocale(LC_ALL, "");
    if (const std::string problem = grove::applySimdEnvironment(); !problem.empty()) {
        std::cerr << "grove-cli: " << problem << "\n";
        return 2;
    }
    grove::cli::installInterruptHandler();  // Ctrl+C: stop cleanly, exit 130, nothing written
    return runCli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
