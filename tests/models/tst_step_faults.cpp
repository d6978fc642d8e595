// SPDX-License-Identifier: Apache-2.0
// What verification found wrong, step by step (stepFaults), against real
// runs of the diagnostics tour: a reference run marks exactly the gathers
// that left a param's gathered copy wrong, on exactly the ranks its
// mismatches name, and a broadcast only for a param whose result is wrong
// on the broadcast's own ranks; a corrected run marks nothing. The
// detail's errors are read back as the engine words them (detailErrors).
#include <QtTest>
#include <map>
#include <set>

#include "derived/run/run_index.h"
#include "derived/run/run_status_text.h"
#include "derived/run/step_faults.h"
#include "run/runner.h"
#include "samples.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

RunData runTour(RunMode mode) {
    RunData data;
    data.plan = computePlanResult(sample(QStringLiteral("diagnostics_tour.json")));
    RunOptions options;
    options.mode = mode;
    data.run =
        std::make_shared<const RunResult>(runPlan(*data.plan.scenario, *data.plan.plan, options));
    return data;
}

const ParamRunResult* paramResult(const RunResult& run, int param) {
    for (const ParamRunResult& p : run.params)
        if (p.index == param) return &p;
    return nullptr;
}

}  // namespace

class TestStepFaults : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aCorrectedRunMarksNothing();
    void gathersAreMarkedOnTheRanksTheirMismatchesName();
    void broadcastsAreMarkedOnlyForResultsWrongOnTheirRanks();
    void detailErrorsAreReadAsTheEngineWordsThem();

private:
    RunData corrected_, reference_;
};

void TestStepFaults::initTestCase() {
    corrected_ = runTour(RunMode::Corrected);
    reference_ = runTour(RunMode::Reference);
    QVERIFY(corrected_.isValid() && reference_.isValid());
    QVERIFY(!reference_.run->verified);
}

void TestStepFaults::aCorrectedRunMarksNothing() {
    for (const RunStep& step : runSteps(corrected_.run->trace))
        QVERIFY(stepFaults(step, *corrected_.run).empty());
    QVERIFY(indexRun(corrected_)->faults.empty());
}

// Over all the gather steps of a param, the marked ranks are exactly the
// ranks of its gather mismatches; a param whose gather verified has none.
void TestStepFaults::gathersAreMarkedOnTheRanksTheirMismatchesName() {
    const RunResult& run = *reference_.run;
    const std::vector<RunStep> steps = runSteps(run.trace);
    const StepFaults all = stepFaults(steps, run);
    QCOMPARE(all, indexRun(reference_)->faults);
    std::map<int, std::set<int>> marked;  // param -> ranks its gather steps mark
    for (const RunStep& step : steps) {
        const TraceEvent& e = run.trace.events[size_t(step.events.front())];
        const auto it = all.find(step.seq);
        QCOMPARE(it != all.end(), !stepFaults(step, run).empty());
        if (it == all.end()) continue;
        for (const StepFault& f : it->second) {
            QCOMPARE(f.gathered, e.label.phase == "gather");
            QVERIFY(!f.text.isEmpty());
            QVERIFY(std::find(e.label.params.begin(), e.label.params.end(), f.param) !=
                    e.label.params.end());
            for (int r : f.ranks)
                QVERIFY(std::find(e.groupRanks.begin(), e.groupRanks.end(), r) !=
                        e.groupRanks.end());
            if (f.gathered) marked[f.param].insert(f.ranks.begin(), f.ranks.end());
        }
    }
    int mismatched = 0;
    for (const ParamRunResult& p : run.params) {
        std::set<int> wrong;
        for (const Mismatch& m : p.mismatches)
            if (m.what == "gather") wrong.insert(m.rank);
        QVERIFY2(marked[p.index] == wrong, p.name.c_str());
        mismatched += !wrong.empty();
    }
    QVERIFY(mismatched >= 2);  // colwise.nested, rowwise.uneven, out.reversed_ranks
    const int reversed = [&] {
        for (const ParamRunResult& p : run.params)
            if (p.name == "out.reversed_ranks") return p.index;
        return -1;
    }();
    QVERIFY(!marked[reversed].empty());
}

// An update or replica broadcast is marked for a param only where the
// param's result is wrong on one of its ranks: a mismatch there, or an
// error naming one of them; every param whose step failed has one.
void TestStepFaults::broadcastsAreMarkedOnlyForResultsWrongOnTheirRanks() {
    const RunResult& run = *reference_.run;
    std::set<int> markedAfter;
    for (const RunStep& step : runSteps(run.trace)) {
        const TraceEvent& e = run.trace.events[size_t(step.events.front())];
        if (e.label.phase == "gather") continue;
        for (const StepFault& f : stepFaults(step, run)) {
            const ParamRunResult* p = paramResult(run, f.param);
            QVERIFY(p);
            QVERIFY2(p->step == CheckVerdict::Mismatch || p->step == CheckVerdict::Error ||
                         p->replicas == ReplicaVerdict::Diverged,
                     p->name.c_str());
            for (int r : f.ranks) {
                bool named = false;
                for (const Mismatch& m : p->mismatches)
                    named = named || (m.rank == r && m.what != "gather");
                for (const DetailError& error : detailErrors(p->detail))
                    named = named || std::find(error.ranks.begin(), error.ranks.end(), r) !=
                                         error.ranks.end();
                QVERIFY2(named, qPrintable(QStringLiteral("%1 rank %2").arg(f.name).arg(r)));
            }
            markedAfter.insert(f.param);
        }
    }
    for (const ParamRunResult& p : run.params)
        if (p.step == CheckVerdict::Mismatch || p.step == CheckVerdict::Error)
            QVERIFY2(markedAfter.count(p.index), p.name.c_str());
}

void TestStepFaults::detailErrorsAreReadAsTheEngineWordsThem() {
    const auto errors = detailErrors(
        "ranks 0, 1, 2: the reference's all_gather_into_tensor over mesh dim 1 (ranks [0, 1, 2]) "
        "gets unequal packed sizes: rank 0 packs 24 elements, rank 2 packs 8; Gloo fails the "
        "transfer (size mismatch); ranks 0, 1, 2: not updated: the fused all-gather failed; "
        "rank 0 rows 0..2 match no row of the true result; rank 3: the update slice [3, 8] does "
        "not fit; "
        "rank 4 expected rows 1 got rows 3; not verified: 2 of 6 holders never reported (the run "
        "stopped); +3 more");
    QCOMPARE(errors.size(), size_t(4));
    QCOMPARE(errors[0].ranks, (std::vector<int>{0, 1, 2}));
    QVERIFY(errors[0].text.endsWith(QStringLiteral("; Gloo fails the transfer (size mismatch)")));
    QCOMPARE(errors[1].text,
             QStringLiteral("ranks 0, 1, 2: not updated: the fused all-gather failed"));
    QCOMPARE(errors[2].ranks, std::vector<int>{3});
    QVERIFY(errors[3].ranks.empty());
    QVERIFY(errors[3].text.startsWith(QStringLiteral("not verified: ")));
    QVERIFY(detailErrors("rank 2 expected rows 4..7 got rows 2..5").empty());
    QVERIFY(detailErrors({}).empty());
}

QTEST_MAIN(TestStepFaults)
#include "tst_step_faults.moc"
