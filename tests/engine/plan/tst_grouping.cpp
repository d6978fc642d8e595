// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "plan/grouping.h"
#include "plan/planner.h"
#include "planner_fixtures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

// "8x8|R;S(0)|mesh" -> a param on that mesh; "-" placements: a plain tensor.
void addParam(ScenarioBuilder& b, const QString& spec, int index) {
    auto parts = spec.split('|');
    std::vector<int64_t> shape;
    for (const auto& s : parts[0].split('x')) shape.push_back(s.toLongLong());
    std::optional<std::vector<std::string>> place;
    if (parts[1] != "-") {
        place.emplace();
        for (const auto& p : parts[1].split(';')) place->push_back(p.toStdString());
    }
    std::string mesh = parts.size() > 2 ? parts[2].toStdString() : "main";
    b.param("p" + std::to_string(index), shape, place, true, mesh);
}

QString groupsText(const std::vector<Group>& groups) {
    QStringList out;
    for (const auto& g : groups) out << QString::fromStdString(joinInts(g.params));
    return out.join('|');
}

QString codesText(const std::vector<Diagnostic>& diagnostics) {
    QStringList out;
    for (const auto& d : diagnostics)
        out << QString::fromStdString(d.code + ":" + joinInts(d.params));
    return out.join(' ');
}

}  // namespace

class TestGrouping : public QObject {
    Q_OBJECT
private slots:
    void grouping_data() {
        QTest::addColumn<QStringList>("params");
        QTest::addColumn<QString>("groups");
        QTest::addColumn<QString>("noComm");
        QTest::addColumn<QString>("rejected");
        QTest::addColumn<QString>("codes");
        QTest::newRow("same layout, shapes differ")
            << QStringList{"8x8|R;S(0)", "4x16|R;S(0)"} << "0,1"
            << ""
            << ""
            << "";
        QTest::newRow("negative dim normalised")
            << QStringList{"8x8|R;S(-2)", "8x8|R;S(0)"} << "0,1"
            << ""
            << ""
            << "";
        QTest::newRow("strided groups like shard")
            << QStringList{"8x8|R;SS(0,2)", "8x8|R;S(0)"} << "0,1"
            << ""
            << ""
            << "";
        QTest::newRow("shard axis differs") << QStringList{"8x8|R;S(0)", "8x8|R;S(1)"} << "0|1"
                                            << ""
                                            << ""
                                            << "";
        QTest::newRow("ndim differs") << QStringList{"8x8|R;S(0)", "2x8x8|R;S(0)"} << "0|1"
                                      << ""
                                      << ""
                                      << "";
        QTest::newRow("replicate dims differ") << QStringList{"8x8|R;S(0)", "8x8|S(0);R"} << "0|1"
                                               << ""
                                               << ""
                                               << "";
        QTest::newRow("first appearance numbering")
            << QStringList{"8|R;R", "8x8|R;S(0)", "16|R;R", "8x8|R;S(0)"} << "0,2|1,3"
            << ""
            << ""
            << "";
        QTest::newRow("plain tensor is no-comm") << QStringList{"8x8|-", "8x8|R;S(0)"} << "1"
                                                 << "0"
                                                 << ""
                                                 << "";
        QTest::newRow("shard dim too large") << QStringList{"8x8|R;S(2)", "8x8|R;S(0)"} << "1"
                                             << ""
                                             << "0"
                                             << "invalid-shard-dim:0";
        QTest::newRow("shard dim too negative") << QStringList{"8x8|S(-3);R"} << ""
                                                << ""
                                                << "0"
                                                << "invalid-shard-dim:0";
        QTest::newRow("partial rejected") << QStringList{"8x8|R;P(sum)", "8|P(avg);R"} << ""
                                          << ""
                                          << "0,1"
                                          << "unsupported-placement:0,1";
        QTest::newRow("first offending placement decides")
            << QStringList{"8x8|P;S(5)", "8x8|S(5);P"} << ""
            << ""
            << "0,1"
            << "unsupported-placement:0 invalid-shard-dim:1";
        QTest::newRow("rejected params skipped, planning goes on")
            << QStringList{"8x8|R;S(0)", "8x8|R;P", "8x8|R;S(0)"} << "0,2"
            << ""
            << "1"
            << "unsupported-placement:1";
    }

    void grouping() {
        QFETCH(QStringList, params);
        QFETCH(QString, groups);
        QFETCH(QString, noComm);
        QFETCH(QString, rejected);
        QFETCH(QString, codes);
        ScenarioBuilder b;
        b.mesh({2, 2});
        for (int i = 0; i < params.size(); ++i) addParam(b, params[i], i);
        DiagnosticSink sink;
        auto result = groupParameters(b.build(), sink);
        QCOMPARE(groupsText(result.groups), groups);
        QCOMPARE(QString::fromStdString(joinInts(result.noCommParams)), noComm);
        QCOMPARE(QString::fromStdString(joinInts(result.rejectedParams)), rejected);
        auto diagnostics = sink.take();
        QCOMPARE(codesText(diagnostics), codes);
        for (const auto& d : diagnostics) QCOMPARE(d.severity, Severity::Error);
        for (size_t g = 0; g < result.groups.size(); ++g) QCOMPARE(result.groups[g].id, int(g));
    }

    void layoutFlags_data() {
        QTest::addColumn<QString>("param");
        QTest::addColumn<bool>("last2d");
        QTest::addColumn<bool>("gathered");
        QTest::newRow("2d S(0)") << "8x8|R;S(0)" << true << true;
        QTest::newRow("3d S(0) experts") << "4x8x8|S(0);R" << false << false;
        QTest::newRow("3d S(1)") << "4x8x8|R;S(1)" << true << true;
        QTest::newRow("3d S(-1)") << "4x8x8|R;S(-1)" << true << true;
        QTest::newRow("1d S(0)") << "8|R;S(0)" << true << true;
        QTest::newRow("replicate only") << "8x8|R;R" << false << false;
    }

    void layoutFlags() {
        QFETCH(QString, param);
        QFETCH(bool, last2d);
        QFETCH(bool, gathered);
        ScenarioBuilder b;
        b.mesh({2, 2});
        addParam(b, param, 0);
        DiagnosticSink sink;
        auto result = groupParameters(b.build(), sink);
        QCOMPARE(result.groups.size(), size_t(1));
        QCOMPARE(result.groups[0].layout.isLast2dSharded, last2d);
        QCOMPARE(isGathered(result.groups[0]), gathered);
    }

    void layoutRecordsNormalisedAxes() {
        ScenarioBuilder b;
        b.mesh({2, 2, 2});
        b.param("w", {4, 8, 8}, std::vector<std::string>{"S(-1)", "R", "SS(0,2)"});
        DiagnosticSink sink;
        auto result = groupParameters(b.build(), sink);
        const Group& g = result.groups.at(0);
        QCOMPARE(g.layout.tensorNdim, 3);
        QCOMPARE(g.layout.shardAxes, (std::vector<std::pair<int, int>>{{0, 2}, {2, 0}}));
        QCOMPARE(g.shardMeshDims, (std::vector<int>{0, 2}));
        QCOMPARE(g.replicateMeshDims, (std::vector<int>{1}));
        QCOMPARE(g.layout.replicateMeshDims, (std::vector<int>{1}));
        QCOMPARE(g.meshShape, (std::vector<int64_t>{2, 2, 2}));
        QCOMPARE(g.meshRanks.size(), size_t(8));
    }

    void equalMeshesShareGroups() {
        // Same shape and ranks under two names: one communication domain; the
        // group is named after its first param's mesh.
        ScenarioBuilder b;
        b.mesh({2, 2}, {}, {}, "dense")
            .mesh({2, 2}, {}, {}, "expert")
            .mesh({2, 2}, {}, {3, 2, 1, 0}, "other");
        b.param("a", {8, 8}, std::vector<std::string>{"R", "S(0)"}, true, "expert");
        b.param("b", {8, 8}, std::vector<std::string>{"R", "S(0)"}, true, "dense");
        b.param("c", {8, 8}, std::vector<std::string>{"R", "S(0)"}, true, "other");
        DiagnosticSink sink;
        auto result = groupParameters(b.build(), sink);
        QCOMPARE(groupsText(result.groups), QString("0,1|2"));
        QCOMPARE(result.groups[0].mesh, std::string("expert"));
        QCOMPARE(result.groups[1].mesh, std::string("other"));
        QCOMPARE(result.groups[1].meshRanks, (std::vector<int>{3, 2, 1, 0}));
    }

    void planGroupOf() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("a", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("plain", {8}, std::nullopt);
        b.param("bad", {8}, std::vector<std::string>{"R", "P"});
        b.param("c", {8}, std::vector<std::string>{"R", "R"});
        Plan plan = makePlan(b.build());
        QVERIFY(plan.groupOf(0) && plan.groupOf(0)->id == 0);
        QVERIFY(plan.groupOf(3) && plan.groupOf(3)->id == 1);
        QCOMPARE(plan.groupOf(1), nullptr);
        QCOMPARE(plan.groupOf(2), nullptr);
        QVERIFY(plan.hasErrors());
    }
};

QTEST_APPLESS_MAIN(TestGrouping)
#include "tst_grouping.moc"
