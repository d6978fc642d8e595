// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs the built hsdp-inspect (or any program) and captures what a user sees.

#include <QElapsedTimer>
#include <QProcess>
#include <QStringList>

#include "samples.h"

namespace hsdp::testing {

struct CliOutcome {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    qint64 millis = 0;
};

inline CliOutcome runProgram(const QString& program, const QStringList& args,
                             int timeoutMs = 300000) {
    QProcess process;
    QElapsedTimer timer;
    timer.start();
    process.start(program, args);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError(),
            timer.elapsed()};
}

inline CliOutcome inspect(const QStringList& args, int timeoutMs = 300000) {
    return runProgram(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-inspect"), args, timeoutMs);
}

}  // namespace hsdp::testing
