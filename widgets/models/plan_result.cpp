#include "models/plan_result.h"

#include "models/plan_index.h"
#include "models/plan_tree_rows.h"
#include "plan/planner.h"
#include "scenario/reader.h"

namespace hsdp {

PlanResult computePlanResult(const QString& path) {
    return computePlanResult(readScenarioFile(path.toStdString()), path);
}

PlanResult computePlanResult(Scenario scenario, const QString& path) {
    PlanResult result;
    result.path = path;
    auto shared = std::make_shared<const Scenario>(std::move(scenario));
    auto plan = std::make_shared<const Plan>(makePlan(*shared));
    auto index = std::make_shared<const PlanIndex>(buildPlanIndex(*shared, *plan));
    result.tree = std::make_shared<const PlanTreeRows>(buildPlanTreeRows(*shared, *plan, *index));
    result.scenario = std::move(shared);
    result.plan = std::move(plan);
    result.index = std::move(index);
    return result;
}

}  // namespace hsdp
