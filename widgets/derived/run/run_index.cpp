// SPDX-License-Identifier: Apache-2.0
#include "derived/run/run_index.h"

#include "derived/run/plan_prediction.h"
#include "derived/run/trace_timeline.h"
#include "run/real_size.h"

namespace hsdp {

std::shared_ptr<const RunIndex> indexRun(const RunData& run) {
    static const auto none = std::make_shared<const RunIndex>();
    if (!run.isValid()) return none;
    auto index = std::make_shared<RunIndex>();
    const RunResult& result = *run.run;
    index->steps = runSteps(result.trace);
    index->faults = stepFaults(index->steps, result);
    const RealScale real = realScale(*run.plan.scenario, result.shrink);
    index->traffic = trafficStats(index->steps, result.trace, run.plan.scenario.get(),
                                  kSlowestCollectives, &real);
    index->buffers = bufferCollectives(result);
    index->timeline = timelineOfRun(run);
    return index;
}

std::shared_ptr<const RunIndex> runIndexOf(const RunData& run) {
    return run.index ? run.index : indexRun(run);
}

RunData preparedRun(const PlanResult& plan, std::shared_ptr<const RunResult> run,
                    std::shared_ptr<const Cluster> cluster, const QString& source) {
    RunData data{plan, std::move(run), source};
    data.index = indexRun(data);
    data.prediction = predictRunData(data, std::move(cluster));
    return data;
}

}  // namespace hsdp
