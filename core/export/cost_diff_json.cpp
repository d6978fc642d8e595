// SPDX-License-Identifier: Apache-2.0
#include "export/cost_diff_json.h"

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

Json sideJson(const CostSide& side) {
    return {{"step_seconds", side.stepSeconds},
            {"peak_bytes", side.peakBytes},
            {"peak_rank", side.peakRank},
            {"resident_bytes", side.residentBytes},
            {"device_memory_bytes", side.deviceBytes},
            {"fits", side.fits()},
            {"over_bytes", side.overBytes()}};
}

Json phasesJson(const CostDiff& diff) {
    Json out = Json::array();
    for (const auto& p : diff.phases)
        out.push_back({{"phase", stepPhaseName(p.phase)},
                       {"before_critical_seconds", p.beforeSeconds},
                       {"after_critical_seconds", p.afterSeconds},
                       {"critical_seconds_change", p.change()},
                       {"before_newton_schulz_seconds", p.beforeNewtonSchulzSeconds},
                       {"after_newton_schulz_seconds", p.afterNewtonSchulzSeconds}});
    return out;
}

}  // namespace

nlohmann::ordered_json costDiffToJson(const CostDiff& diff) {
    return {{"cluster", diff.cluster},
            {"validated_error", diff.trust},
            {"before", sideJson(diff.before)},
            {"after", sideJson(diff.after)},
            {"step_seconds_change", diff.stepSecondsChange()},
            {"peak_bytes_change", diff.peakBytesChange()},
            {"phases", phasesJson(diff)},
            {"faster", betterName(diff.faster())},
            {"faster_within_error", diff.withinError()},
            {"lighter", betterName(diff.lighter())},
            {"fit", diff.fit()}};
}

}  // namespace hsdp
