// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "plan/planner.h"
#include "plan/redistribution.h"
#include "plan/tp_lowering.h"
#include "planner_fixtures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

std::vector<std::string> split(const QString& text) {
    std::vector<std::string> out;
    for (const auto& s : text.split(' ', Qt::SkipEmptyParts)) out.push_back(s.toStdString());
    return out;
}

// "kind[/dim][/op]" or "null".
QString classificationText(const std::optional<TpClassification>& c) {
    if (!c) return "null";
    QString out = QString::fromStdString(std::string(tpKindName(c->kind)));
    if (c->tensorDim) out += "/" + QString::number(*c->tensorDim);
    if (c->reduceOp) out += "/" + QString::fromStdString(std::string(reduceOpName(*c->reduceOp)));
    return out;
}

// "path[:op|reason]" per TP group, space separated.
QString decisionsText(const TpPlan& plan) {
    QStringList out;
    for (const auto& g : plan.groups) {
        QString d = QString::fromStdString(std::string(tpPathName(g.path)));
        if (g.op) d += ":" + QString::fromStdString(std::string(tpLoweredOpName(*g.op)));
        if (g.reason)
            d += ":" + QString::fromStdString(std::string(tpFallbackReasonName(*g.reason)));
        out << d;
    }
    return out.join(' ');
}

// "op@meshDim" per step, space separated.
QString stepsText(const std::vector<RedistributionStep>& steps) {
    QStringList out;
    for (const auto& s : steps)
        out << QString::fromStdString(std::string(redistributionOpName(s.op))) + "@" +
                   QString::number(s.meshDim);
    return out.join(' ');
}

// "runs[+widened]=steps" per TP group, space separated.
QString runsText(const TpPlan& plan) {
    QStringList out;
    for (const auto& g : plan.groups)
        out << QString::fromStdString(std::string(tpPathName(g.runs))) +
                   (plan.widened(g) ? "+widened" : "") + "=" + stepsText(g.steps);
    return out.join(' ');
}

Mesh tpMesh(std::vector<int> ranks = {0, 1, 2, 3}, std::vector<std::string> names = {"dp", "tp"}) {
    return Mesh("main", {2, 2}, std::move(names), std::move(ranks));
}

TpTransition transition(const QString& src, const QString& dst) {
    TpTransition t;
    t.name = "t";
    t.mesh = "main";
    t.shape = {4, 8};
    t.src = placements(split(src));
    t.dst = placements(split(dst));
    return t;
}

}  // namespace

class TestTpLowering : public QObject {
    Q_OBJECT
private slots:
    void classify_data() {
        QTest::addColumn<QString>("names");
        QTest::addColumn<QString>("src");
        QTest::addColumn<QString>("dst");
        QTest::addColumn<QString>("expected");
        QTest::newRow("partial to replicate") << "dp tp"
                                              << "R P(sum)"
                                              << "R R"
                                              << "all_reduce/sum";
        QTest::newRow("partial to shard") << "dp tp"
                                          << "R P(sum)"
                                          << "R S(0)"
                                          << "reduce_scatter/0/sum";
        QTest::newRow("shard to replicate") << "dp tp"
                                            << "R S(1)"
                                            << "R R"
                                            << "all_gather/1";
        QTest::newRow("negative dim as written") << "dp tp"
                                                 << "R S(-1)"
                                                 << "R R"
                                                 << "all_gather/-1";
        QTest::newRow("shard to other shard") << "dp tp"
                                              << "R S(0)"
                                              << "R S(1)"
                                              << "null";
        QTest::newRow("replicate to shard") << "dp tp"
                                            << "R R"
                                            << "R S(0)"
                                            << "null";
        QTest::newRow("avg partial to replicate") << "dp tp"
                                                  << "R P(avg)"
                                                  << "R R"
                                                  << "null";
        QTest::newRow("max partial to shard") << "dp tp"
                                              << "R P(max)"
                                              << "R S(0)"
                                              << "null";
        QTest::newRow("partial to other partial") << "dp tp"
                                                  << "R P(sum)"
                                                  << "R P(avg)"
                                                  << "null";
        QTest::newRow("non-tp dim differs") << "dp tp"
                                            << "S(0) P(sum)"
                                            << "R R"
                                            << "null";
        QTest::newRow("identity") << "dp tp"
                                  << "S(0) P(sum)"
                                  << "S(0) P(sum)"
                                  << "identity";
        QTest::newRow("identity without tp dim") << "dp fsdp"
                                                 << "R S(0)"
                                                 << "R S(0)"
                                                 << "identity";
        QTest::newRow("no tp dim") << "dp fsdp"
                                   << "R P(sum)"
                                   << "R R"
                                   << "null";
        QTest::newRow("strided shard counts as shard") << "dp tp"
                                                       << "R SS(0,2)"
                                                       << "R R"
                                                       << "all_gather/0";
        QTest::newRow("partial to strided shard") << "dp tp"
                                                  << "R P(sum)"
                                                  << "R SS(1,2)"
                                                  << "reduce_scatter/1/sum";
        QTest::newRow("strided != plain on non-tp dim") << "dp tp"
                                                        << "SS(0,2) P(sum)"
                                                        << "S(0) R"
                                                        << "null";
        QTest::newRow("strided split factors differ") << "dp tp"
                                                      << "R SS(0,2)"
                                                      << "R SS(0,4)"
                                                      << "null";
        QTest::newRow("tp first") << "tp dp"
                                  << "P(sum) S(0)"
                                  << "R S(0)"
                                  << "all_reduce/sum";
    }

    void classify() {
        QFETCH(QString, names);
        QFETCH(QString, src);
        QFETCH(QString, dst);
        QFETCH(QString, expected);
        auto c = classifyTpTransition(placements(split(src)), placements(split(dst)), split(names));
        QCOMPARE(classificationText(c), expected);
    }

    void lowering_data() {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("src");
        QTest::addColumn<QString>("dst");
        QTest::addColumn<QString>("decisions");
        QTest::newRow("gloo remaps reduce_scatter")
            << "gloo"
            << "R P(sum)"
            << "R S(0)"
            << "lowered:all_reduce_shard lowered:all_reduce_shard";
        QTest::newRow("nccl keeps reduce_scatter")
            << "nccl"
            << "R P(sum)"
            << "R S(0)"
            << "lowered:reduce_scatter lowered:reduce_scatter";
        QTest::newRow("hccl keeps reduce_scatter")
            << "hccl"
            << "R P(sum)"
            << "R S(0)"
            << "lowered:reduce_scatter lowered:reduce_scatter";
        QTest::newRow("gloo all_reduce unchanged") << "gloo"
                                                   << "R P(sum)"
                                                   << "R R"
                                                   << "lowered:all_reduce lowered:all_reduce";
        QTest::newRow("unsupported") << "gloo"
                                     << "R P(avg)"
                                     << "R R"
                                     << "fallback:unsupported fallback:unsupported";
        QTest::newRow("identity") << "gloo"
                                  << "R S(0)"
                                  << "R S(0)"
                                  << "identity identity";
    }

    void lowering() {
        QFETCH(QString, backend);
        QFETCH(QString, src);
        QFETCH(QString, dst);
        QFETCH(QString, decisions);
        TpPlan plan = planTpTransition(transition(src, dst), tpMesh(), backend.toStdString());
        QCOMPARE(decisionsText(plan), decisions);
        QCOMPARE(plan.tpMeshDim.value_or(-1), 1);
        QCOMPARE(plan.groups[0].meshRanks, (std::vector<int>{0, 1}));
        QCOMPARE(plan.groups[1].meshRanks, (std::vector<int>{2, 3}));
    }

    void rankOrderFallback() {
        // Row 1 of the mesh is [3, 2]: its process group would order 2, 3.
        ScenarioBuilder b;
        b.mesh({2, 2}, {"dp", "tp"}, {0, 1, 3, 2});
        b.transition("ok", {"R", "P(sum)"}, {"R", "R"});
        b.transition("ident", {"R", "R"}, {"R", "R"});
        b.transition("bad", {"R", "P(avg)"}, {"R", "R"});
        Plan plan = makePlan(b.build());
        QCOMPARE(decisionsText(plan.tpTransitions[0]),
                 QString("lowered:all_reduce fallback:rank-order"));
        QCOMPARE(decisionsText(plan.tpTransitions[1]), QString("identity fallback:rank-order"));
        QCOMPARE(decisionsText(plan.tpTransitions[2]),
                 QString("fallback:unsupported fallback:rank-order"));
        QCOMPARE(plan.tpTransitions[0].groups[1].meshRanks, (std::vector<int>{3, 2}));
        QCOMPARE(plan.diagnostics.size(), size_t(1));
        const Diagnostic& d = plan.diagnostics[0];
        QCOMPARE(d.code, std::string("tp-rank-order-fallback"));
        QCOMPARE(d.severity, Severity::Warning);
        QCOMPARE(d.transitions, (std::vector<int>{0, 1, 2}));
        QVERIFY(d.params.empty());
    }

    // The plan carries the steps each group runs, so the runner never re-plans.
    void groupsCarryTheirRunSteps_data() {
        QTest::addColumn<QString>("src");
        QTest::addColumn<QString>("dst");
        QTest::addColumn<QString>("runs");
        QTest::newRow("all_gather") << "R S(0)"
                                    << "R R"
                                    << "lowered=all_gather@1 lowered=all_gather@1";
        QTest::newRow("gloo reduce_scatter: all-reduce then local chunk")
            << "R P(sum)"
            << "R S(0)"
            << "lowered=all_reduce@1 local_chunk@1 lowered=all_reduce@1 local_chunk@1";
        QTest::newRow("identity runs nothing") << "R S(0)"
                                               << "R S(0)"
                                               << "identity= identity=";
        QTest::newRow("unsupported runs the generic redistribution")
            << "R P(avg)"
            << "R R"
            << "fallback=all_reduce@1 fallback=all_reduce@1";
    }
    void groupsCarryTheirRunSteps() {
        QFETCH(QString, src);
        QFETCH(QString, dst);
        QFETCH(QString, runs);
        TpPlan plan = planTpTransition(transition(src, dst), tpMesh(), "gloo");
        QCOMPARE(runsText(plan), runs);
    }

    void fallbackSpanningOtherDimsWidensEveryGroup() {
        // tp is mesh dim 0; the TP groups are the columns [3, 0] (rank-order
        // fallback) and [1, 2] (lowered).
        ScenarioBuilder b;
        b.mesh({2, 2}, {"tp", "dp"}, {3, 1, 0, 2});
        // Undoing S(0) on tp needs dp's S(0) undone first: the fallback spans dp.
        b.transition("spans", {"S(0)", "S(0)"}, {"R", "S(0)"});
        // The fallback stays on tp: each group keeps its own path.
        b.transition("tp only", {"P(sum)", "R"}, {"R", "R"});
        Plan plan = makePlan(b.build());
        const TpPlan& spans = plan.tpTransitions[0];
        QCOMPARE(decisionsText(spans), QString("fallback:rank-order lowered:all_gather"));
        const QString fallback = "all_gather@1 all_gather@0 local_chunk@1";
        QCOMPARE(stepsText(spans.fallbackSteps), fallback);
        QCOMPARE(runsText(spans), "fallback=" + fallback + " fallback+widened=" + fallback);
        QCOMPARE(runsText(plan.tpTransitions[1]),
                 QString("fallback=all_reduce@0 lowered=all_reduce@0"));
    }

    void tpGroupsAlongTheTpDimInMeshOrder() {
        // tp is mesh dim 0 of a [2, 3] mesh: groups are columns, ordered by the other coordinate.
        ScenarioBuilder b;
        b.mesh({2, 3}, {"tp", "dp"});
        b.transition("t",
                     {
                         "P(sum)",
                         "R",
                     },
                     {"R", "R"});
        Plan plan = makePlan(b.build());
        const auto& groups = plan.tpTransitions.at(0).groups;
        QCOMPARE(groups.size(), size_t(3));
        QCOMPARE(groups[0].meshRanks, (std::vector<int>{0, 3}));
        QCOMPARE(groups[2].meshRanks, (std::vector<int>{2, 5}));
    }

    void noTpDimHasNoGroups() {
        ScenarioBuilder b;
        b.mesh({2, 2}, {"dp_replicate", "dp_shard"});
        b.transition("same", {"R", "S(0)"}, {"R", "S(0)"});
        b.transition("other", {"R", "P(sum)"}, {"R", "R"});
        Plan plan = makePlan(b.build());
        QCOMPARE(plan.tpTransitions.size(), size_t(2));
        for (const auto& t : plan.tpTransitions) {
            QVERIFY(t.groups.empty());
            QVERIFY(!t.tpMeshDim);
        }
        // The reference's identity check comes before the tp check.
        QCOMPARE(classificationText(plan.tpTransitions[0].classification), QString("identity"));
        QCOMPARE(classificationText(plan.tpTransitions[1].classification), QString("null"));
        QCOMPARE(plan.diagnostics.size(), size_t(1));
        QCOMPARE(plan.diagnostics[0].code, std::string("tp-no-tp-dim"));
        QCOMPARE(plan.diagnostics[0].severity, Severity::Info);
        QCOMPARE(plan.diagnostics[0].transitions, (std::vector<int>{0, 1}));
    }

    // The reader checks spelling only; a dim the shape lacks used to plan as
    // "lowered" (exit 0) and fail at run time without naming the transition.
    void shardDimOutsideTheShapeIsAnError() {
        ScenarioBuilder b;
        b.mesh({2, 2}, {"dp", "tp"});
        b.transition("ok", {"R", "S(-2)"}, {"R", "R"});  // shape [4, 8]
        b.transition("src", {"R", "S(2)"}, {"R", "R"});
        b.transition("dst", {"R", "P(sum)"}, {"R", "SS(-3,2)"});
        b.transition("non-tp dim", {"S(5)", "R"}, {"S(5)", "R"});
        Plan plan = makePlan(b.build());
        QVERIFY(plan.hasErrors());
        QCOMPARE(plan.diagnostics.size(), size_t(1));
        const Diagnostic& d = plan.diagnostics[0];
        QCOMPARE(d.code, std::string("tp-invalid-shard-dim"));
        QCOMPARE(d.transitions, (std::vector<int>{1, 2, 3}));
        QVERIFY2(QString::fromStdString(d.message).contains("#2 'dst' dst mesh dim 1: SS(-3,2)"),
                 d.message.c_str());
        // The reference's classification is still reported as the reference computes it.
        QCOMPARE(classificationText(plan.tpTransitions[1].classification), QString("all_gather/2"));
    }

    void transitionsOnNamedMeshes() {
        ScenarioBuilder b;
        b.mesh({2, 2}, {"dp", "tp"}, {}, "dense").mesh({4}, {"tp"}, {3, 2, 1, 0}, "expert");
        b.transition("dense.out", {"R", "P(sum)"}, {"R", "R"}, "dense");
        b.transition("expert.out", {"P(sum)"}, {"R"}, "expert");
        Plan plan = makePlan(b.build());
        QCOMPARE(decisionsText(plan.tpTransitions[0]),
                 QString("lowered:all_reduce lowered:all_reduce"));
        QCOMPARE(decisionsText(plan.tpTransitions[1]), QString("fallback:rank-order"));
        QCOMPARE(plan.tpTransitions[1].groups[0].meshRanks, (std::vector<int>{3, 2, 1, 0}));
    }
};

QTEST_APPLESS_MAIN(TestTpLowering)
#include "tst_tp_lowering.moc"
