// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/plan_result.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QObject>
#include <QThread>
#include <QThreadPool>
#include <algorithm>

#include "cost/plan_scenario.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/plan_tree_rows.h"
#include "plan/planner.h"
#include "runtime/allocator_policy.h"
#include "scenario/reader.h"

namespace hsdp {

bool releasesOffGuiThread() {
    const QCoreApplication* app = QCoreApplication::instance();
    return app && !QCoreApplication::closingDown() && QThread::currentThread() == app->thread();
}

void releaseOffGuiThread(std::function<void()> release) {
    QThreadPool::globalInstance()->start([release = std::move(release)] {
        release();
        returnFreedMemory();  // a replaced plan's GiB, back to the system
    });
}

QString documentName(const QString& path) {
    return path.isEmpty() ? QObject::tr("untitled") : QFileInfo(path).fileName();
}

PlanResult computePlanResult(const QString& path, const Cluster* strategyCluster) {
    const std::string file = path.toStdString();
    std::shared_ptr<const Json> document;
    try {
        document = std::make_shared<const Json>(parseStrictJson(readScenarioFileText(file)));
    } catch (const ScenarioError& error) {
        throw error.inFile(file);
    }
    return computePlanResult(std::move(document), path, strategyCluster);
}

PlanResult computePlanResult(std::shared_ptr<const Json> document, const QString& path,
                             const Cluster* strategyCluster) {
    Scenario scenario;
    try {
        scenario = readScenarioJson(*document);
    } catch (const ScenarioError& error) {
        throw error.inFile(path.toStdString());
    }
    PlanResult result = computePlanResult(std::move(scenario), path, strategyCluster);
    result.document = std::move(document);
    return result;
}

PlanResult computePlanResult(Scenario scenario, const QString& path,
                             const Cluster* strategyCluster) {
    PlanResult result;
    result.path = path;
    auto shared = freedOffGuiThread(std::move(scenario));
    auto plan = freedOffGuiThread(planScenario(*shared, strategyCluster));
    auto index = freedOffGuiThread(buildPlanIndex(*shared, *plan));
    result.tree = freedOffGuiThread(buildPlanTreeRows(*shared, *plan, *index));
    result.scenario = std::move(shared);
    result.plan = std::move(plan);
    result.index = std::move(index);
    return result;
}

bool weighsGatherStrategies(const PlanResult& plan) {
    if (!plan.plan) return false;
    return std::any_of(plan.plan->groups.begin(), plan.plan->groups.end(),
                       [](const Group& g) { return g.gatherStrategyAuto; });
}

}  // namespace hsdp
