// SPDX-License-Identifier: Apache-2.0
// hsdp-bench BENCHMARK --help for every benchmark hsdp-bench --help lists:
// exit 0 without running anything, and a help that names the benchmark and
// its options. The list comes from the binary's own usage, so a benchmark
// added there without a --help fails here.
#include <QtTest>

#include <QRegularExpression>

#include "cli_process.h"

using namespace hsdp::testing;

namespace {

constexpr int kTimeoutMs = 30000;  // a help, not a benchmark

CliOutcome bench(const QStringList& args) {
    return runProgram(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-bench"), args, kTimeoutMs);
}

// Each benchmark of the usage (lines "usage: hsdp-bench NAME ..." or
// "       hsdp-bench NAME ...") with the options its usage lines name.
QMap<QString, QSet<QString>> listedBenchmarks(const QString& usage) {
    static const QRegularExpression start(
        QStringLiteral(R"(^(?:usage:)?\s+hsdp-bench ([a-z]+)\b)"));
    static const QRegularExpression option(QStringLiteral(R"(--[a-z][a-z-]*)"));
    QMap<QString, QSet<QString>> listed;
    QString current;
    for (const QString& line : usage.split(QLatin1Char('\n'))) {
        const auto head = start.match(line);
        if (head.hasMatch()) {
            current = head.captured(1);
            listed[current];
        } else if (line.contains(QLatin1String("hsdp-bench "))) {
            current.clear();  // "hsdp-bench BENCHMARK --help": not a benchmark
        }
        if (current.isEmpty()) continue;
        for (auto it = option.globalMatch(line); it.hasNext();)
            listed[current] << it.next().captured();
    }
    return listed;
}

}  // namespace

class TestBenchHelp : public QObject {
    Q_OBJECT
private slots:
    void everyBenchmarkHasAHelp() {
        const auto usage = bench({QStringLiteral("--help")});
        QCOMPARE(usage.exitCode, 0);
        const auto listed = listedBenchmarks(QString::fromUtf8(usage.out));
        // The five of today at least; a new one joins them by its usage line.
        for (const char* known : {"plan", "gather", "views", "scale", "cost"})
            QVERIFY2(listed.contains(QLatin1String(known)), known);
        for (auto it = listed.cbegin(); it != listed.cend(); ++it) {
            const QString& name = it.key();
            QVERIFY2(!it.value().isEmpty(), qPrintable(name + ": no option in the usage"));
            for (const QString& flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
                const auto r = bench({name, flag});
                const QString what = name + " " + flag + ": ";
                QVERIFY2(r.exitCode == 0, qPrintable(what + "exit " + QString::number(r.exitCode) +
                                                     "\n" + QString::fromUtf8(r.err)));
                const QString help = QString::fromUtf8(r.out);
                QVERIFY2(help.contains(QLatin1String("hsdp-bench ") + name),
                         qPrintable(what + "does not name the benchmark\n" + help));
                // Every option the usage names for it is explained in its help.
                for (const QString& o : it.value())
                    QVERIFY2(help.contains(o),
                             qPrintable(what + "does not name " + o + "\n" + help));
                QVERIFY2(help.contains(QLatin1String("exit status")), qPrintable(what + help));
                QVERIFY2(r.err.isEmpty(), qPrintable(what + QString::fromUtf8(r.err)));
            }
        }
    }

    void unknownBenchmarkIsRefused() {
        const auto r = bench({QStringLiteral("nonesuch"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown benchmark 'nonesuch'"));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestBenchHelp)
#include "tst_bench_help.moc"
