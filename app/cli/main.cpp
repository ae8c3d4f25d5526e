// grove-cli: validate graphs, evaluate them headless and export their layers, list the catalog.
#include "ChunkedRun.h"
#include "CliApp.h"

#include <iostream>

int main(int argc, char **argv)
{
    grove::cli::installInterruptHandler();  // Ctrl+C: stop cleanly, exit 130, nothing written
    return runCli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
