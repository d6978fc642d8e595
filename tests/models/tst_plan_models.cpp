// SPDX-License-Identifier: Apache-2.0
// The studio's item models over every sample: QAbstractItemModelTester, the
// tree's structure against the Plan, the recursive filter (name, code,
// rank) and the diagnostics table.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QtTest>
#include <algorithm>
#include <limits>
#include <set>

#include "derived/plan/model_roles.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/plan_tree_rows.h"
#include "diagnostics/diagnostics_model.h"
#include "mixed_optimizer_scenario.h"
#include "plan_tree/plan_filter_proxy.h"
#include "plan_tree/plan_tree_model.h"
#include "sample_rows.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

// Every param index reachable in `model`, with how often.
void collectParams(const QAbstractItemModel& model, const QModelIndex& parent,
                   std::multiset<int>& out) {
    for (int r = 0; r < model.rowCount(parent); ++r) {
        QModelIndex index = model.index(r, 0, parent);
        int param = index.data(ParamRole).toInt();
        if (param >= 0) out.insert(param);
        collectParams(model, index, out);
    }
}

QStringList topLevelNames(const QAbstractItemModel& model) {
    QStringList names;
    for (int r = 0; r < model.rowCount(); ++r) names << model.index(r, 0).data().toString();
    return names;
}

}  // namespace

class TestPlanModels : public QObject {
    Q_OBJECT
private slots:
    void samples_data();
    void treeModelUnderTester_data() { samples_data(); }
    void treeModelUnderTester();
    void everyParamOnceInTree_data() { samples_data(); }
    void everyParamOnceInTree();
    void filterByRankKeepsExactlyTheComputedParams_data() { samples_data(); }
    void filterByRankKeepsExactlyTheComputedParams();
    void filterByCodeKeepsTheFlaggedParams();
    void filterByNameIsRecursive();
    void sortsNumericColumnsByValue();
    void diagnosticsModel_data() { samples_data(); }
    void diagnosticsModel();
    void placementsInPytorchSpelling();
    void ownerColumnNamesOwnerRanks();
    void adamwParamsHaveTheirSection();
    void theErroringParamIsSelectedFirst();
};

void TestPlanModels::samples_data() {
    testing::addSampleRows();
}

void TestPlanModels::treeModelUnderTester() {
    QFETCH(QString, path);
    PlanTreeModel model;
    PlanFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(computePlanResult(path));
    proxy.setFilter(QStringLiteral("weight"));
    proxy.sort(2, Qt::DescendingOrder);
    proxy.setFilter(QStringLiteral("rank 1"));
    proxy.setFilter(QString());
    model.setResult(computePlanResult(path));  // a second reset
    QVERIFY(model.rowCount() > 0);
}

void TestPlanModels::everyParamOnceInTree() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanTreeModel model;
    model.setResult(result);
    std::multiset<int> params;
    collectParams(model, {}, params);
    QCOMPARE(params.size(), result.scenario->params.size());
    for (size_t p = 0; p < result.scenario->params.size(); ++p) {
        QCOMPARE(params.count(static_cast<int>(p)), size_t(1));
        QModelIndex row = model.indexOfParam(static_cast<int>(p));
        QCOMPARE(row.data().toString(), QString::fromStdString(result.scenario->params[p].name));
        QCOMPARE(row.data(ParamRole).toInt(), static_cast<int>(p));
    }
    QStringList roots = topLevelNames(model);
    // The meshes, no-comm, rejected, AdamW (only with AdamW params) and TP transitions.
    const bool adamw = !result.plan->adamwParams.empty();
    QCOMPARE(roots.size(), static_cast<int>(result.scenario->meshes.size()) + 3 + (adamw ? 1 : 0));
    QCOMPARE(roots.contains(QStringLiteral("AdamW parameters, updated where they live (%1)")
                                .arg(result.plan->adamwParams.size())),
             adamw);
    QVERIFY(roots.last().startsWith(
        QStringLiteral("TP transitions (%1)").arg(result.plan->tpTransitions.size())));
}

void TestPlanModels::filterByRankKeepsExactlyTheComputedParams() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanTreeModel model;
    PlanFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.setResult(result);
    // "rank N" lists what rank N computes (Plan::ranks[N].computed), not the
    // params its replica group owns: on llama3_8b_hsdp_2x4, rank 5 computes
    // 28 params of the 112 its group owns.
    for (const RankOwnership& rank : result.plan->ranks) {
        proxy.setFilter(QStringLiteral("rank %1").arg(rank.rank));
        std::multiset<int> shown;
        collectParams(proxy, {}, shown);
        QCOMPARE(std::vector<int>(shown.begin(), shown.end()), rank.computed);
    }
    if (path.endsWith(QLatin1String("llama3_8b_hsdp_2x4.json"))) {
        const RankOwnership& five = result.plan->ranks.at(5);
        QVERIFY(five.computed.size() < five.owned.size());
        proxy.setFilter(QStringLiteral("r 5"));
        std::multiset<int> shown;
        collectParams(proxy, {}, shown);
        QCOMPARE(shown.size(), five.computed.size());
    }
}

void TestPlanModels::filterByCodeKeepsTheFlaggedParams() {
    PlanResult result = computePlanResult(sample("diagnostics_tour.json"));
    PlanTreeModel model;
    PlanFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.setResult(result);
    QVERIFY(!result.plan->diagnostics.empty());
    for (const Diagnostic& diagnostic : result.plan->diagnostics) {
        if (diagnostic.params.empty()) continue;
        proxy.setFilter(QString::fromStdString(diagnostic.code).toUpper());  // case-insensitive
        std::multiset<int> shown;
        collectParams(proxy, {}, shown);
        for (int p : diagnostic.params) QVERIFY2(shown.count(p) == 1, diagnostic.code.c_str());
        for (int p : shown) {
            const auto& codes = result.index->params[static_cast<size_t>(p)].diagnostics;
            bool named = std::any_of(codes.begin(), codes.end(), [&](int d) {
                return result.plan->diagnostics[static_cast<size_t>(d)].code == diagnostic.code;
            });
            QVERIFY2(named, diagnostic.code.c_str());
        }
    }
}

void TestPlanModels::filterByNameIsRecursive() {
    PlanResult result = computePlanResult(sample("llama3_8b_hsdp_2x4.json"));
    PlanTreeModel model;
    PlanFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.setResult(result);
    proxy.setFilter(QStringLiteral("layers.7.attention.wq"));
    std::multiset<int> shown;
    collectParams(proxy, {}, shown);
    QCOMPARE(shown.size(), size_t(1));
    int p = *shown.begin();
    QCOMPARE(QString::fromStdString(result.scenario->params[static_cast<size_t>(p)].name),
             QStringLiteral("layers.7.attention.wq.weight"));
    QCOMPARE(proxy.rowCount(), 1);  // only the mesh branch leading to it survives
}

void TestPlanModels::sortsNumericColumnsByValue() {
    PlanResult result = computePlanResult(sample("llama3_8b_hsdp_2x4.json"));
    PlanTreeModel model;
    PlanFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.setResult(result);
    proxy.sort(static_cast<int>(PlanTreeColumn::Numel), Qt::DescendingOrder);
    QModelIndex group = proxy.index(0, 0, proxy.index(0, 0));
    QModelIndex batch = proxy.index(0, 0, group);
    QVERIFY(proxy.rowCount(batch) > 2);
    qint64 previous = std::numeric_limits<qint64>::max();
    for (int r = 0; r < proxy.rowCount(batch); ++r) {
        qint64 numel = proxy.index(r, 2, batch).data(SortRole).toLongLong();
        QVERIFY(numel <= previous);
        previous = numel;
    }
}

void TestPlanModels::diagnosticsModel() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(result);
    QCOMPARE(model.rowCount(), static_cast<int>(result.plan->diagnostics.size()));
    for (int r = 0; r < model.rowCount(); ++r) {
        const Diagnostic& d = result.plan->diagnostics[static_cast<size_t>(r)];
        QCOMPARE(model.index(r, DiagnosticsModel::CodeColumn).data().toString(),
                 QString::fromStdString(d.code));
        QCOMPARE(model.index(r, DiagnosticsModel::MessageColumn).data().toString(),
                 QString::fromStdString(d.message));
        auto params = model.index(r, 0).data(ParamsRole).value<QList<int>>();
        QCOMPARE(std::vector<int>(params.begin(), params.end()), d.params);
    }
}

void TestPlanModels::placementsInPytorchSpelling() {
    QCOMPARE(
        pytorchPlacements({Placement::replicate(), Placement::stridedShard(0, 4),
                           Placement::shard(-1), Placement::partial(ReduceOp::Avg)}),
        QStringLiteral("[Replicate(), _StridedShard(dim=0, sf=4), Shard(dim=-1), Partial(avg)]"));
}

void TestPlanModels::ownerColumnNamesOwnerRanks() {
    PlanResult result = computePlanResult(sample("teaching_2x2.json"));
    PlanTreeModel model;
    model.setResult(result);
    for (size_t p = 0; p < result.scenario->params.size(); ++p) {
        const ParamPlace& place = result.index->params[p];
        QString owner =
            model.indexOfParam(static_cast<int>(p)).siblingAtColumn(1).data().toString();
        if (place.ownerRanks.empty()) {
            QVERIFY(owner.isEmpty());
            continue;
        }
        for (int rank : place.ownerRanks) {
            bool listed = std::find(result.plan->ranks[static_cast<size_t>(rank)].owned.begin(),
                                    result.plan->ranks[static_cast<size_t>(rank)].owned.end(),
                                    static_cast<int>(p)) !=
                          result.plan->ranks[static_cast<size_t>(rank)].owned.end();
            QVERIFY(listed);
        }
        QVERIFY2(owner.contains(QStringLiteral("ranks ")), qPrintable(owner));
    }
}

// Params on AdamW (issue 44) sit in their own section, each row saying so in
// the owner column; a Muon-only plan has no such section (the samples above).
void TestPlanModels::adamwParamsHaveTheirSection() {
    PlanResult result = computePlanResult(readScenario(testing::kMixedOptimizerScenario));
    PlanTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(result);
    const QStringList roots = topLevelNames(model);
    QVERIFY2(roots.contains(QStringLiteral("AdamW parameters, updated where they live (2)")),
             qPrintable(roots.join(" | ")));
    for (int p : {0, 2}) {
        const QModelIndex row = model.indexOfParam(p);
        QCOMPARE(row.parent().data().toString(),
                 QStringLiteral("AdamW parameters, updated where they live (2)"));
        QCOMPARE(row.siblingAtColumn(1).data().toString(), QStringLiteral("none (AdamW)"));
    }
    QVERIFY(model.indexOfParam(1).siblingAtColumn(1).data().toString().contains("ranks "));
    PlanFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.setFilter(QStringLiteral("adamw"));
    std::multiset<int> shown;
    collectParams(proxy, {}, shown);
    QCOMPARE(std::vector<int>(shown.begin(), shown.end()), (std::vector<int>{0, 2}));
}

// The param the studio selects on opening a file: an error's param, even one
// the error left unplanned, before a warning's planned param (a new user saw
// another param selected than the one the error named).
void TestPlanModels::theErroringParamIsSelectedFirst() {
    const PlanResult result = computePlanResult(readScenario(R"json({"format": "hsdp-scenario/1",
      "name": "one error", "mesh": {"shape": [2, 2], "dim_names": ["dp_replicate", "dp_shard"]},
      "params": [
        {"name": "uneven", "shape": [7, 8], "dtype": "f32", "placements": ["R", "S(0)"]},
        {"name": "big", "shape": [64, 64], "dtype": "f32", "placements": ["R", "S(0)"]},
        {"name": "bad", "shape": [8, 8], "dtype": "f32", "placements": ["R", "S(5)"]}]})json"));
    const auto& diagnostics = result.plan->diagnostics;
    const auto error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                    [](const auto& d) { return d.severity == Severity::Error; });
    QVERIFY(error != diagnostics.end());
    QCOMPARE(error->params, std::vector<int>{2});
    QVERIFY(!result.plan->groupOf(2));  // the error left it unplanned
    QCOMPARE(mostInterestingParam(*result.scenario, *result.plan), 2);
}

QTEST_MAIN(TestPlanModels)
#include "tst_plan_models.moc"
