// The hsdp-inspect plan command as a user meets it: exit codes, streams, help.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include "cli_process.h"

namespace {

QString malformed(const char* name) {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/data/malformed/") + name;
}

}  // namespace

class TestCliPlan : public QObject {
    Q_OBJECT
private slots:
    void jsonPlanOfCleanSampleExitsZero() {
        auto r = inspect({"plan", sample("teaching_2x2.json"), "--json"});
        QCOMPARE(r.exitCode, 0);
        auto doc = QJsonDocument::fromJson(r.out);
        QVERIFY(doc.isObject());
        QCOMPARE(doc.object().value("format").toString(), QString("hsdp-plan/1"));
        QCOMPARE(doc.object().value("world_size").toInt(), 4);
        QVERIFY(r.err.isEmpty());
    }

    void errorDiagnosticsExitOneAndStillPrint() {
        auto r = inspect({"plan", sample("diagnostics_tour.json"), "--format", "json"});
        QCOMPARE(r.exitCode, 1);
        auto plan = QJsonDocument::fromJson(r.out).object();
        QVERIFY(!plan.value("rejected_params").toArray().isEmpty());
    }

    void malformedFilesExitTwoNamingThePath_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("named");
        QTest::newRow("placement") << malformed("bad_placement.json") << "/params/1/placements/1";
        QTest::newRow("syntax") << malformed("not_json.json") << "line";
        QTest::newRow("format") << malformed("wrong_format.json") << "/format";
        QTest::newRow("shape in repeat")
            << malformed("bad_shape.json") << "/params/0/params/0/shape/1";
        QTest::newRow("missing file") << malformed("does_not_exist.json") << "does_not_exist.json";
    }
    void malformedFilesExitTwoNamingThePath() {
        QFETCH(QString, file);
        QFETCH(QString, named);
        for (const QStringList& extra : {QStringList{"--json"}, QStringList{}}) {
            auto r = inspect(QStringList{"plan", file} + extra);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.out.isEmpty(), r.out.constData());
            QVERIFY2(QString::fromUtf8(r.err).contains(named), r.err.constData());
        }
    }

    void textFormatPutsDiagnosticsFirst() {
        auto r = inspect({"plan", sample("diagnostics_tour.json")});
        QCOMPARE(r.exitCode, 1);
        QString text = QString::fromUtf8(r.out);
        int diagnostics = text.indexOf("uneven-shard");
        int groups = text.indexOf("Group 0");
        QVERIFY2(diagnostics >= 0 && groups > diagnostics, qPrintable(text.left(2000)));
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no scenario") << QStringList{"plan"};
        QTest::newRow("unknown option")
            << QStringList{"plan", sample("teaching_2x2.json"), "--jsn"};
        QTest::newRow("bad format")
            << QStringList{"plan", sample("teaching_2x2.json"), "--format", "xml"};
        QTest::newRow("unknown command") << QStringList{"plot", sample("teaching_2x2.json")};
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        auto r = inspect(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY(!r.err.isEmpty());
    }

    void standardInputAndEndOfOptions() {
        QFile file(sample("teaching_2x2.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QProcess process;
        process.start(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-inspect"), {"plan", "-", "--json"});
        QVERIFY(process.waitForStarted());
        process.write(file.readAll());
        process.closeWriteChannel();
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        auto piped = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        QCOMPARE(piped.value("world_size").toInt(), 4);
        auto r = inspect({"plan", "--json", "--", sample("teaching_2x2.json")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object(), piped);
    }

    void endlessInputIsCappedWithTheFigure() {
        auto r = inspect({"plan", "/dev/zero"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("256 MiB"), r.err.constData());
    }

    void textPlanIsReadable_data() {
        QTest::addColumn<QString>("file");
        QDir dir(HSDP_SOURCE_DIR "/samples");
        for (const QString& f : dir.entryList({"*.json"}, QDir::Files))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void textPlanIsReadable() {
        QFETCH(QString, file);
        auto r = inspect({"plan", file});
        QVERIFY(r.exitCode == 0 || r.exitCode == 1);
        for (const QByteArray& line : r.out.split('\n'))
            QVERIFY2(line.size() <= 100, line.constData());
        // Terms are labelled or explained; none of the old bare jargon.
        QVERIFY(r.out.contains("\nGlossary\n"));
        for (const char* jargon : {"replica count none", "(null)", "pinned", "shard compute: ("})
            QVERIFY2(!r.out.contains(jargon), jargon);
    }

    void diagnosticsTourHasEveryCodeAFileCanRaise() {
        auto r = inspect({"plan", sample("diagnostics_tour.json"), "--json"});
        QCOMPARE(r.exitCode, 1);
        QStringList codes;
        for (const auto& d : QJsonDocument::fromJson(r.out).object().value("diagnostics").toArray())
            codes << d.toObject().value("code").toString();
        for (const char* code :
             {"invalid-shard-dim", "unsupported-placement", "replica-count-ignored", "uneven-shard",
              "nested-shard-order", "strided-shard-chunk", "shard-rank-order",
              "frozen-param-no-owner", "tp-rank-order-fallback", "tp-no-tp-dim", "owner-imbalance",
              "world-ranks-unused"})
            QVERIFY2(codes.contains(code), code);
    }

    void helpAndVersion() {
        auto tool = inspect({"--help"});
        QCOMPARE(tool.exitCode, 0);
        QVERIFY(tool.out.contains("plan SCENARIO"));
        auto plan = inspect({"plan", "--help"});
        QCOMPARE(plan.exitCode, 0);
        QVERIFY(plan.out.contains("--json"));
        auto version = inspect({"--version"});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("hsdp-inspect "));
    }

    // Every help text sends readers to the docs/ pages of this repository, and
    // each page it names exists (a renamed page would leave a dead pointer).
    void helpPointsToExistingDocs() {
        const QRegularExpression docPath(QStringLiteral("docs/[A-Za-z0-9_/.-]*[A-Za-z0-9_/]"));
        for (const QStringList& args :
             {QStringList{"--help"}, QStringList{"plan", "--help"}, QStringList{"run", "--help"},
              QStringList{"scenario", "--help"}}) {
            auto r = inspect(args);
            QCOMPARE(r.exitCode, 0);
            const QString text = QString::fromUtf8(r.out);
            int named = 0;
            for (const auto& match : docPath.globalMatch(text)) {
                ++named;
                QVERIFY2(QFileInfo::exists(HSDP_SOURCE_DIR "/" + match.captured()),
                         qPrintable(args.join(' ') + " names missing " + match.captured()));
            }
            QVERIFY2(named > 0, qPrintable(args.join(' ') + " names no docs/ page"));
            QVERIFY2(!text.contains("../"), qPrintable(args.join(' ') + " points outside"));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliPlan)
#include "tst_cli_plan.moc"
