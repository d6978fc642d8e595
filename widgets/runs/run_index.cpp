// SPDX-License-Identifier: Apache-2.0
#include "runs/run_index.h"

#include "run/real_size.h"
#include "runs/run_data.h"
#include "trace/trace_timeline.h"

namespace hsdp {

std::shared_ptr<const RunIndex> indexRun(const RunData& run) {
    if (!run.isValid()) return nullptr;
    auto index = std::make_shared<RunIndex>();
    const RunResult& result = *run.run;
    index->steps = runSteps(result.trace);
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

}  // namespace hsdp
