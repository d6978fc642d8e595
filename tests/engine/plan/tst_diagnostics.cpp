// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <QRegularExpression>
#include <cstdio>

#include "export/plan_text.h"
#include "plan/diagnostics.h"
#include "plan/hazards.h"
#include "plan/load_imbalance.h"
#include "plan/planner.h"
#include "planner_fixtures.h"
#include "types/figures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

std::vector<std::string> split(const QString& text, char sep) {
    std::vector<std::string> out;
    for (const auto& s : text.split(sep, Qt::SkipEmptyParts)) out.push_back(s.toStdString());
    return out;
}

QString codesText(const Plan& plan) {
    QStringList out;
    for (const auto& d : plan.diagnostics)
        out << QString::fromStdString(d.code + ":" + joinInts(d.params));
    return out.join(' ');
}

}  // namespace

class TestDiagnostics : public QObject {
    Q_OBJECT
private slots:
    void hazards_data() {
        QTest::addColumn<QString>("meshShape");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("placements");
        QTest::addColumn<QString>("codes");
        QTest::newRow("even FSDP") << "2x2"
                                   << "8x8"
                                   << "R S(0)"
                                   << "";
        QTest::newRow("uneven") << "2x2"
                                << "5x8"
                                << "S(0) S(1)"
                                << "uneven-shard:0";
        QTest::newRow("uneven by the product") << "2x2"
                                               << "6x8"
                                               << "S(0) S(0)"
                                               << "uneven-shard:0 nested-shard-order:0";
        QTest::newRow("nested") << "2x2"
                                << "8x8"
                                << "S(0) S(0)"
                                << "nested-shard-order:0";
        QTest::newRow("nested over a size-1 dim is not nested") << "1x2"
                                                                << "8x8"
                                                                << "S(0) S(0)"
                                                                << "";
        QTest::newRow("strided") << "2x2"
                                 << "8x8"
                                 << "SS(0,2) S(0)"
                                 << "strided-shard-chunk:0";
        QTest::newRow("strided on a size-1 dim") << "1x2"
                                                 << "8x8"
                                                 << "SS(0,2) S(0)"
                                                 << "";
        QTest::newRow("strided + plain is not nested") << "2x2"
                                                       << "8x8"
                                                       << "SS(0,2) S(0)"
                                                       << "strided-shard-chunk:0";
        QTest::newRow("not gathered: no hazards") << "2x2"
                                                  << "5x6x8"
                                                  << "S(0) R"
                                                  << "";
        QTest::newRow("negative dims normalised") << "2x2"
                                                  << "8x5"
                                                  << "R S(-1)"
                                                  << "uneven-shard:0";
        // An expert stack split by expert and on a matrix dim is gathered
        // over both mesh dims; Newton-Schulz needs only each expert's matrix.
        QTest::newRow("stack split on its stack dim and gathered") << "2x2x2"
                                                                   << "8x16x8"
                                                                   << "R S(0) S(1)"
                                                                   << "stack-dim-gathered:0";
        QTest::newRow("stack split by a negative stack dim") << "2x2x2"
                                                             << "4x8x16x8"
                                                             << "R S(-3) S(-1)"
                                                             << "stack-dim-gathered:0";
        QTest::newRow("stack split on its stack dim only: not gathered") << "2x2x2"
                                                                         << "8x16x8"
                                                                         << "R S(0) R"
                                                                         << "";
        QTest::newRow("stack split on matrix dims only") << "2x2x2"
                                                         << "8x16x8"
                                                         << "R S(1) S(2)"
                                                         << "";
        QTest::newRow("stack dim over a size-1 mesh dim") << "2x1x2"
                                                          << "8x16x8"
                                                          << "R S(0) S(1)"
                                                          << "";
    }

    void hazards() {
        QFETCH(QString, meshShape);
        QFETCH(QString, shape);
        QFETCH(QString, placements);
        QFETCH(QString, codes);
        std::vector<int64_t> mesh, dims;
        for (const auto& s : split(meshShape, 'x')) mesh.push_back(std::stoll(s));
        for (const auto& s : split(shape, 'x')) dims.push_back(std::stoll(s));
        ScenarioBuilder b;
        b.mesh(mesh);
        b.param("p", dims, split(placements, ' '));
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan), codes);
        for (const auto& d : plan.diagnostics) {
            QCOMPARE(d.severity, Severity::Warning);
            QVERIFY(d.message.find("'p'") != std::string::npos);  // the message names the param
        }
    }

    // The bytes stack-dim-gathered gives: what a rank assembling the stack
    // receives of the slices it does not compute, by the mesh dims' names.
    void stackDimGatheredSaysTheBytesMovedForNothing() {
        ScenarioBuilder b;
        b.mesh({2, 4, 2}, {"dp_replicate", "ep", "efsdp"});
        b.param("experts.w1", {8, 64, 32}, std::vector<std::string>{"R", "S(0)", "S(1)"}, true,
                "main", DType::BF16);
        const Plan plan = makePlan(b.build());
        const auto d =
            std::find_if(plan.diagnostics.begin(), plan.diagnostics.end(),
                         [](const Diagnostic& d) { return d.code == codes::StackDimGathered; });
        QVERIFY(d != plan.diagnostics.end());
        const int64_t bf16 = 2, whole = 8 * 64 * 32 * bf16;
        const int64_t ownShare = whole / 4;  // ep splits the 8 experts 4 ways
        const std::string bytes = exactBytes(whole - ownShare);
        QVERIFY2(d->message.find(bytes) != std::string::npos, d->message.c_str());
        QVERIFY2(d->message.find("mesh dim 1 (ep) split the stack 4 ways") != std::string::npos,
                 d->message.c_str());
        QVERIFY2(d->message.find("within mesh dim 2 (efsdp)") != std::string::npos,
                 d->message.c_str());
    }

    // A process group orders its ranks ascending: a shard mesh dim whose mesh
    // order is not makes the reference gather other ranks' rows (found by
    // tst_run_fuzz: reference mode failed on an even S(1) over ranks [4, 0, 6, 2]).
    void shardRankOrder_data() {
        QTest::addColumn<QString>("meshShape");
        QTest::addColumn<QString>("ranks");
        QTest::addColumn<QString>("placements");
        QTest::addColumn<QString>("codes");
        QTest::newRow("descending shard dim") << "4"
                                              << "4,0,6,2"
                                              << "S(1)"
                                              << "shard-rank-order:0";
        QTest::newRow("ascending shard dim") << "4"
                                             << "0,2,4,6"
                                             << "S(1)"
                                             << "";
        QTest::newRow("permuted only across lines") << "2x2"
                                                    << "0,2,1,3"
                                                    << "S(0) S(1)"
                                                    << "";
        QTest::newRow("permuted replicate dim") << "2x2"
                                                << "2,3,0,1"
                                                << "R S(0)"
                                                << "";
        QTest::newRow("permuted size-1 shard dim") << "2x1"
                                                   << "1,0"
                                                   << "R S(0)"
                                                   << "";
        QTest::newRow("reversed tp dim sharded") << "2x2"
                                                 << "1,0,3,2"
                                                 << "R S(0)"
                                                 << "shard-rank-order:0";
        QTest::newRow("not gathered") << "4"
                                      << "3,2,1,0"
                                      << "S(0)"
                                      << "";
        // Only the owner's shard group gathers (owner coordinate 0 here).
        QTest::newRow("owner's line ascending") << "2x2"
                                                << "0,1,3,2"
                                                << "R S(0)"
                                                << "";
    }

    void shardRankOrder() {
        QFETCH(QString, meshShape);
        QFETCH(QString, ranks);
        QFETCH(QString, placements);
        QFETCH(QString, codes);
        std::vector<int64_t> mesh;
        for (const auto& s : split(meshShape, 'x')) mesh.push_back(std::stoll(s));
        ScenarioBuilder b;
        b.mesh(mesh, {}, ints(ranks.toStdString()));
        const bool matrix = placements != "S(0)";  // the "not gathered" row uses a 3-D tensor
        b.param("p", matrix ? std::vector<int64_t>{8, 8} : std::vector<int64_t>{8, 4, 4},
                split(placements, ' '));
        // Sparse rank lists (0,2,4,6) also leave world ranks unused; not this test's subject.
        QCOMPARE(codesText(makePlan(b.build())).remove(QRegularExpression(" ?world-ranks-unused:")),
                 codes);
    }

    // Two equal params: the second is owned by replicate coordinate 1, whose
    // shard group [3, 2] is out of order; the first's [0, 1] is fine.
    void shardRankOrderFollowsTheOwner() {
        ScenarioBuilder b;
        b.mesh({2, 2}, {}, {0, 1, 3, 2});
        b.param("a", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("b", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        QCOMPARE(codesText(makePlan(b.build())), QString("shard-rank-order:1"));
    }

    // Owners over two replicate dims: the per-group table behind the hazard is
    // indexed like owner coordinates, row-major. Only the shard line of
    // replicate coordinate (1, 0) (ranks 5, 4) is reversed; four equal params
    // go to (0,0), (0,1), (1,0), (1,1) in order; the frozen one has no owner
    // and is judged on every line.
    void shardRankOrderOverTwoReplicateDims() {
        ScenarioBuilder b;
        b.mesh({2, 2, 2}, {}, {0, 1, 2, 3, 5, 4, 6, 7});
        const std::vector<std::string> layout{"R", "R", "S(0)"};
        for (int i = 0; i < 4; ++i) b.param("p" + std::to_string(i), {8, 8}, layout);
        b.param("frozen", {8, 8}, layout, false);
        QCOMPARE(codesText(makePlan(b.build())),
                 QString("shard-rank-order:2,4 frozen-param-no-owner:4"));
    }

    // With a replica count the owner is a reduced coordinate: the reversed
    // line at replicate coordinate 3 of a size-4 dim gathers for owner 3 % 2 = 1.
    void shardRankOrderUnderReplicaCount() {
        ScenarioBuilder b;
        b.mesh({4, 2}, {}, {0, 1, 2, 3, 4, 5, 7, 6});
        b.options().hsdpReplicaCount = 2;
        b.param("a", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("b", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        QCOMPARE(codesText(makePlan(b.build())), QString("shard-rank-order:1"));
    }

    void onePerCodeListingParamsAscending() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("u1", {5, 8}, std::vector<std::string>{"S(0)", "S(1)"});
        b.param("n1", {8, 8}, std::vector<std::string>{"S(0)", "S(0)"});
        b.param("frozen1", {8, 8}, std::vector<std::string>{"R", "S(0)"}, false);
        b.param("u2", {8, 7}, std::vector<std::string>{"R", "S(1)"});
        b.param("n2", {16, 8}, std::vector<std::string>{"S(0)", "S(0)"});
        b.param("frozen.plain", {8}, std::nullopt, false);  // no group: no frozen diagnostic
        b.param("frozen2", {8}, std::vector<std::string>{"R", "R"}, false);
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan),
                 QString("uneven-shard:0,3 nested-shard-order:1,4 frozen-param-no-owner:2,6"));
        QCOMPARE(plan.diagnostics[2].severity, Severity::Info);
        QVERIFY(!plan.hasErrors());
        QVERIFY(plan.diagnostics[0].message.find(" more") == std::string::npos);
    }

    void longDetailListsAreCapped() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        for (int i = 0; i < 20; ++i)
            b.param("u" + std::to_string(i), {5, 8}, std::vector<std::string>{"S(0)", "S(1)"});
        Plan plan = makePlan(b.build());
        QCOMPARE(plan.diagnostics.size(), size_t(1));
        QCOMPARE(plan.diagnostics[0].params.size(), size_t(20));
        QVERIFY(plan.diagnostics[0].message.find("and 14 more") != std::string::npos);
    }

    void errorsComeWithPlanningGoingOn() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("ok", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("bad.dim", {8, 8}, std::vector<std::string>{"R", "S(2)"});
        b.param("partial", {8, 8}, std::vector<std::string>{"P(sum)", "S(0)"});
        b.param("bad.dim2", {8}, std::vector<std::string>{"S(-2)", "R"});
        Plan plan = makePlan(b.build());
        QVERIFY(plan.hasErrors());
        QCOMPARE(codesText(plan), QString("invalid-shard-dim:1,3 unsupported-placement:2"));
        QCOMPARE(plan.rejectedParams, (std::vector<int>{1, 2, 3}));
        QCOMPARE(plan.groups.size(), size_t(1));
        QCOMPARE(plan.groups[0].batches[0].owner.size(), size_t(1));
        QVERIFY(plan.diagnostics[0].message.find("Invalid shard dim 2 for tensor ndim 2.") !=
                std::string::npos);
        QVERIFY(plan.diagnostics[0].message.find("Invalid shard dim -2 for tensor ndim 1.") !=
                std::string::npos);
    }

    void unknownMeshIsRejectedNotACrash() {
        ScenarioBuilder b;
        b.mesh({2, 2}, {}, {}, "a").mesh({2}, {}, {}, "b");
        b.param("x", {8, 8}, std::vector<std::string>{"R", "S(0)"}, true, "nowhere");
        b.param("y", {8, 8}, std::vector<std::string>{"R"}, true,
                "a");  // one placement for a 2-d mesh
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan), QString("unknown-mesh:0 placement-count-mismatch:1"));
        QCOMPARE(plan.rejectedParams, (std::vector<int>{0, 1}));
    }

    void ownerImbalance() {
        ScenarioBuilder b;
        b.mesh({2});
        b.param("big", {1000}, std::vector<std::string>{"R"});
        b.param("small", {10}, std::vector<std::string>{"R"});
        b.mesh({4}, {}, {0, 1, 2, 3}, "wide");
        b.param("alone", {1000}, std::vector<std::string>{"S(0)"}, true, "wide");
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan), QString("owner-imbalance:0,1"));
        QCOMPARE(plan.diagnostics[0].severity, Severity::Warning);
        // One measure everywhere: loads 1000 and 10 are max/mean 1000/505 = 1.98 in the
        // diagnostic and in the plan's imbalance line for the same batch.
        QVERIFY2(plan.diagnostics[0].message.find("max/mean 1.98") != std::string::npos,
                 plan.diagnostics[0].message.c_str());
        QVERIFY(planToText(plan, b.build()).find("imbalance: max/mean 1.98") != std::string::npos);
    }

    void imbalanceThresholdIsMaxOverMean() {
        // Loads 3 and 1: max/mean 1.5 is not above the threshold; 4 and 1 (1.6) is.
        for (auto [big, flagged] : {std::pair{3, false}, std::pair{4, true}}) {
            ScenarioBuilder b;
            b.mesh({2});
            b.param("big", {big}, std::vector<std::string>{"R"});
            b.param("small", {1}, std::vector<std::string>{"R"});
            QCOMPARE(makePlan(b.build()).diagnostics.size(), size_t(flagged ? 1 : 0));
        }
    }

    void idleCoordinateInAGroupIsFlaggedWithItsLoads() {
        // Two params, two coordinates, each param its own batch: both land on coordinate 0
        // (every batch restarts the greedy), so coordinate 1 stays idle over the group.
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("w1", {11008, 4096}, std::vector<std::string>{"R", "S(0)"});
        b.param("w2", {11008, 4096}, std::vector<std::string>{"R", "S(0)"});
        b.options().maxBatchNumel = 1;
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan), QString("owner-imbalance:0,1"));
        QVERIFY2(plan.diagnostics[0].message.find("max/mean 2.00 (min 0, max 90177536)") !=
                     std::string::npos,
                 plan.diagnostics[0].message.c_str());
    }

    void worldRanksNoMeshUsesAreAWarning() {
        // The mesh lists ranks 8..15, so the world size defaults to 16.
        ScenarioBuilder b;
        b.mesh({2, 4}, {}, {8, 9, 10, 11, 12, 13, 14, 15});
        b.param("w", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan), QString("world-ranks-unused:"));
        QCOMPARE(plan.diagnostics[0].severity, Severity::Warning);
        QVERIFY2(plan.diagnostics[0].message.find("8 of its ranks (0..7)") != std::string::npos,
                 plan.diagnostics[0].message.c_str());
        QVERIFY(!plan.hasErrors());
    }

    // A rank no mesh uses still runs the plain params' local update (the
    // plan's rank work lists them): the warning must say so, not "own nothing".
    void unusedRanksSayWhatTheyStillCompute() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("w", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("rope.cache", {16, 4}, std::nullopt);
        Scenario scenario = b.build();
        scenario.worldSize = 6;
        Plan plan = makePlan(scenario);
        QCOMPARE(codesText(plan), QString("world-ranks-unused:"));
        const std::string& message = plan.diagnostics[0].message;
        for (int rank : {4, 5}) {
            const RankOwnership& work = plan.ranks[static_cast<size_t>(rank)];
            QVERIFY(work.owned.empty());
            QVERIFY(!work.computed.empty());
            for (int param : work.computed)
                QVERIFY2(message.find(scenario.params[static_cast<size_t>(param)].name) !=
                             std::string::npos,
                         message.c_str());
        }
        QVERIFY2(message.find("own nothing") == std::string::npos, message.c_str());
        QVERIFY2(message.find("own no DTensor param") != std::string::npos, message.c_str());
    }

    // A new user sharded a dim named dp_replicate and heard nothing: the plan
    // follows placements, so a name that says otherwise is a warning.
    void shardingADimNamedReplicateIsAWarning() {
        ScenarioBuilder b;
        b.mesh({2, 2}, {"dp_replicate", "dp_shard"});
        b.param("fine", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("odd", {8, 8}, std::vector<std::string>{"S(1)", "S(0)"});
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan), QString("replicate-dim-sharded:1"));
        QCOMPARE(plan.diagnostics[0].severity, Severity::Warning);
        const std::string& message = plan.diagnostics[0].message;
        QVERIFY2(message.find("'odd' shards mesh") != std::string::npos, message.c_str());
        QVERIFY2(message.find("dim 'dp_replicate'") != std::string::npos, message.c_str());
    }

    void noParamsIsAWarning() {
        ScenarioBuilder b;
        b.mesh({2});
        Plan plan = makePlan(b.build());
        QCOMPARE(codesText(plan), QString("no-params:"));
        QCOMPARE(plan.diagnostics[0].severity, Severity::Warning);
    }

    void noImbalanceWhenParamsCannotFillCoordinates() {
        // Fewer trainable params than coordinates: empty coordinates are inevitable.
        ScenarioBuilder b;
        b.mesh({4});
        b.param("big", {1000}, std::vector<std::string>{"R"});
        b.param("small", {10}, std::vector<std::string>{"R"});
        QVERIFY(makePlan(b.build()).diagnostics.empty());
    }

    void groupImbalanceAcrossBatches() {
        // Each param fills its own batch, so every batch puts it on coordinate 0:
        // no batch is unbalanced, the group is (coordinate 1 never works).
        ScenarioBuilder b;
        b.mesh({2, 2});
        for (int i = 0; i < 4; ++i)
            b.param("e" + std::to_string(i), {64, 8}, std::vector<std::string>{"R", "S(0)"});
        b.options().maxBatchNumel = 100;
        Plan plan = makePlan(b.build());
        QCOMPARE(plan.groups[0].batches.size(), size_t(4));
        QCOMPARE(codesText(plan), QString("owner-imbalance:0,1,2,3"));
        QVERIFY(plan.diagnostics[0].message.find("over its 4 batches") != std::string::npos);
        // Without a cap the single batch spreads them evenly.
        b.options().maxBatchNumel.reset();
        QVERIFY(makePlan(b.build()).diagnostics.empty());
    }

    // The plan's worst owner imbalance is the highest figure of the places the
    // owner-imbalance rule judges, worked out here from the loads: a batch of
    // one param over four coordinates (max/mean 4.00, idle by necessity) is
    // not judged, the two-param batch is, and the warning gives its figure.
    void worstImbalanceIsTheRulesFigure() {
        ScenarioBuilder b;
        b.mesh({2});
        b.param("big", {1000}, std::vector<std::string>{"R"});
        b.param("small", {10}, std::vector<std::string>{"R"});
        b.mesh({4}, {}, {0, 1, 2, 3}, "wide");
        b.param("alone", {1000}, std::vector<std::string>{"R"}, true, "wide");
        const Plan plan = makePlan(b.build());
        const auto& loads = plan.groups.at(0).batches.at(0).loads;
        const double judged = double(loads.max()) * double(loads.size()) / double(loads.sum());
        const auto& lone = plan.groups.at(1).batches.at(0).loads;
        QVERIFY(double(lone.max()) * double(lone.size()) / double(lone.sum()) > judged);
        const auto worst = worstOwnerImbalance(plan.groups);
        QVERIFY(worst);
        QCOMPARE(worst->group, 0);
        QCOMPARE(worst->batch, 0);
        QCOMPARE(worst->ratio, judged);
        char figure[32];
        std::snprintf(figure, sizeof figure, "batch 0 max/mean %.2f", judged);
        QVERIFY2(plan.diagnostics.at(0).message.find(figure) != std::string::npos,
                 plan.diagnostics.at(0).message.c_str());
        // Nothing judged: no worst, not the lone batch's 4.00.
        ScenarioBuilder alone;
        alone.mesh({4});
        alone.param("alone", {1000}, std::vector<std::string>{"R"});
        QVERIFY(!worstOwnerImbalance(makePlan(alone.build()).groups));
    }

    // A group whose batches each hold one param: no batch is judged, the
    // group over its batches is, and that is the worst imbalance the warning gives.
    void worstImbalanceCanBeAGroupOverItsBatches() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        for (int i = 0; i < 4; ++i)
            b.param("e" + std::to_string(i), {64, 8}, std::vector<std::string>{"R", "S(0)"});
        b.options().maxBatchNumel = 100;
        const Plan plan = makePlan(b.build());
        std::vector<int64_t> total(2, 0);
        for (const Batch& batch : plan.groups[0].batches)
            for (size_t c = 0; c < batch.loads.size(); ++c) total[c] += batch.loads[c];
        const double summed =
            double(std::max(total[0], total[1])) * 2.0 / double(total[0] + total[1]);
        const auto worst = worstOwnerImbalance(plan.groups);
        QVERIFY(worst);
        QCOMPARE(worst->group, 0);
        QCOMPARE(worst->batch, -1);
        QCOMPARE(worst->ratio, summed);
        char figure[48];
        std::snprintf(figure, sizeof figure, "zero) max/mean %.2f", summed);
        QVERIFY2(plan.diagnostics.at(0).message.find(figure) != std::string::npos,
                 plan.diagnostics.at(0).message.c_str());
    }

    void sinkMergesByCode() {
        DiagnosticSink sink;
        sink.report(Severity::Warning, "x", "headline", "d1", {5, 1});
        sink.report(Severity::Error, "y", "other", "", {}, {2});
        sink.report(Severity::Warning, "x", "ignored headline", "d2", {3, 1});
        QVERIFY(sink.has("x"));
        auto out = sink.take();
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(out[0].params, (std::vector<int>{1, 3, 5}));
        QCOMPARE(out[0].message, std::string("headline: d1; d2"));
        QCOMPARE(out[1].transitions, (std::vector<int>{2}));
        QCOMPARE(out[1].message, std::string("other"));
        QVERIFY(sink.take().empty());
    }

    void severityNames() {
        QCOMPARE(severityName(Severity::Error), std::string_view("error"));
        QCOMPARE(severityName(Severity::Warning), std::string_view("warning"));
        QCOMPARE(severityName(Severity::Info), std::string_view("info"));
    }
};

QTEST_APPLESS_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"
