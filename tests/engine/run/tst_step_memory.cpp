// SPDX-License-Identifier: Apache-2.0
// Memory, exact: for every sample and worked example, the model's replay of
// the step (cost/step_memory_model.h) equals what each rank's ledger counted
// where the runner allocated its buffers, rank for rank: the peak, what made
// it up, the resident bytes, every byte allocated and each entry's peak. A
// buffer the model does not know breaks the equality; a case small enough to
// add up by hand pins the model's figures.
#include <QtTest>

#include "cost/step_memory_model.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run_budget.h"
#include "runtime/memory_ledger.h"
#include "sample_rows.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

// HSDP_RUN_BUDGET_DIVISOR (the sanitizer presets) shrinks the runs further.
RunOptions budgetOptions() {
    return hsdp::testing::budgetedRunOptions();
}

QString describe(const StepMemory& m) {
    QStringList kinds;
    for (int k = 0; k < kMemoryKinds; ++k)
        if (m.atPeak[size_t(k)])
            kinds << QStringLiteral("%1=%2")
                         .arg(QString::fromStdString(std::string(memoryKindName(MemoryKind(k)))))
                         .arg(m.atPeak[size_t(k)]);
    return QStringLiteral("peak %1 (%2) resident %3 allocated %4 over %5 entries")
        .arg(m.peakBytes)
        .arg(kinds.join(' '))
        .arg(m.residentBytes)
        .arg(m.allocatedBytes)
        .arg(m.entries.size());
}

// Copies every gathered matrix, counted where it is allocated like the
// runner's own buffers: one buffer more than the runner's code makes, which
// the model cannot know.
class CopyingObserver : public RunObserver {
public:
    void gatheredTensor(int, const ParamSpec&, const Tensor& full) override {
        const Tensor copy = full;
        const MemoryCharge counted(MemoryKind::FullMatrix, copy.numel() * int64_t(sizeof(float)));
    }
    void finalTensor(int, const ParamSpec&, const Tensor&) override {}
};

const char* kByHand = R"json({
  "format": "hsdp-scenario/1", "name": "memory by hand",
  "mesh": {"shape": [2], "dim_names": ["dp_shard"]},
  "params": [{"name": "w", "shape": [8, 4], "dtype": "f32", "placements": ["S(0)"]}]
})json";

}  // namespace

class TestStepMemory : public QObject {
    Q_OBJECT
private slots:
    void predictedIsMeasured_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : hsdp::testing::sanitizerScenarioPaths())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void predictedIsMeasured() {
        QFETCH(QString, file);
        const Scenario scenario = readScenarioFile(file.toStdString());
        const Plan plan = makePlan(scenario);
        const RunResult run = runPlan(scenario, plan, budgetOptions());
        QVERIFY2(run.error.empty(), run.error.c_str());
        QCOMPARE(int(run.memory.size()), scenario.worldSize);
        const auto predicted = predictStepMemory(scenario, plan, run.paramShapes);
        for (const auto& measured : run.memory) {
            const StepMemory& p = predicted[size_t(measured.rank)];
            QVERIFY2(p == measured, qPrintable(QStringLiteral("rank %1: predicted %2, measured %3")
                                                   .arg(measured.rank)
                                                   .arg(describe(p), describe(measured))));
            QVERIFY(measured.peakBytes >= measured.residentBytes);
            QVERIFY(measured.residentBytes > 0 || scenario.params.empty());
        }
    }

    void anUnaccountedBufferIsSeen() {
        const Scenario scenario =
            readScenarioFile(hsdp::testing::sample("llama3_8b_hsdp_2x4.json").toStdString());
        const Plan plan = makePlan(scenario);
        CopyingObserver copier;
        RunOptions options = budgetOptions();
        options.observer = &copier;
        const RunResult run = runPlan(scenario, plan, options);
        QVERIFY2(run.error.empty(), run.error.c_str());
        const auto predicted = predictStepMemory(scenario, plan, run.paramShapes);
        int differ = 0;
        for (const auto& measured : run.memory) {
            const StepMemory& p = predicted[size_t(measured.rank)];
            QVERIFY(measured.allocatedBytes >= p.allocatedBytes);
            differ += !(p == measured);
        }
        QCOMPARE(differ, scenario.worldSize);  // every rank gathers something here
    }

    // Two ranks share one 8x4 f32 matrix by rows (4x4 = 64 B each); both own
    // it (no replicate dim), both gather it, rank 0 computes.
    void addsUpByHand() {
        const Scenario scenario = readScenario(kByHand);
        const Plan plan = makePlan(scenario);
        const auto memory = predictStepMemory(scenario, plan);
        QCOMPARE(int(memory.size()), 2);
        for (const auto& m : memory) {
            QCOMPARE(m.residentBytes, 3 * 64);  // W, G, momentum shards
            // Resident 192 + the gather buffer (two slots of 64 B padded to
            // 512) 1,024 + the full fp32 matrix 128.
            QCOMPARE(m.peakBytes, 192 + 1024 + 128);
            QCOMPARE(m.atPeak[size_t(MemoryKind::GatherBuffer)], 1024);
            QCOMPARE(m.atPeak[size_t(MemoryKind::FullMatrix)], 128);
        }
        // Allocated: resident 192, gather buffer 1,024, full matrix 128, update
        // payload 128, update broadcast buffer 512 (128 rounded up), replica
        // payload 64; rank 0 also Newton–Schulz's workspace for 8x4 (k = 4,
        // n = 8): X and B·X 2·4·8, A and B 2·4·4 floats = 384 B.
        const int64_t common = 192 + 1024 + 128 + 128 + 512 + 64;
        QCOMPARE(memory[0].allocatedBytes + memory[1].allocatedBytes, 2 * common + 384);
        // The measured run agrees.
        const RunResult run = runPlan(scenario, plan, RunOptions());
        QVERIFY2(run.error.empty(), run.error.c_str());
        QCOMPARE(int(run.memory.size()), 2);
        QVERIFY(run.memory[0] == memory[0] && run.memory[1] == memory[1]);
    }
};

QTEST_GUILESS_MAIN(TestStepMemory)
#include "tst_step_memory.moc"
