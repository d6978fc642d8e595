// SPDX-License-Identifier: Apache-2.0
// The cost model's schedule is the runner's: for every sample and worked
// example, each rank's predicted collectives are the collectives its real
// run made over Gloo, in order, with the same op, group, phase, step, mesh
// dim and wire bytes; and between them it records the compute the schedule
// lists (pack, unpack, newton_schulz, update), rank by rank, in order.
#include <QtTest>
#include <regex>

#include <algorithm>
#include <set>

#include "accuracy/trace_match.h"
#include "cost/gather_strategy_choice.h"
#include "cost/plan_cost.h"
#include "cost/step_memory_model.h"
#include "cost/step_schedule.h"
#include "plan/planner.h"
#include "run/optimizer_step.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "run_budget.h"
#include "sample_rows.h"
#include "scenario/reader.h"
#include "types/figures.h"
#include "types/stopped.h"

using namespace hsdp;

namespace {

// Each rank's compute events, in start order.
std::vector<std::vector<const TraceEvent*>> computeByRank(const Trace& trace, int world) {
    std::vector<std::vector<const TraceEvent*>> out(static_cast<size_t>(world));
    for (const TraceEvent& e : trace.events)
        if (isCompute(e)) out[size_t(e.rank)].push_back(&e);  // Trace::events: (rank, start)
    return out;
}

// What a compute event is, from the plan alone: a span of its own rank (a
// negative seq no collective has, bytes 0) on one param for Newton–Schulz
// and the update, labelled with its schedule entry's group and batch.
QString computeEventProblem(const Plan& plan, const TraceEvent& e, std::set<int64_t>& seqs) {
    if (e.seq >= 0 || !seqs.insert(e.seq).second) return "seq " + QString::number(e.seq);
    if (e.groupRanks != std::vector<int>{e.rank} || e.bytes != 0) return "group or bytes";
    // One param each, but for the one fused AdamW step of the params a rank
    // updates where they live.
    const bool fusedAdamW =
        e.op == "update" && !e.label.params.empty() &&
        std::all_of(e.label.params.begin(), e.label.params.end(), [&](int p) {
            return std::count(plan.adamwParams.begin(), plan.adamwParams.end(), p) == 1;
        });
    if ((e.op == "newton_schulz" || e.op == "update") && e.label.params.size() != 1 && !fusedAdamW)
        return "params of " + QString::fromStdString(e.op);
    if (e.label.scheduleIndex < 0) return {};
    const ScheduleEntry& entry = plan.schedule.at(size_t(e.label.scheduleIndex));
    if (e.label.group != plan.groups[size_t(entry.group)].id || e.label.batch != entry.batch)
        return "group/batch label";
    return {};
}

// The plan's owners, independently of the schedule: in every entry a rank
// runs Newton–Schulz and updates exactly the params its replicate coordinate
// owns, each update after its Newton–Schulz whenever this rank ran one; a
// rank that owns nothing computes nothing there.
QString ownershipProblem(const Scenario& scenario, const Plan& plan,
                         const std::vector<std::vector<const TraceEvent*>>& byRank) {
    for (size_t i = 0; i < plan.schedule.size(); ++i) {
        const Group& group = plan.groups[size_t(plan.schedule[i].group)];
        const Batch& batch = group.batches[size_t(plan.schedule[i].batch)];
        const Mesh& mesh = scenario.mesh(group.mesh);
        for (int rank : mesh.ranks) {
            const Coord replicate = reducedReplicateCoord(group, batch, *mesh.coordinateOf(rank));
            std::set<int> owned, updated, solved;
            for (int p : batch.params)
                if (batch.owner.count(p) && batch.owner.at(p) == replicate) owned.insert(p);
            for (const TraceEvent* e : byRank[size_t(rank)]) {
                if (e->label.scheduleIndex != int(i)) continue;
                if (e->op == "newton_schulz") solved.insert(e->label.params.front());
                if (e->op == "update") {
                    updated.insert(e->label.params.front());
                    if (!batch.isShard && !solved.count(e->label.params.front()))
                        return QString("rank %1 step %2: update before Newton–Schulz")
                            .arg(rank)
                            .arg(i);
                }
            }
            const bool solvedOwned =
                std::includes(owned.begin(), owned.end(), solved.begin(), solved.end());
            if (updated != owned || !solvedOwned || (!batch.isShard && solved != owned))
                return QString("rank %1 step %2: owns %3 params, updated %4, Newton–Schulz %5")
                    .arg(rank)
                    .arg(i)
                    .arg(owned.size())
                    .arg(updated.size())
                    .arg(solved.size());
        }
    }
    return {};
}

}  // namespace

class TestStepSchedule : public QObject {
    Q_OBJECT
private slots:
    void matchesTheRun_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : hsdp::testing::sanitizerScenarioPaths())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void matchesTheRun() {
        QFETCH(QString, file);
        const Scenario scenario = readScenarioFile(file.toStdString());
        const Plan plan = makePlan(scenario);
        // HSDP_RUN_BUDGET_DIVISOR (the sanitizer presets) shrinks the run
        // further: the same collectives on smaller buffers, predicted alike.
        const RunOptions options = hsdp::testing::budgetedRunOptions();
        const ShrinkDecision shapes =
            decideShrink(scenario, plan, options.maxBytes, options.flopBudget);
        const StepSchedule schedule =
            stepSchedule(scenario, plan, shapes.paramShapes, shapes.tpShapes);
        const RunResult run = runPlan(scenario, plan, options);
        QVERIFY2(run.error.empty(), run.error.c_str());

        // The comparison is core's (cost/trace_match.h), which run --cluster
        // uses to time each collective against its prediction.
        const ScheduleTraceMatch match = matchScheduleToTrace(schedule, run.trace);
        QStringList problems;
        for (const auto& m : match.mismatches) problems << QString::fromStdString(m);
        QVERIFY2(match.matches(), qPrintable(problems.join("\n")));
        const int64_t compared = int64_t(match.pairs.size());
        QVERIFY(compared == run.rankEvents);
        // The compute spans change no count: each scheduled collective once.
        QCOMPARE(run.collectives, int64_t(schedule.collectives.size()));
        checkCompute(scenario, plan, schedule, run.trace);
    }

    // A budget at the schedule's own size gives the same schedule; one item
    // less is refused, naming the budget, before the schedule is complete.
    void aBudgetBoundsTheWorkItems() {
        const Scenario scenario =
            readScenarioFile(HSDP_SOURCE_DIR "/samples/llama3_8b_hsdp_2x4.json");
        const Plan plan = makePlan(scenario);
        const StepSchedule whole = stepSchedule(scenario, plan);
        int64_t items = 0;
        for (const auto& rank : whole.ranks) items += int64_t(rank.size());
        std::vector<std::vector<int64_t>> shapes, tpShapes;
        for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
        for (const auto& tp : scenario.tpTransitions) tpShapes.push_back(tp.shape);
        const StepSchedule within =
            stepSchedule(scenario, plan, shapes, tpShapes, ScheduleBudget{items});
        QCOMPARE(within.collectives.size(), whole.collectives.size());
        for (size_t r = 0; r < whole.ranks.size(); ++r)
            QCOMPARE(within.ranks[r].size(), whole.ranks[r].size());
        // Refused at half its size, it says how large the whole would be
        // (extrapolated from the entries built: within a factor of two), the
        // limit, and what predicts it; no batch cap is offered as a remedy.
        for (int64_t budget : {items - 1, items / 2}) {
            try {
                (void)stepSchedule(scenario, plan, shapes, tpShapes, ScheduleBudget{budget});
                QFAIL("a schedule past its budget was built");
            } catch (const ScheduleTooLarge& error) {
                const std::string what = error.what();
                QVERIFY2(
                    what.find("over the limit of " + groupedCount(budget)) != std::string::npos,
                    error.what());
                const std::smatch about = [&] {
                    std::smatch m;
                    std::regex_search(what, m, std::regex("about ([0-9,]+) work items"));
                    return m;
                }();
                QVERIFY2(!about.empty(), error.what());
                const int64_t estimate =
                    std::stoll(std::regex_replace(about[1].str(), std::regex(","), ""));
                QVERIFY2(estimate > items / 2 && estimate < items * 2, error.what());
                QVERIFY2(what.find("hsdp-inspect plan --cluster") != std::string::npos,
                         error.what());
                QVERIFY2(what.find("max_batch_numel") == std::string::npos, error.what());
            }
        }
    }

    // A request to stop ends the schedule, the cost and the memory replay
    // with Stopped; with none requested they are the same as without a token.
    void aStopRequestStopsTheCost() {
        const Scenario scenario =
            readScenarioFile(HSDP_SOURCE_DIR "/samples/llama3_8b_hsdp_2x4.json");
        const Plan plan = makePlan(scenario);
        std::vector<std::vector<int64_t>> shapes, tpShapes;
        for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
        for (const auto& tp : scenario.tpTransitions) tpShapes.push_back(tp.shape);
        std::stop_source source;
        const StepSchedule running =
            stepSchedule(scenario, plan, shapes, tpShapes, ScheduleBudget{0, source.get_token()});
        QCOMPARE(running.collectives.size(), stepSchedule(scenario, plan).collectives.size());
        QCOMPARE(predictStepMemory(scenario, plan, source.get_token()).size(),
                 size_t(scenario.worldSize));
        source.request_stop();
        QVERIFY_THROWS_EXCEPTION(Stopped,
                                 (void)stepSchedule(scenario, plan, shapes, tpShapes,
                                                    ScheduleBudget{0, source.get_token()}));
        QVERIFY_THROWS_EXCEPTION(Stopped,
                                 (void)predictStepMemory(scenario, plan, source.get_token()));
        QVERIFY_THROWS_EXCEPTION(Stopped, (void)costPlan(scenario, plan, defaultStrategyCluster(),
                                                         ScheduleBudget{0, source.get_token()}));
    }

private:
    static void checkCompute(const Scenario& scenario, const Plan& plan,
                             const StepSchedule& schedule, const Trace& trace) {
        const ComputeTraceMatch match = matchComputeToTrace(schedule, trace);
        QStringList problems;
        for (const auto& m : match.mismatches) problems << QString::fromStdString(m);
        QVERIFY2(match.matches(), qPrintable(problems.join("\n")));
        const auto byRank = computeByRank(trace, scenario.worldSize);
        std::set<int64_t> seqs;
        size_t solved = 0;
        for (int r = 0; r < scenario.worldSize; ++r) {
            size_t items = 0;
            for (const RankWork& w : schedule.ranks[size_t(r)])
                items += w.kind != WorkKind::Collective;
            QCOMPARE(byRank[size_t(r)].size(), items);
            for (const TraceEvent* e : byRank[size_t(r)]) {
                const QString why = computeEventProblem(plan, *e, seqs);
                QVERIFY2(why.isEmpty(), qPrintable(QString("rank %1: %2").arg(r).arg(why)));
                solved += e->op == "newton_schulz";
            }
        }
        const QString owners = ownershipProblem(scenario, plan, byRank);
        QVERIFY2(owners.isEmpty(), qPrintable(owners));
        QVERIFY(solved > 0);  // every sample updates something
    }
};

QTEST_GUILESS_MAIN(TestStepSchedule)
#include "tst_step_schedule.moc"
