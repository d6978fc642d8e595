// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accuracy/run_prediction.h"
#include "runtime/trace.h"

namespace hsdp {

// A measured run pushed back through the step's dependency graph
// (docs/cost-model.md, "Replaying a run"): every rank in program order, each
// collective starting when its last member arrives, but every duration the
// run's own (each collective from its last member's arrival to its last
// member's end, each compute span, and each rank's time between the spans it
// traced: its own work the schedule has no item for). A replay close to the
// measured makespan proves the graph; substituting the model's durations for
// one class at a time shows which class carries the model's error.

// The classes of durations a replay takes from the run, one at a time
// replaced by the model's.
enum class DurationClass : uint8_t {
    Collectives,   // each collective's time (the cluster's link figures)
    NewtonSchulz,  // the Newton–Schulz spans
    PackUnpack,    // packing the send slots and unpacking the gathered buffers
    Update,        // slicing the update, verifying it, param -= lr * update
    RankOverhead,  // a rank's time outside every traced span: thread wake-ups,
                   // bookkeeping, the runner's own checks (the model: none)
};
inline constexpr DurationClass kDurationClasses[] = {
    DurationClass::Collectives, DurationClass::NewtonSchulz, DurationClass::PackUnpack,
    DurationClass::Update, DurationClass::RankOverhead};
// "collectives" | "newton_schulz" | "pack_unpack" | "update" | "rank_overhead"
std::string_view durationClassName(DurationClass c);

// The replay with one class of durations the model's instead of the run's.
struct ClassSubstitution {
    DurationClass durations = DurationClass::Collectives;
    double measuredSeconds = 0;  // the class's durations as the run had them, summed
    double modelledSeconds = 0;  // as the model prices them, summed
    double makespanSeconds = 0;  // the replay with this class modelled
};

struct StepReplay {
    double measuredSeconds = 0;              // the run's step makespan
    double modelledSeconds = 0;              // the prediction's makespan
    double replayedSeconds = 0;              // every duration the run's
    std::vector<ClassSubstitution> classes;  // in kDurationClasses order
    // Why no replay was made (the schedule disagrees with the trace); empty: made.
    std::vector<std::string> mismatches;

    bool made() const { return mismatches.empty() && replayedSeconds > 0; }
    // (replayed - measured) / measured, and a class's (substituted - replayed) / measured:
    // the part of the makespan's error that class carries.
    double replayError() const;
    double carriedError(const ClassSubstitution& c) const;
};

// `prediction` (predictRun of the run) replayed with the run's `trace` and
// each rank's {start, end} step times in µs on the trace's clock
// (RunResult::rankStepUs; empty: from each rank's first to its last span).
StepReplay replayStep(const RunPrediction& prediction, const Trace& trace,
                      const std::vector<std::pair<double, double>>& rankStepUs);

}  // namespace hsdp
