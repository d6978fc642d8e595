// SPDX-License-Identifier: Apache-2.0
#include "job_check/job_check_json.h"

#include "job_check/job_check_text.h"
#include "types/collective_op.h"

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

Json expectedJson(int c, const PlannedStep& step, const Scenario& scenario, const Plan& plan) {
    const ScheduledCollective& sc = step.schedule.collectives[size_t(c)];
    const bool tp = sc.phase == StepPhase::Tp;
    Json out;
    out["op"] = std::string(traceNameOf(sc.op));
    // Counted from 0, as the plan lists its schedule: not "step", which read
    // as a training step beside training_step (from 1).
    out["schedule_entry"] = tp ? Json(nullptr) : Json(sc.scheduleIndex);
    out["batch"] = tp ? Json(nullptr) : Json(sc.batch);
    out["group"] = tp ? Json(nullptr) : Json(sc.planGroup);
    out["tp_transition"] = tp ? Json(sc.tpTransition) : Json(nullptr);
    out["params"] = collectiveParams(step, scenario, plan, c);
    return out;
}

Json recordedJson(const FlightRecorderEntry& e) {
    Json out;
    out["profiling_name"] = e.profilingName;
    out["input_sizes"] = e.inputSizes;
    out["output_sizes"] = e.outputSizes;
    out["input_dtypes"] = e.inputDtypes;
    out["state"] = std::string(collectiveStateName(e.state));
    return out;
}

Json divergenceJson(const JobDivergence& d, const JobCheck& check, const PlannedStep& step,
                    const Scenario& scenario, const Plan& plan) {
    Json out;
    out["kind"] = std::string(divergenceKindName(d.kind));
    out["rank"] = d.rank;
    out["process_group"] = Json{{"ranks", d.groupRanks}, {"desc", d.groupDesc}};
    out["collective_seq_id"] = d.seqId;
    out["training_step"] = d.trainingStep;
    out["expected"] = d.expected ? expectedJson(*d.expected, step, scenario, plan) : Json(nullptr);
    out["recorded"] = d.recorded ? recordedJson(*d.recorded) : Json(nullptr);
    if (d.kind == DivergenceKind::Order) {
        out["expected_second"] = expectedJson(*d.expectedSecond, step, scenario, plan);
        out["recorded_second"] = recordedJson(*d.recordedSecond);
    }
    if (d.kind == DivergenceKind::Stuck) out["completed_by"] = d.peers;
    if (d.kind == DivergenceKind::Missing) out["recorded_by"] = d.peers;
    out["text"] = divergenceSentence(d, check, step, scenario, plan);
    return out;
}

}  // namespace

Json jobCheckToJson(const JobCheck& check, const PlannedStep& step, const Scenario& scenario,
                    const Plan& plan) {
    Json out;
    out["format"] = "hsdp-job-check/1";
    out["scenario"] = scenario.name;
    out["ranks"] = check.ranks;
    out["ranks_from_trace"] = check.ranksFromTrace;
    out["record_world_size"] = check.recordWorldSize;
    out["matched"] = check.matched;
    out["divergences"] = Json::array();
    for (const JobDivergence& d : check.divergences)
        out["divergences"].push_back(divergenceJson(d, check, step, scenario, plan));
    out["first"] = check.first ? out["divergences"][*check.first] : Json(nullptr);
    return out;
}

}  // namespace hsdp
