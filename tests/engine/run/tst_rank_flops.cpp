// SPDX-License-Identifier: Apache-2.0
// Every rank priced for what it computes: on every sample and worked example
// (and an expert-parallel stack that is not gathered), the Newton–Schulz
// FLOPs the cost model's schedule charges each rank equal the FLOPs of the
// matrices that rank's runner orthogonalised in a real run, as the runner
// tells its observer (RunObserver::orthogonalising), not as the cost model
// works them out.
#include <QtTest>

#include <map>
#include <mutex>

#include "collectives/newton_schulz.h"
#include "cost/step_schedule.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run_budget.h"
#include "sample_rows.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

// FLOPs per rank of what the runner orthogonalised.
class FlopsRecorder : public RunObserver {
public:
    explicit FlopsRecorder(const NewtonSchulzOptions& options) : options_(options) {}
    void gatheredTensor(int, const ParamSpec&, const Tensor&) override {}
    void finalTensor(int, const ParamSpec&, const Tensor&) override {}
    void orthogonalising(int rank, const ParamSpec&, const std::vector<int64_t>& shape) override {
        if (shape.size() < 2) return;  // a scaled copy, not Newton–Schulz
        const std::lock_guard lock(mutex_);
        flops_[rank] += newtonSchulzFlops(shape, options_);
    }
    std::map<int, double> flops() const {
        const std::lock_guard lock(mutex_);
        return flops_;
    }

private:
    NewtonSchulzOptions options_;
    mutable std::mutex mutex_;
    std::map<int, double> flops_;
};

}  // namespace

class TestRankFlops : public QObject {
    Q_OBJECT
private slots:
    void chargedEqualsComputed_data() {
        QTest::addColumn<QString>("path");
        for (const QString& path : hsdp::testing::sanitizerScenarioPaths())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
        QTest::newRow("expert_parallel_stack")
            << QStringLiteral(HSDP_SOURCE_DIR "/tests/data/scenarios/expert_parallel_stack.json");
    }

    void chargedEqualsComputed() {
        QFETCH(QString, path);
        const Scenario scenario = readScenarioFile(path.toStdString());
        const Plan plan = makePlan(scenario);
        FlopsRecorder recorder(scenario.options.newtonSchulz);
        RunOptions options = hsdp::testing::budgetedRunOptions();
        options.observer = &recorder;
        const RunResult run = runPlan(scenario, plan, options);
        QVERIFY2(run.error.empty(), run.error.c_str());
        const StepSchedule schedule = stepSchedule(scenario, plan, run.paramShapes, run.tpShapes);
        // 1-D params are scaled copies, not Newton–Schulz: the runner does not
        // orthogonalise them and the schedule charges them 3 FLOPs an element.
        std::map<int, double> chargedMatrices;
        for (size_t r = 0; r < schedule.ranks.size(); ++r)
            for (const RankWork& w : schedule.ranks[r])
                if (w.kind == WorkKind::NewtonSchulz &&
                    scenario.params[size_t(w.param())].shape.size() >= 2)
                    chargedMatrices[int(r)] += w.amount;
        const std::map<int, double> computed = recorder.flops();
        QVERIFY(!computed.empty());
        for (int r = 0; r < scenario.worldSize; ++r) {
            const double want = computed.count(r) ? computed.at(r) : 0.0;
            const double got = chargedMatrices.count(r) ? chargedMatrices.at(r) : 0.0;
            QVERIFY2(qAbs(got - want) <= 1e-9 * qMax(1.0, want),
                     qPrintable(QStringLiteral("rank %1: the schedule charges %2 FLOPs, the runner "
                                               "orthogonalised %3")
                                    .arg(r)
                                    .arg(got, 0, 'g', 12)
                                    .arg(want, 0, 'g', 12)));
        }
    }

    // The expert stacks of an expert-parallel mesh stay where they are: each
    // of the 4 ranks orthogonalises its 2 of the 8 experts, a quarter of the
    // stack, and the schedule says so.
    void expertStackChargesOwnExperts() {
        const Scenario scenario =
            readScenarioFile(HSDP_SOURCE_DIR "/tests/data/scenarios/expert_parallel_stack.json");
        const Plan plan = makePlan(scenario);
        const StepSchedule schedule = stepSchedule(scenario, plan);
        const double whole = newtonSchulzFlops({8, 48, 32}, scenario.options.newtonSchulz);
        for (size_t r = 0; r < schedule.ranks.size(); ++r) {
            double w1 = 0;
            for (const RankWork& w : schedule.ranks[r])
                if (w.kind == WorkKind::NewtonSchulz && w.param() == 0) w1 += w.amount;
            QCOMPARE(w1, whole / 4);
        }
    }
};

QTEST_APPLESS_MAIN(TestRankFlops)
#include "tst_rank_flops.moc"
