// Starts the Grove editor: `grove [FILE]` opens FILE, then offers any autosaved changes to recover.
#include "window/MainWindow.h"

#include "nodes/BuiltinNodes.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Grove");
    QApplication::setApplicationName("Grove");
    QApplication::setApplicationVersion("0.1.0");

    QCommandLineParser parser;
    parser.setApplicationDescription("Grove graph editor");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption select("select", "Select node ID after opening (for screenshots).", "ID");
    QCommandLineOption recover("recover", "Restore autosaved changes without asking (after a crash).");
    QCommandLineOption set("set", "Change a param after opening, as an undoable edit (repeatable).",
                           "NODE.PARAM=VALUE");
    parser.addOptions({select, recover, set});
    parser.addPositionalArgument("file", "A .grove.yaml graph to open.", "[FILE]");
    parser.process(app);

    // The node catalog is chosen here, once; the window and everything in it take it as given.
    grove::MainWindow window(grove::builtinRegistry());
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openFile(parser.positionalArguments().first());
    const QString recovered = window.offerRecovery(parser.isSet(recover) ? grove::MainWindow::Recovery::Accept
                                                                          : grove::MainWindow::Recovery::Ask);
    if (!recovered.isEmpty())
        std::fprintf(stderr, "grove: %s\n", qPrintable(recovered));
    for (const QString &assignment : parser.values(set))
        if (const QString problem = window.applyOverride(assignment); !problem.isEmpty())
            std::fprintf(stderr, "grove: --set %s: %s\n", qPrintable(assignment), qPrintable(problem));
    if (parser.isSet(select))
        window.selectNode(parser.value(select));
    return app.exec();
}
