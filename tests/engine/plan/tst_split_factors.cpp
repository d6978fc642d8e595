// SPDX-License-Identifier: Apache-2.0
// split-factor-mismatch: a _StridedShard's split factor must be the product of
// the sizes of the later mesh dims sharding the same tensor dim (FSDP2 over a
// TP-sharded weight: [R, SS(0,tp), S(0)]). Editing `tp` without the factor,
// or a factor with nothing after it to stand for, is flagged.
#include <QtTest>

#include "plan/diagnostics.h"
#include "plan/planner.h"
#include "planner_fixtures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

std::vector<std::string> words(const QString& text, char sep) {
    std::vector<std::string> out;
    for (const auto& s : text.split(QLatin1Char(sep), Qt::SkipEmptyParts))
        out.push_back(s.toStdString());
    return out;
}

const Diagnostic* splitFactorDiagnostic(const Plan& plan) {
    for (const Diagnostic& d : plan.diagnostics)
        if (d.code == codes::SplitFactorMismatch) return &d;
    return nullptr;
}

Plan planOne(const QString& meshShape, const QString& shape, const QString& placements) {
    std::vector<int64_t> mesh, dims;
    for (const auto& s : words(meshShape, 'x')) mesh.push_back(std::stoll(s));
    for (const auto& s : words(shape, 'x')) dims.push_back(std::stoll(s));
    ScenarioBuilder b;
    b.mesh(mesh, {"dp_replicate", "dp_shard", "tp"});
    b.param("w", dims, words(placements, ' '));
    return makePlan(b.build());
}

}  // namespace

class TestSplitFactors : public QObject {
    Q_OBJECT
private slots:
    void flagsAFactorTheMeshDoesNotGive_data();
    void flagsAFactorTheMeshDoesNotGive();
    void theMessageNamesParamPlacementFactorAndMeshDim();
    void transitionsAreCheckedToo();
};

void TestSplitFactors::flagsAFactorTheMeshDoesNotGive_data() {
    QTest::addColumn<QString>("meshShape");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("placements");
    QTest::addColumn<bool>("flagged");
    QTest::newRow("FSDP over TP") << "2x4x4"
                                  << "64x8"
                                  << "R SS(0,4) S(0)" << false;
    QTest::newRow("tp edited to 3") << "2x4x3"
                                    << "48x8"
                                    << "R SS(0,4) S(0)" << true;
    QTest::newRow("tp edited, factor too") << "2x4x3"
                                           << "48x8"
                                           << "R SS(0,3) S(0)" << false;
    QTest::newRow("row-wise TP: plain FSDP shard") << "2x4x4"
                                                   << "64x8"
                                                   << "R S(0) S(1)" << false;
    QTest::newRow("later shard of another dim") << "2x4x4"
                                                << "64x8"
                                                << "R SS(0,4) S(1)" << true;
    QTest::newRow("nothing after it") << "2x2x4"
                                      << "64x8"
                                      << "R S(0) SS(0,2)" << true;
    QTest::newRow("factor 1 is a plain shard") << "2x2x4"
                                               << "64x8"
                                               << "R S(0) SS(0,1)" << false;
    QTest::newRow("factor 1 before a TP shard") << "2x4x4"
                                                << "64x8"
                                                << "R SS(0,1) S(0)" << true;
    QTest::newRow("product of later shards") << "2x2x4"
                                             << "64x8"
                                             << "SS(0,8) S(0) S(0)" << false;
    QTest::newRow("only one of two later shards") << "2x2x4"
                                                  << "64x8"
                                                  << "SS(0,4) S(0) S(0)" << true;
    QTest::newRow("tp of size 1") << "2x4x1"
                                  << "64x8"
                                  << "R SS(0,1) S(0)" << false;
    QTest::newRow("negative dims normalised") << "2x4x4"
                                              << "64x8"
                                              << "R SS(-2,4) S(0)" << false;
    QTest::newRow("negative later dim") << "2x4x4"
                                        << "64x8"
                                        << "R SS(0,4) S(-2)" << false;
    QTest::newRow("invalid dim left to invalid-shard-dim") << "2x4x4"
                                                           << "64x8"
                                                           << "R SS(5,4) S(0)" << false;
}

void TestSplitFactors::flagsAFactorTheMeshDoesNotGive() {
    QFETCH(QString, meshShape);
    QFETCH(QString, shape);
    QFETCH(QString, placements);
    QFETCH(bool, flagged);
    Plan plan = planOne(meshShape, shape, placements);
    const Diagnostic* d = splitFactorDiagnostic(plan);
    QCOMPARE(d != nullptr, flagged);
    if (!d) return;
    QCOMPARE(d->severity, Severity::Warning);
    QCOMPARE(d->params, std::vector<int>{0});
}

void TestSplitFactors::theMessageNamesParamPlacementFactorAndMeshDim() {
    Plan plan = planOne("2x4x3", "48x8", "R SS(0,4) S(0)");
    const Diagnostic* d = splitFactorDiagnostic(plan);
    QVERIFY(d);
    const QString message = QString::fromStdString(d->message);
    for (const char* part : {"'w'", "[R, SS(0,4), S(0)]", "mesh dim 1 'dp_shard'", "split factor 4",
                             "mesh dim 2 'tp' (size 3)", "expected 3"})
        QVERIFY2(message.contains(QLatin1String(part)), qPrintable(part + (": " + message)));
    plan = planOne("2x2x4", "64x8", "R S(0) SS(0,2)");
    QVERIFY(splitFactorDiagnostic(plan));
    QVERIFY(QString::fromStdString(splitFactorDiagnostic(plan)->message)
                .contains(QLatin1String("no later mesh dim shards tensor dim 0")));
}

void TestSplitFactors::transitionsAreCheckedToo() {
    ScenarioBuilder b;
    b.mesh({2, 4}, {"dp_shard", "tp"});
    b.transition("ok", {"SS(0,4)", "S(0)"}, {"R", "R"});
    b.transition("stale", {"R", "R"}, {"SS(0,2)", "S(0)"});
    Plan plan = makePlan(b.build());
    const Diagnostic* d = splitFactorDiagnostic(plan);
    QVERIFY(d);
    QCOMPARE(d->transitions, std::vector<int>{1});
    QVERIFY(d->params.empty());
    QVERIFY(QString::fromStdString(d->message).contains(QLatin1String("'stale' dst")));
}

QTEST_APPLESS_MAIN(TestSplitFactors)
#include "tst_split_factors.moc"
