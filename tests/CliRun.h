// grove-cli run as a separate process, as a pipeline runs it: its exit status and both streams.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

#include <string>

namespace grove::test {

struct Run
{
    int code = -1;  // -1: it crashed or did not finish in five minutes
    std::string out, err;
};

inline Run cli(const QStringList &args, const QString &workDir = {},
               const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProgram(GROVE_CLI);
    p.setArguments(args);
    p.setProcessEnvironment(env);
    if (!workDir.isEmpty())
        p.setWorkingDirectory(workDir);
    p.start();
    p.closeWriteChannel();
    p.waitForFinished(300000);
    Run r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

inline QString q(const std::string &s) { return QString::fromStdString(s); }

} // namespace grove::test
