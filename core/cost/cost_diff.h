// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cost/plan_cost.h"

namespace hsdp {

// Two plans costed on one cluster, side by side: what `hsdp-inspect diff
// --cluster` reports and the studio's "What changed" panel can show. A plain
// value, made from the two PlanCosts by diffCosts.

// One plan's figures: the predicted step and its worst rank for memory.
struct CostSide {
    double stepSeconds = 0;
    int peakRank = 0;           // the first rank with the highest peak
    int64_t peakBytes = 0;      // that rank's high-water mark
    int64_t residentBytes = 0;  // of which that rank holds all step long
    int64_t deviceBytes = 0;    // the device's memory (0: the cluster does not say)

    // Whether every rank's peak fits the device (MemoryFit::fits).
    bool fits() const { return deviceBytes <= 0 || peakBytes <= deviceBytes; }
    int64_t overBytes() const { return fits() ? 0 : peakBytes - deviceBytes; }
};

// One phase's share of the critical path on each side (0 where a plan has
// no such phase).
struct PhaseChange {
    StepPhase phase = StepPhase::Gather;
    double beforeSeconds = 0;
    double afterSeconds = 0;
    // Of those, Newton–Schulz on the critical path (the owners' compute an
    // update broadcast waits for): said beside the phase, or the broadcast
    // reads as the time.
    double beforeNewtonSchulzSeconds = 0;
    double afterNewtonSchulzSeconds = 0;
    double change() const { return afterSeconds - beforeSeconds; }
};

// Which plan does better on a figure: the lower one, or neither when equal.
enum class Better { Before, After, Same };
std::string_view betterName(Better better);  // "before" | "after" | "same"

struct CostDiff {
    std::string cluster;       // the cluster's name, as costed
    std::string trust;         // its validated error (Cluster::trustText)
    double errorPercent = -1;  // that error in percent (-1: not validated)
    CostSide before;
    CostSide after;
    std::vector<PhaseChange> phases;  // every phase either plan has, in StepPhase order

    double stepSecondsChange() const { return after.stepSeconds - before.stepSeconds; }
    int64_t peakBytesChange() const { return after.peakBytes - before.peakBytes; }
    Better faster() const;  // the lower step time
    // Whether the step times differ by less than the validated error (of the
    // faster one): a verdict then is noise, not a reason to choose.
    bool withinError() const;
    Better lighter() const;  // the lower worst-rank peak
    // Which plans fit the device's memory: "both" | "before" | "after" |
    // "neither"; "unknown" when the cluster gives no device memory.
    std::string_view fit() const;
};

// `before` and `after` costed on the same cluster.
CostDiff diffCosts(const PlanCost& before, const PlanCost& after);

}  // namespace hsdp
