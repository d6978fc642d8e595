// SPDX-License-Identifier: Apache-2.0
// The hsdp-inspect plan command as a user meets it: exit codes, streams, help.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli_process.h"
#include "cluster/reader.h"
#include "cost/step_memory_model.h"
#include "cost/step_simulation.h"
#include "cost/strategy_comparison.h"
#include "plan/planner.h"
#include "scenario/reader.h"
#include "types/figures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

QString malformed(const char* name) {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/data/malformed/") + name;
}

// The Llama-3-70B scenario for dp_replicate=2, dp_shard=4, tp=4 as `scenario
// --from-config` writes it (no batch cap), with `options` set, in `dir`.
QString generated70b(const QTemporaryDir& dir, const QJsonObject& options, const QString& name) {
    const QString path = dir.filePath(name);
    auto r = inspect({"scenario", "--from-config",
                      HSDP_SOURCE_DIR "/tests/data/model_configs/llama3_70b.json", "--mesh",
                      "dp_replicate=2,dp_shard=4,tp=4", "-o", path});
    if (r.exitCode != 0) return {};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    QJsonObject scenario = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject merged = scenario.value("options").toObject();
    for (auto it = options.begin(); it != options.end(); ++it) merged.insert(it.key(), it.value());
    scenario.insert("options", merged);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    file.write(QJsonDocument(scenario).toJson());
    return path;
}

QJsonObject planJson(const QString& path, int* exitCode) {
    auto r = inspect({"plan", path, "--json", "--cluster", "h100-dgx"});
    *exitCode = r.exitCode;
    return QJsonDocument::fromJson(r.out).object();
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

    void clusterAddsTheCostOfTheStep() {
        auto r = inspect(
            {"plan", sample("llama3_70b_hsdp_tp_2x4x4.json"), "--json", "--cluster", "h100-dgx"});
        QCOMPARE(r.exitCode, 0);
        const auto cost = QJsonDocument::fromJson(r.out).object().value("cost").toObject();
        QCOMPARE(cost.value("cluster").toObject().value("nodes").toInt(), 4);
        QVERIFY(cost.value("step_seconds").toDouble() > 0);
        const auto ranks = cost.value("ranks").toArray();
        QCOMPARE(ranks.size(), 32);
        double latest = 0;
        for (const auto& rank : ranks)
            latest = std::max(latest, rank.toObject().value("finish_seconds").toDouble());
        QCOMPARE(latest, cost.value("step_seconds").toDouble());
        QVERIFY(!cost.value("critical_path").toArray().isEmpty());
        QVERIFY(cost.value("phases").toObject().contains("gather"));

        auto text =
            inspect({"plan", sample("llama3_70b_hsdp_tp_2x4x4.json"), "--cluster", "h100-dgx"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Cost on h100-dgx: 4 nodes x 8"));
        QVERIFY(text.out.contains("main.tp (dim 2): 0 of 8 groups cross nodes"));
        // The cluster's devices are not the plan's ranks: a 4-rank world on
        // one 8-GPU node says both (it read "(8 ranks)").
        auto small = inspect({"plan", sample("teaching_2x2.json"), "--cluster", "h100-dgx"});
        QVERIFY2(small.out.contains("(8 devices; the plan's 4 ranks use 4 of them)"),
                 small.out.constData());
        // One meaning of "step": the whole step ("step time"); a place in
        // the schedule is a schedule entry, as the studio says.
        QVERIFY2(text.out.contains("schedule entry "), text.out.constData());
        QVERIFY2(!QString::fromUtf8(text.out).contains(
                     QRegularExpression(QStringLiteral("\\bstep \\d"))),
                 text.out.constData());
        // A bandwidth with the precision it has: "3350 GB/s", not "3350.000 GB/s".
        const auto bandwidth = QRegularExpression(QStringLiteral("at ([0-9.]+) GB/s"))
                                   .match(QString::fromUtf8(text.out));
        QVERIFY2(bandwidth.hasMatch(), text.out.constData());
        const double rate =
            hsdp::computeRatesOf(hsdp::readClusterPreset("h100-dgx")).bytesPerSecond / 1e9;
        QVERIFY(std::abs(bandwidth.captured(1).toDouble() - rate) <= rate * 0.005);
        const QString digits = bandwidth.captured(1).remove(QLatin1Char('.'));
        QVERIFY2(digits.size() <= std::max<qsizetype>(3, QString::number(int(rate)).size()),
                 qPrintable(bandwidth.captured(0)));
    }

    // Per rank and phase, what the plan runs and both strategies, without --cluster;
    // auto weighs on the cluster given, and the group says which it chose and why.
    void jsonHasTheGatherTrafficOfBothStrategies() {
        QTemporaryDir dir;
        QFile in(sample("llama3_8b_hsdp_2x4.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject scenario = QJsonDocument::fromJson(in.readAll()).object();
        QJsonObject options = scenario.value("options").toObject();
        options.insert("gather_strategy", "all-to-all");
        scenario.insert("options", options);
        QFile out(dir.filePath("a2a.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(scenario).toJson());
        out.close();
        auto r = inspect({"plan", out.fileName(), "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject plan = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(plan.value("gather_strategy").toString(), QString("all-to-all"));
        const QJsonObject traffic = plan.value("gather_traffic").toObject();
        QCOMPARE(traffic.value("runs").toString(), QString("all-to-all"));
        const auto strategies = traffic.value("strategies").toObject();
        QCOMPARE(traffic.value("chosen"), strategies.value("all-to-all"));
        const auto gathered = strategies.value("all-gather").toObject();
        const auto exchanged = strategies.value("all-to-all").toObject();
        for (const char* column : {"gather_sent_bytes", "gather_received_bytes",
                                   "update_return_sent_bytes", "update_return_received_bytes"})
            QCOMPARE(exchanged.value("ranks").toObject().value(column).toArray().size(), 8);
        // A shard group of 4: the all-gather brings each rank several times more.
        QVERIFY(gathered.value("max_received_bytes").toDouble() >
                3 * exchanged.value("max_received_bytes").toDouble());
        for (const auto& g : plan.value("groups").toArray())
            QCOMPARE(g.toObject().value("gather_strategy").toObject().value("chosen").toString(),
                     QString("all-to-all"));

        options.insert("gather_strategy", "auto");
        scenario.insert("options", options);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(QJsonDocument(scenario).toJson());
        out.close();
        auto h100 = inspect({"plan", out.fileName(), "--json", "--cluster", "h100-dgx"});
        QCOMPARE(h100.exitCode, 0);
        for (const auto& g : QJsonDocument::fromJson(h100.out).object().value("groups").toArray()) {
            const auto chosen = g.toObject().value("gather_strategy").toObject();
            QVERIFY(chosen.value("auto").toBool());
            QVERIFY2(chosen.value("why").toString().startsWith("auto on h100-dgx: all-to-all "),
                     qPrintable(chosen.value("why").toString()));
        }
    }

    // plan --cluster compares the gather strategies of each gathered group
    // with the figures the Gather strategy view shows (one function: a
    // group's received bytes, time and peak under each), text and JSON.
    void clusterComparesTheGatherStrategies() {
        const QString path = sample("llama3_70b_hsdp_tp_2x4x4.json");
        const Scenario scenario = readScenarioFile(path.toStdString());
        const Plan plan = makePlan(scenario);
        const Cluster cluster = readClusterPreset("h100-dgx");
        auto json = inspect({"plan", path, "--json", "--cluster", "h100-dgx"});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray compared = QJsonDocument::fromJson(json.out)
                                        .object()["cost"]
                                        .toObject()["gather_strategies"]
                                        .toArray();
        const QString text =
            QString::fromUtf8(inspect({"plan", path, "--cluster", "h100-dgx"}).out);
        QVERIFY2(text.contains("gather strategies  per gathered group"), qPrintable(text));
        int gathered = 0;
        for (size_t g = 0; g < plan.groups.size(); ++g) {
            if (!gathers(plan.groups[g])) continue;
            const StrategyComparison want = compareStrategies(scenario, plan, int(g), cluster);
            QVERIFY(gathered < compared.size());
            const QJsonObject got = compared[gathered++].toObject();
            QCOMPARE(got["group"].toInt(), want.groupId);
            QCOMPARE(got["runs"].toString(),
                     QString::fromStdString(std::string(gatherStrategyName(want.used))));
            for (const auto& [key, figures] : {std::pair{"all_gather", want.allGather},
                                               std::pair{"all_to_all", want.allToAll}}) {
                const QJsonObject f = got[key].toObject();
                QCOMPARE(f["max_received_bytes"].toInteger(), figures.maxReceived);
                QCOMPARE(f["peak_bytes"].toInteger(), figures.peakBytes);
                QCOMPARE(f["seconds"].toDouble(), figures.seconds);
            }
            const QString line =
                QString("group %1  all-gather %2, %3, peak %4; all-to-all %5")
                    .arg(want.groupId)
                    .arg(QString::fromStdString(humanBytes(double(want.allGather.maxReceived))),
                         QString::fromStdString(durationText(want.allGather.seconds)),
                         QString::fromStdString(humanBytes(double(want.allGather.peakBytes))),
                         QString::fromStdString(humanBytes(double(want.allToAll.maxReceived))));
            QVERIFY2(text.contains(line), qPrintable(line + "\n" + text));
        }
        QVERIFY(gathered > 1);  // the 70B gathers more than one group
        QCOMPARE(compared.size(), gathered);
        // And the step with every gathered group on all-to-all, replayed here.
        Plan everyGroup = plan;
        for (Group& g : everyGroup.groups)
            if (gathers(g)) g.gatherStrategy = GatherStrategy::AllToAll;
        int64_t peak = 0;
        for (const StepMemory& rank : predictStepMemory(scenario, everyGroup))
            peak = std::max(peak, rank.peakBytes);
        QCOMPARE(
            compared[0].toObject()["all_to_all"].toObject()["every_group_peak_bytes"].toInteger(),
            peak);
        QVERIFY2(text.contains("every gathered group on one strategy: all-gather peak ") &&
                     text.contains(QString(", all-to-all peak %1")
                                       .arg(QString::fromStdString(humanBytes(double(peak))))),
                 qPrintable(text));
    }

    // A predicted peak over the device's memory is an error diagnostic, first,
    // exiting 1 like every other error, with the rank and the bytes over as
    // the cost's own figures give them; the remedies it names, written into
    // the scenario, make plan --cluster exit 0, and the next cap up does not.
    void aStepOverTheDeviceIsAnErrorWithARemedyThatFits() {
        QTemporaryDir dir;
        const QString uncapped = generated70b(dir, {}, "70b.json");
        QVERIFY(!uncapped.isEmpty());
        int exitCode = -1;
        const QJsonObject plan = planJson(uncapped, &exitCode);
        QCOMPARE(exitCode, 1);
        const QJsonObject cost = plan.value("cost").toObject();
        qint64 peak = 0;
        int peakRank = -1;
        for (const auto& rank : cost.value("ranks").toArray())
            if (rank.toObject().value("peak_bytes").toInteger() > peak) {
                peak = rank.toObject().value("peak_bytes").toInteger();
                peakRank = rank.toObject().value("rank").toInt();
            }
        const qint64 device = cost.value("device_memory_bytes").toInteger();
        QVERIFY2(peak > device, "the generated 70B plan no longer peaks over an H100");
        const QJsonObject fit = cost.value("memory_fit").toObject();
        QCOMPARE(fit.value("fits").toBool(), false);
        QCOMPARE(fit.value("peak_rank").toInt(), peakRank);
        QCOMPARE(fit.value("over_bytes").toInteger(), peak - device);
        const QJsonObject first = plan.value("diagnostics").toArray().first().toObject();
        QCOMPARE(first.value("code").toString(), QString("out-of-memory"));
        QCOMPARE(first.value("severity").toString(), QString("error"));
        QVERIFY2(first.value("message").toString().contains(QString("rank %1 peaks").arg(peakRank)),
                 qPrintable(first.value("message").toString()));

        auto text = inspect({"plan", uncapped, "--cluster", "h100-dgx"});
        QCOMPARE(text.exitCode, 1);
        const QString out = QString::fromUtf8(text.out);
        const int diagnostics = out.indexOf("Diagnostics (");
        QVERIFY2(diagnostics >= 0 && out.indexOf("\n  error out-of-memory: ", diagnostics) ==
                                         out.indexOf('\n', diagnostics),
                 qPrintable(out.left(1500)));
        QVERIFY(out.contains("DOES NOT FIT"));

        // Each remedy, as the scenario's options, fits.
        const QJsonArray remedies = fit.value("remedies").toArray();
        QVERIFY(!remedies.isEmpty());
        bool capTried = false;
        for (const auto& value : remedies) {
            const QJsonObject remedy = value.toObject();
            QJsonObject options;
            if (!remedy.value("max_batch_numel").isNull())
                options.insert("max_batch_numel", remedy.value("max_batch_numel"));
            if (!remedy.value("gather_strategy").isNull())
                options.insert("gather_strategy", remedy.value("gather_strategy"));
            const QJsonObject fixed = planJson(generated70b(dir, options, "fixed.json"), &exitCode);
            QCOMPARE(exitCode, 0);
            const QJsonObject fixedCost = fixed.value("cost").toObject();
            QCOMPARE(fixedCost.value("memory_fit").toObject().value("fits").toBool(), true);
            QCOMPARE(fixedCost.value("peak_bytes").toInteger(),
                     remedy.value("peak_bytes").toInteger());
            QVERIFY(fixedCost.value("peak_bytes").toInteger() <= device);
            // It leaves the headroom: neither out of memory nor memory-tight.
            for (const auto& d : fixed.value("diagnostics").toArray()) {
                QVERIFY(d.toObject().value("code").toString() != "out-of-memory");
                QVERIFY(d.toObject().value("code").toString() != "memory-tight");
            }
            if (remedy.value("max_batch_numel").isNull() ||
                !remedy.value("gather_strategy").isNull())
                continue;
            capTried = true;
            const QJsonObject over{
                {"max_batch_numel", remedy.value("max_batch_numel").toInteger() + 1}};
            bool overTheBudget = false;  // the next cap up is tight or over
            for (const auto& d : planJson(generated70b(dir, over, "over.json"), &exitCode)
                                     .value("diagnostics")
                                     .toArray())
                overTheBudget |= d.toObject().value("code").toString() == "out-of-memory" ||
                                 d.toObject().value("code").toString() == "memory-tight";
            QVERIFY(overTheBudget);
        }
        QVERIFY2(capTried, "no batch cap among the remedies");
    }

    void aBadClusterExitsTwoNamingIt() {
        auto r = inspect({"plan", sample("teaching_2x2.json"), "--cluster", "h1000"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("h1000"));
        QVERIFY(r.err.contains("h100-dgx"));  // the presets listed
        QVERIFY(r.out.isEmpty());
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
        QDir dir(sample());
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

    // Editing `tp` to 3 leaves _StridedShard(dim=0, sf=4) behind: the plan
    // says so in text and JSON, naming the param, the factor and the mesh dim.
    void aStaleSplitFactorIsFlagged() {
        QTemporaryDir dir;
        QFile in(sample("llama3_70b_hsdp_tp_2x4x4.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        const QByteArray tp4 = R"("shape": [2, 4, 4], "dim_names")";
        QVERIFY(text.contains(tp4));
        text.replace(tp4, R"("shape": [2, 4, 3], "dim_names")");
        const QString edited = dir.filePath("tp3.json");
        QFile out(edited);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text) == text.size());
        out.close();

        auto plain = inspect({"plan", edited});
        QCOMPARE(plain.exitCode, 0);  // a warning: the plan still runs exactly
        const QString printed = QString::fromUtf8(plain.out);
        QVERIFY(printed.contains("warning split-factor-mismatch"));
        QVERIFY(printed.contains("'layers.0.attention.wq.weight' [R, SS(0,4), S(0)]"));
        QVERIFY(printed.contains("split factor 4"));
        QVERIFY(printed.contains("mesh dim 2 'tp' (size 3)"));

        auto json = inspect({"plan", edited, "--json"});
        QCOMPARE(json.exitCode, 0);
        bool found = false;
        const QJsonArray diagnostics =
            QJsonDocument::fromJson(json.out).object().value("diagnostics").toArray();
        for (const QJsonValue& value : diagnostics) {
            const QJsonObject d = value.toObject();
            if (d["code"].toString() != "split-factor-mismatch") continue;
            found = true;
            QCOMPARE(d["severity"].toString(), QString("warning"));
            QVERIFY(d["params"].toArray().contains(1));   // layers.0.attention.wq.weight
            QVERIFY(!d["params"].toArray().contains(4));  // wo: a plain Shard(0)
        }
        QVERIFY(found);
        QVERIFY(!inspect({"plan", sample("llama3_70b_hsdp_tp_2x4x4.json")})
                     .out.contains("split-factor-mismatch"));
    }

    // The scenarios --from-config writes are what PyTorch makes: never flagged.
    void generatedScenariosHaveNoSplitFactorMismatch_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("mesh");
        for (const char* tp : {"2", "4", "8"}) {
            QTest::addRow("llama3_70b tp=%s", tp)
                << "llama3_70b.json" << QString("dp_replicate=2,dp_shard=2,tp=") + tp;
            QTest::addRow("mixtral ep=2 tp=%s", tp)
                << "mixtral_8x7b.json" << QString("dp_replicate=2,dp_shard=4,ep=2,tp=") + tp;
        }
    }
    void generatedScenariosHaveNoSplitFactorMismatch() {
        QFETCH(QString, config);
        QFETCH(QString, mesh);
        QTemporaryDir dir;
        const QString file = dir.filePath("generated.json");
        auto made = inspect({"scenario", "--from-config",
                             HSDP_SOURCE_DIR "/tests/data/model_configs/" + config, "--mesh", mesh,
                             "--tp-plan", "torchtitan", "-o", file});
        QCOMPARE(made.exitCode, 0);
        auto plan = inspect({"plan", file, "--json"});
        QVERIFY(plan.out.contains("strided-shard-chunk"));  // it has strided shards
        QVERIFY2(!plan.out.contains("split-factor-mismatch"), plan.out.left(3000).constData());
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
