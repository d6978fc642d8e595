// SPDX-License-Identifier: Apache-2.0
// Whether a plan's step fits the device (cost/memory_fit.h): the 70B sample
// without its batch cap peaks far over an H100. Every expectation is worked
// out here from the memory model itself (predictStepMemory of plans made
// here), never copied from the code under test: the worst rank and the
// bytes over, the batch cap that fits with the next cap up failing, the
// other gather strategy fitting, and the plain "nothing fits" when nothing can.
#include <QtTest>

#include <algorithm>

#include "cluster/reader.h"
#include "cost/memory_fit.h"
#include "cost/plan_cost.h"
#include "cost/step_memory_model.h"
#include "plan/diagnostics.h"
#include "plan/planner.h"
#include "samples.h"
#include "scenario/reader.h"
#include "types/figures.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

// The 70B sample as generated, without the sample's max_batch_numel: one
// batch per group, every owner's full matrices at once.
Scenario uncapped70b() {
    Scenario scenario = readScenarioFile(sample("llama3_70b_hsdp_tp_2x4x4.json").toStdString());
    scenario.options.maxBatchNumel.reset();
    return scenario;
}

// The highest peak of `scenario` planned with `cap` and `strategy`, and the rank.
struct Peak {
    int rank = 0;
    int64_t bytes = 0;
    int64_t resident = 0;
};

Peak peakOf(const std::vector<StepMemory>& memory) {
    Peak peak;
    for (const StepMemory& m : memory)
        if (m.peakBytes > peak.bytes) peak = {m.rank, m.peakBytes, m.residentBytes};
    return peak;
}

Peak peakPlanned(Scenario scenario, std::optional<int64_t> cap, GatherStrategyOption strategy) {
    scenario.options.maxBatchNumel = cap;
    scenario.options.gatherStrategy = strategy;
    return peakOf(predictStepMemory(scenario, makePlan(scenario)));
}

const MemoryRemedy* remedyWith(const MemoryFit& fit, bool cap, bool strategy) {
    for (const MemoryRemedy& r : fit.remedies)
        if (r.maxBatchNumel.has_value() == cap && r.gatherStrategy.has_value() == strategy)
            return &r;
    return nullptr;
}

}  // namespace

class TestMemoryFit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aStepOverTheDeviceNamesItsWorstRankAndTheBytesOver();
    void theBatchCapItNamesIsTheLargestThatFits();
    void theOtherGatherStrategyFitsWhereItSaysSo();
    void nothingFitsIsSaidPlainly();
    void aStepThatFitsHasNoDiagnostic();
    void aStepWithinTheHeadroomIsAWarning();

private:
    Scenario scenario_;
    Plan plan_;
    Cluster h100_;
    PlanCost cost_;
};

void TestMemoryFit::initTestCase() {
    scenario_ = uncapped70b();
    plan_ = makePlan(scenario_);
    h100_ = readClusterPreset("h100-dgx");
    cost_ = costPlan(scenario_, plan_, h100_);
}

void TestMemoryFit::aStepOverTheDeviceNamesItsWorstRankAndTheBytesOver() {
    const std::vector<StepMemory> memory = predictStepMemory(scenario_, plan_);
    const Peak worst = peakOf(memory);
    const int64_t device = h100_.device.memoryBytes;
    QVERIFY2(worst.bytes > device, "the uncapped 70B sample no longer peaks over an H100");
    const MemoryFit& fit = cost_.memoryFit;
    QVERIFY(!fit.fits());
    QCOMPARE(fit.deviceBytes, device);
    QCOMPARE(fit.peakRank, worst.rank);
    QCOMPARE(fit.peakBytes, worst.bytes);
    QCOMPARE(fit.overBytes(), worst.bytes - device);
    QCOMPARE(fit.ranksOver, int(std::count_if(memory.begin(), memory.end(), [&](const auto& m) {
                 return m.peakBytes > device;
             })));

    const auto diagnostic = outOfMemoryDiagnostic(fit, plan_);
    QVERIFY(diagnostic);
    QCOMPARE(diagnostic->severity, Severity::Error);
    QCOMPARE(diagnostic->code, std::string(codes::OutOfMemory));
    const QString message = QString::fromStdString(diagnostic->message);
    QVERIFY2(message.contains(QStringLiteral("rank %1 peaks at %2")
                                  .arg(worst.rank)
                                  .arg(QString::fromStdString(humanBytes(double(worst.bytes))))),
             qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString(exactBytes(worst.bytes - device)) +
                              QStringLiteral(") over")),
             qPrintable(message));
    // Its params are the batch where the worst rank peaks, found from its entries.
    const StepMemory& rank = memory[size_t(worst.rank)];
    const auto at = std::find_if(rank.entries.begin(), rank.entries.end(),
                                 [&](const EntryMemory& e) { return e.peakBytes == worst.bytes; });
    QVERIFY(at != rank.entries.end() && at->scheduleIndex >= 0);
    const ScheduleEntry& entry = plan_.schedule[size_t(at->scheduleIndex)];
    std::vector<int> params = plan_.groups[size_t(entry.group)].batches[size_t(entry.batch)].params;
    std::sort(params.begin(), params.end());
    QCOMPARE(diagnostic->params, params);
}

void TestMemoryFit::theBatchCapItNamesIsTheLargestThatFits() {
    const MemoryFit& fit = cost_.memoryFit;
    const MemoryRemedy* remedy = remedyWith(fit, true, false);
    QVERIFY2(remedy, "no batch cap offered, though one param per batch fits an H100");
    // It leaves the headroom: a cap that just fit left the step at 99.9 %
    // of the device, memory-tight.
    const int64_t budget = remedyBudget(h100_.device.memoryBytes);
    QVERIFY(budget < h100_.device.memoryBytes);
    const int64_t cap = *remedy->maxBatchNumel;
    const Peak at = peakPlanned(scenario_, cap, scenario_.options.gatherStrategy);
    QVERIFY2(at.bytes <= budget, qPrintable(QString::number(at.bytes)));
    QCOMPARE(remedy->peakBytes, at.bytes);
    QCOMPARE(remedy->peakRank, at.rank);
    // The next cap up no longer does: the largest, not just one that does.
    QVERIFY(peakPlanned(scenario_, cap + 1, scenario_.options.gatherStrategy).bytes > budget);
    const QString message = QString::fromStdString(outOfMemoryDiagnostic(fit, plan_)->message);
    QVERIFY2(message.contains(QStringLiteral("options.max_batch_numel %1 or lower")
                                  .arg(QString::fromStdString(groupedCount(cap)))),
             qPrintable(message));
}

void TestMemoryFit::theOtherGatherStrategyFitsWhereItSaysSo() {
    const int64_t budget = remedyBudget(h100_.device.memoryBytes);
    const Peak allToAll = peakPlanned(scenario_, std::nullopt, GatherStrategyOption::AllToAll);
    const MemoryRemedy* remedy = remedyWith(cost_.memoryFit, false, true);
    QCOMPARE(remedy != nullptr, allToAll.bytes <= budget);
    QVERIFY2(remedy, "all-to-all fits, and the remedies do not say so");
    QCOMPARE(*remedy->gatherStrategy, GatherStrategy::AllToAll);
    QCOMPARE(remedy->peakBytes, allToAll.bytes);
    const QString message =
        QString::fromStdString(outOfMemoryDiagnostic(cost_.memoryFit, plan_)->message);
    QVERIFY2(message.contains(QStringLiteral("options.gather_strategy \"all-to-all\"")),
             qPrintable(message));
}

void TestMemoryFit::nothingFitsIsSaidPlainly() {
    // A device a byte smaller than the lightest step either strategy allows
    // (one param per batch), worked out here: no cap and no strategy fits.
    const Peak lightest = std::min({peakPlanned(scenario_, 1, GatherStrategyOption::AllGather),
                                    peakPlanned(scenario_, 1, GatherStrategyOption::AllToAll)},
                                   [](const Peak& a, const Peak& b) { return a.bytes < b.bytes; });
    // (The remedies leave 10 % free: a device of exactly the lightest peak has no room.)
    Cluster small = h100_;
    small.device.memoryBytes = lightest.bytes;
    const PlanCost cost = costPlan(scenario_, plan_, small);
    const MemoryFit& fit = cost.memoryFit;
    QVERIFY(!fit.fits());
    QVERIFY(fit.searched);
    QVERIFY(fit.remedies.empty());
    QCOMPARE(fit.floorBytes, lightest.bytes);
    QCOMPARE(fit.floorResidentBytes, lightest.resident);
    const QString message = QString::fromStdString(outOfMemoryDiagnostic(fit, plan_)->message);
    QVERIFY2(message.contains(QStringLiteral("no batch cap or gather strategy fits with 10.0 % "
                                             "of the device left")),
             qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString(humanBytes(double(lightest.bytes)))),
             qPrintable(message));

    // A device with the headroom above it, and one param per batch is the remedy.
    small.device.memoryBytes =
        int64_t(std::ceil(double(lightest.bytes) / (1 - kMemoryHeadroom))) + 1;
    QVERIFY(!costPlan(scenario_, plan_, small).memoryFit.remedies.empty());
}

void TestMemoryFit::aStepThatFitsHasNoDiagnostic() {
    // The sample's own cap: it fits an H100 (the README's command exits 0).
    const Scenario capped = readScenarioFile(sample("llama3_70b_hsdp_tp_2x4x4.json").toStdString());
    const Plan plan = makePlan(capped);
    const PlanCost cost = costPlan(capped, plan, h100_);
    QVERIFY(cost.memoryFit.fits());
    QVERIFY(!cost.memoryFit.searched);
    QCOMPARE(cost.memoryFit.peakBytes, peakOf(cost.memory).bytes);
    QVERIFY(!outOfMemoryDiagnostic(cost.memoryFit, plan));
    // A cluster that gives no device memory cannot say it does not fit.
    Cluster unknown = h100_;
    unknown.device.memoryBytes = 0;
    QVERIFY(costPlan(scenario_, plan_, unknown).memoryFit.fits());
}

// A peak that fits with less than 10 % of the device left is the warning
// memory-tight (a new user read 98.5 % as "fits"); at 85 % nothing is said.
void TestMemoryFit::aStepWithinTheHeadroomIsAWarning() {
    const Scenario capped = readScenarioFile(sample("llama3_70b_hsdp_tp_2x4x4.json").toStdString());
    const Plan plan = makePlan(capped);
    const int64_t peak = peakOf(predictStepMemory(capped, plan)).bytes;
    auto fitOn = [&](double share) {
        Cluster device = h100_;
        device.device.memoryBytes = int64_t(double(peak) / share);
        return costPlan(capped, plan, device).memoryFit;
    };
    const MemoryFit tight = fitOn(0.95);
    QVERIFY(tight.fits() && tight.tight());
    QVERIFY(!outOfMemoryDiagnostic(tight, plan));
    const auto warning = memoryDiagnostic(tight, plan);
    QVERIFY(warning);
    QCOMPARE(warning->severity, Severity::Warning);
    QCOMPARE(warning->code, std::string(codes::MemoryTight));
    const QString message = QString::fromStdString(warning->message);
    const std::string share = percentText(double(tight.peakBytes) / double(tight.deviceBytes));
    QVERIFY2(message.contains(QString::fromStdString(share) + QStringLiteral(" of the ")) &&
                 message.contains(QStringLiteral("leaving %1")
                                      .arg(QString::fromStdString(humanBytes(
                                          double(tight.deviceBytes - tight.peakBytes))))),
             qPrintable(message));
    QVERIFY(!warning->params.empty());
    const MemoryFit roomy = fitOn(0.85);
    QVERIFY(roomy.fits() && !roomy.tight());
    QVERIFY(!memoryDiagnostic(roomy, plan));
    // Over the device it is the error, not the warning.
    const auto over = memoryDiagnostic(fitOn(1.05), plan);
    QVERIFY(over && over->code == std::string(codes::OutOfMemory));
}

QTEST_GUILESS_MAIN(TestMemoryFit)
#include "tst_memory_fit.moc"
