// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "plan/planner.h"
#include "process_memory.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "samples.h"
#include "sanitizers.h"
#include "scenario/reader.h"
#include "types/geometry.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {
// This process's peak resident set, in bytes.
qint64 peakResidentBytes() {
    return hsdp::testing::processStatusBytes("VmHWM");
}
}  // namespace

class TestExecShrink : public QObject {
    Q_OBJECT
private slots:
    void shrinkDimKeepsDivisibility() {
        QCOMPARE(shrinkDim(4096, 32, {4}), int64_t(128));
        QCOMPARE(shrinkDim(4096, 1, {4}), int64_t(4096));
        // Uneven stays uneven, never below the mesh product.
        int64_t v = shrinkDim(4099, 32, {4});
        QVERIFY(v % 4 != 0 && v >= 4);
        QCOMPARE(shrinkDim(5, 100, {8}), int64_t(5));  // already below the product: kept
        QCOMPARE(shrinkDim(64, 1000, {4}), int64_t(4));
        QCOMPARE(shrinkDim(100, 1000, {}), int64_t(1));
        // Strided: divisibility by n and by n*k both kept.
        int64_t s = shrinkDim(8192, 30, {4, 16});
        QVERIFY(s % 16 == 0);
        int64_t t = shrinkDim(8200, 30, {4, 16});
        QVERIFY(t % 4 == 0 && t % 16 != 0);
    }

    void smallScenarioIsNotShrunk() {
        Scenario s =
            readScenarioFile(HSDP_SOURCE_DIR "/tests/data/examples/teaching_2x2.scenario.json");
        auto d = decideShrink(s, makePlan(s), int64_t(2) << 30, 4e10);
        QVERIFY(!d.info);
        for (const auto& p : s.params) QCOMPARE(d.paramShapes[size_t(p.index)], p.shape);
    }

    void largeScenarioShrinksMinimally() {
        Scenario s = readScenarioFile(sample("llama3_70b_hsdp_tp_2x4x4.json").toStdString());
        Plan plan = makePlan(s);
        const int64_t budget = int64_t(2) << 30;
        auto d = decideShrink(s, plan, budget, 4e10);
        QVERIFY(d.info);
        QVERIFY(d.info->factor > 1);
        QVERIFY2(d.info->reason.find("--max-bytes") != std::string::npos, d.info->reason.c_str());
        QVERIFY(estimateRunBytes(s, plan, d.paramShapes, d.tpShapes) <= budget);
        QVERIFY(estimateRunFlops(s, plan, d.paramShapes) <= 4e10);
        for (const auto& p : s.params) {
            const auto& shrunk = d.paramShapes[size_t(p.index)];
            QCOMPARE(shrunk.size(), p.shape.size());
            const auto div = shardDivisors(*p.placements, s.mesh(p.mesh).shape, p.ndim());
            for (size_t k = 0; k < shrunk.size(); ++k)
                for (auto x : div[k]) {
                    QCOMPARE(shrunk[k] % x == 0, p.shape[k] % x == 0);
                    QVERIFY(shrunk[k] >= x);
                }
        }
        // The factor is the smallest that fits: one less does not.
        auto smaller = shrinkAtFactor(s, d.info->factor - 1);
        QVERIFY(estimateRunBytes(s, plan, smaller.paramShapes, smaller.tpShapes) > budget ||
                estimateRunFlops(s, plan, smaller.paramShapes) > 4e10);
    }

    // The estimate a shrink is decided on against what the shrunk run
    // measures. It bounds the run: the ranks' ledgers (their optimizer-step
    // buffers at their peaks) summed, and this process's resident set grown
    // by the run, stay below it, so a run shrunk to --max-bytes fits in it.
    // And it is not needlessly loose: a run shrunk further than it must is
    // less like the real one (today the estimate is about 4x the growth:
    // it holds every buffer at once, where the ranks free theirs per entry).
    void estimateBoundsWhatTheShrunkRunMeasures() {
        const Scenario s = readScenarioFile(sample("llama3_70b_hsdp_tp_2x4x4.json").toStdString());
        const Plan plan = makePlan(s);
        RunOptions options;
        // The sanitizer presets divide the run budgets, as the other run tests do.
        options.maxBytes = (int64_t(512) << 20) / hsdp::testing::runBudgetDivisor();
        options.flopBudget = 1e13;  // the bytes decide the shrink
        const qint64 residentBefore = peakResidentBytes();
        const RunResult run = runPlan(s, plan, options);
        const qint64 grown = peakResidentBytes() - residentBefore;
        QVERIFY2(run.error.empty(), run.error.c_str());
        QVERIFY(run.shrink.has_value());
        const int64_t estimate = estimateRunBytes(s, plan, run.paramShapes, run.tpShapes);
        int64_t ledgers = 0;
        for (const StepMemory& m : run.memory) ledgers += m.peakBytes;
        const QByteArray figures =
            QStringLiteral("estimate %1 B, ranks' ledgers summed %2 B, resident set grown %3 B")
                .arg(estimate)
                .arg(ledgers)
                .arg(grown)
                .toUtf8();
        qInfo("%s: the estimate is %.1fx the growth", figures.constData(),
              double(estimate) / double(std::max<qint64>(grown, 1)));
        QVERIFY2(estimate <= options.maxBytes, figures.constData());
        QVERIFY2(run.memory.size() == size_t(s.worldSize), figures.constData());
        QVERIFY2(ledgers > 0 && ledgers <= estimate, figures.constData());
#if !HSDP_ADDRESS_SANITIZED && !HSDP_THREAD_SANITIZED
        // (A sanitizer's shadow memory and quarantine are not the run's.)
        QVERIFY2(grown > 0 && grown <= estimate, figures.constData());
        QVERIFY2(estimate <= 8 * grown, figures.constData());
#endif
    }

    void figureTexts() {
        QCOMPARE(QString::fromStdString(hsdp::humanBytes(2.0 * 1024 * 1024 * 1024)),
                 QString("2.0 GiB"));
        QCOMPARE(QString::fromStdString(hsdp::humanBytes(512)), QString("512 B"));
        QCOMPARE(QString::fromStdString(durationText(2.154)), QString("2.15 s"));
        QCOMPARE(QString::fromStdString(durationText(0.0412)), QString("41.2 ms"));
        QCOMPARE(QString::fromStdString(durationText(812e-6)), QString("812 µs"));
        QCOMPARE(QString::fromStdString(durationText(35e-9)), QString("35.0 ns"));
        // A rounding residue is no time: not "0.000183 µs".
        QCOMPARE(QString::fromStdString(durationText(1.83e-13)), QString("0 s"));
        QCOMPARE(QString::fromStdString(durationText(0)), QString("0 s"));
    }
};

QTEST_APPLESS_MAIN(TestExecShrink)
#include "tst_exec_shrink.moc"
