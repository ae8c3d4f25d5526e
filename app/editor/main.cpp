// Starts the Grove editor: `grove [FILE]` opens FILE.
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

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
    parser.addOption(select);
    parser.addPositionalArgument("file", "A .grove.yaml graph to open.", "[FILE]");
    parser.process(app);

    grove::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openFile(parser.positionalArguments().first());
    if (parser.isSet(select))
        window.selectNode(parser.value(select));
    return app.exec();
}
