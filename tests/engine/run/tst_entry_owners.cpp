// SPDX-License-Identifier: Apache-2.0
// The step's rules (core/step/entry_owners.h) are what the runner does: in a
// real run, under either gather strategy, a rank runs Newton–Schulz on a
// param exactly where its owner class's compute shard says (every rank of the
// class for a batch held whole); a replicate coordinate listed twice in the
// shard compute plan follows its last plan; a param on another mesh than its
// group's is refused.
#include <QtTest>

#include <algorithm>
#include <set>
#include <tuple>

#include "plan/planner.h"
#include "run/runner.h"
#include "run_budget.h"
#include "scenario/reader.h"
#include "step/entry_owners.h"

using namespace hsdp;

namespace {

using Solved = std::set<std::tuple<int, int, int>>;  // (schedule entry, rank, param)

// Where the rules say each entry's Newton–Schulz runs.
Solved expectedSolves(const Scenario& scenario, const Plan& plan) {
    Solved out;
    for (size_t i = 0; i < plan.schedule.size(); ++i) {
        const Group& group = plan.groups[size_t(plan.schedule[i].group)];
        const Batch& batch = group.batches[size_t(plan.schedule[i].batch)];
        const Mesh& mesh = scenario.mesh(group.mesh);
        const EntryOwners owners = entryOwners(scenario, group, batch, mesh, "test");
        for (int rank : mesh.ranks) {
            const Coord coord = *mesh.coordinateOf(rank);
            const OwnerClass* mine = owners.classAt(group, batch, coord);
            if (!mine) continue;
            Coord shard;
            for (int d : group.shardMeshDims) shard.push_back(coord[size_t(d)]);
            for (size_t k = 0; k < mine->owned.size(); ++k)
                if (!batch.isShard || mine->computeShards[k] == shard)
                    out.insert({int(i), rank, mine->owned[k]});
        }
    }
    return out;
}

}  // namespace

class TestEntryOwners : public QObject {
    Q_OBJECT
private slots:
    void computeWhereTheRunnerComputes_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("allToAll");
        for (const char* name : {"samples/teaching_2x2.json", "samples/llama3_8b_hsdp_2x4.json",
                                 "tests/data/examples/batches_and_replica_split.scenario.json"})
            for (bool allToAll : {false, true})
                QTest::newRow(qPrintable(QString(name) + (allToAll ? " all-to-all" : "")))
                    << QString(HSDP_SOURCE_DIR "/") + name << allToAll;
    }

    void computeWhereTheRunnerComputes() {
        QFETCH(QString, file);
        QFETCH(bool, allToAll);
        Scenario scenario = readScenarioFile(file.toStdString());
        if (allToAll) scenario.options.gatherStrategy = GatherStrategyOption::AllToAll;
        const Plan plan = makePlan(scenario);
        const RunResult run = runPlan(scenario, plan, hsdp::testing::budgetedRunOptions());
        QVERIFY2(run.error.empty(), run.error.c_str());
        Solved solved;
        for (const TraceEvent& e : run.trace.events)
            if (e.op == "newton_schulz" && e.label.scheduleIndex >= 0)
                solved.insert({e.label.scheduleIndex, e.rank, e.label.params.at(0)});
        const Solved expected = expectedSolves(scenario, plan);
        QVERIFY(!expected.empty());
        QCOMPARE(solved, expected);
    }

    void aCoordinateListedTwiceFollowsItsLastPlan() {
        const Scenario scenario = readScenarioFile(HSDP_SOURCE_DIR "/samples/teaching_2x2.json");
        Plan plan = makePlan(scenario);
        Group* group = nullptr;
        Batch* batch = nullptr;
        for (Group& g : plan.groups)
            for (Batch& b : g.batches)
                if (b.isShard && !b.shardCompute.empty() && !g.shardMeshDims.empty())
                    group = &g, batch = &b;
        QVERIFY(batch);
        const ShardCompute first = batch->shardCompute.front();
        QVERIFY(!first.computeCoord.empty());
        ShardCompute moved = first;  // every param one shard further along
        for (auto& [p, shard] : moved.computeCoord)
            shard[0] = (shard[0] + 1) % group->meshShape[size_t(group->shardMeshDims[0])];
        const int p = first.computeCoord.begin()->first;
        const Mesh& mesh = scenario.mesh(group->mesh);
        auto classShard = [&] {
            const EntryOwners owners = entryOwners(scenario, *group, *batch, mesh, "test");
            const OwnerClass& c = owners.classes.at(first.replicateCoord);
            for (size_t k = 0; k < c.owned.size(); ++k)
                if (c.owned[k] == p) return c.computeShards[k];
            return Coord{};
        };
        batch->shardCompute.push_back(moved);
        QCOMPARE(computeShard(*group, *batch, first.replicateCoord, p), moved.computeCoord.at(p));
        QCOMPARE(classShard(), moved.computeCoord.at(p));
        batch->shardCompute.insert(batch->shardCompute.begin(), moved);
        batch->shardCompute.pop_back();
        QCOMPARE(computeShard(*group, *batch, first.replicateCoord, p), first.computeCoord.at(p));
        QCOMPARE(classShard(), first.computeCoord.at(p));
        // Without a plan for the coordinate: shard 0.
        batch->shardCompute.clear();
        QCOMPARE(computeShard(*group, *batch, first.replicateCoord, p),
                 Coord(group->shardMeshDims.size(), 0));
    }

    void aParamOnAnotherMeshIsRefused() {
        const Scenario scenario = readScenarioFile(HSDP_SOURCE_DIR "/samples/teaching_2x2.json");
        int p = -1;
        for (const auto& spec : scenario.params)
            if (spec.placements) p = spec.index;
        QVERIFY(p >= 0);
        const Mesh same = scenario.mesh(scenario.params[size_t(p)].mesh);
        QVERIFY(heldOnEntry(scenario, same, p, "test"));  // equal shape and ranks
        std::vector<int> reversed(same.ranks.rbegin(), same.ranks.rend());
        const Mesh other(same.name, same.shape, same.dimNames, reversed);
        try {
            (void)heldOnEntry(scenario, other, p, "who");
            QFAIL("a param on another mesh was taken as held");
        } catch (const std::logic_error& error) {
            QVERIFY2(std::string(error.what()).rfind("who: param ", 0) == 0, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestEntryOwners)
#include "tst_entry_owners.moc"
