// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plan/plan.h"
#include "runtime/trace.h"
#include "types/geometry.h"
#include "types/step_memory.h"

namespace hsdp {

enum class RunMode { Corrected, Reference };
// NotReached: the run stopped (a failed collective elsewhere, a cancel) before
// this check could be made; nothing is known, as opposed to Error (it failed).
enum class GatherVerdict { Exact, Mismatch, NotGathered, Error, NotReached };
// The verdict of a check against the truth: the optimizer step, a TP transition.
enum class CheckVerdict { Exact, Mismatch, Error, NotReached };
// NotReached: the run stopped before every replica reported its final parameter.
enum class ReplicaVerdict { Identical, Diverged, NotReached };

std::string_view runModeName(RunMode mode);  // corrected | reference
// exact | mismatch | not-gathered | error | not-reached
std::string_view gatherVerdictName(GatherVerdict v);
std::string_view checkVerdictName(CheckVerdict v);      // exact | mismatch | error | not-reached
std::string_view replicaVerdictName(ReplicaVerdict v);  // identical | diverged | not-reached

// Where one rank's tensor differs from what it should hold.
struct Mismatch {
    int rank = -1;
    std::string what;              // gather | step | tp
    std::vector<IndexRange> rows;  // wrong rows along tensor dim 0 (global numbering when local)
    // Parallel to `rows`: the true rows the wrong ones hold (or, for an
    // update, the rows whose update they got); empty when they hold no row's
    // values (padding, garbage, missing).
    std::vector<IndexRange> heldRows;
    int64_t firstBadFlat = -1;  // flat index in the rank's tensor
    float expected = 0;
    float got = 0;
    std::string text;  // "rank 2 expected rows 4..7 got rows 2..5"
};

struct ParamRunResult {
    int index = 0;
    std::string name;
    std::vector<int64_t> shapeRun;  // the data shape actually run (after a shrink)
    GatherVerdict gather = GatherVerdict::NotGathered;
    CheckVerdict step = CheckVerdict::Exact;
    ReplicaVerdict replicas = ReplicaVerdict::Identical;
    std::string detail;  // human text naming the wrong rows / ranks, or the error
    std::vector<Mismatch> mismatches;
};

struct TpRunResult {
    int index = 0;
    std::string name;
    std::string path;  // lowered | identity | fallback (mixed groups: "lowered+fallback")
    CheckVerdict result = CheckVerdict::Exact;
    std::string detail;
    std::vector<Mismatch> mismatches;
};

// A parameter the planner rejected (docs/plan.md §1 errors): there is no HSDP
// path to run, so it is listed apart and does not count against `verified`.
struct NotRunParam {
    int index = 0;
    std::string name;
    std::string reason;
};

struct ShrinkInfo {
    int64_t factor = 1;
    std::string reason;
    int64_t bytesBefore = 0;  // estimated run bytes on the real shapes
    int64_t bytesAfter = 0;
    double flopsBefore = 0;
    double flopsAfter = 0;
    // The run's wire bytes (RunResult::bytes) at the real shapes: each
    // event's bytes scaled by its parameters' real / run element counts, rounded
    // (core/run/real_size.h); 0 when unknown (a saved run of an older version).
    int64_t realBytes = 0;
    // The collectives the step issues at the real shapes
    // (cost/collective_count.h), set by the front end that ran it; 0 unknown.
    int64_t realCollectives = 0;
};

// Everything the GUI and the CLI show about a run; nothing is recomputed downstream.
struct RunResult {
    RunMode mode = RunMode::Corrected;
    int worldSize = 0;
    bool verified = false;
    std::optional<ShrinkInfo> shrink;
    std::vector<ParamRunResult> params;  // every parameter that ran
    std::vector<NotRunParam> notRun;     // rejected by the planner
    // The plan's error diagnostics. A run is verified only without any (the
    // same rule as `plan`'s exit status), however well the bytes that ran check out.
    std::vector<Diagnostic> planErrors;
    std::vector<TpRunResult> tpTransitions;
    // docs/glossary.md "Collective": one collective call across its group,
    // counted once (distinct trace ids); a per-rank event is one member's part
    // of it, so rankEvents >= collectives.
    int64_t collectives = 0;
    int64_t rankEvents = 0;
    int64_t bytes = 0;   // wire bytes of the run as it ran (shrunk shapes when shrunk)
    double seconds = 0;  // wall time of the run
    // Of `seconds`, until every rank had connected its process groups (0 when
    // the run never got that far).
    double connectSeconds = 0;
    // Of `seconds`, before any rank connected: shrinking the shapes and
    // computing the single-device truth (0 when not measured: a run split
    // over worker processes, a saved run).
    double prepareSeconds = 0;
    // The optimizer step as it ran (all of it, the TP transitions included):
    // from the first rank's start (its local tensors built) to the last
    // rank's end, on the trace's clock. 0 when not measured (a failed or
    // cancelled run, a run split over processes, a saved run).
    double stepSeconds = 0;
    // [rank]: {start, end} of its step in microseconds on the trace's clock
    // ({0, 0}: not measured), what `--replay` starts and ends each rank at.
    std::vector<std::pair<double, double>> rankStepUs;
    Trace trace;
    // The data shape of each param and TP transition as the run used it
    // (shrunk or real): what the cost and memory models predict the run on.
    std::vector<std::vector<int64_t>> paramShapes;
    std::vector<std::vector<int64_t>> tpShapes;
    // Per rank that finished the step (ascending): its optimizer-step memory
    // as the rank's ledger counted the buffers it allocated.
    std::vector<StepMemory> memory;
    std::string error;  // the RunError text of a failed or cancelled run, empty otherwise
    int errorRank = -1;
    bool cancelled = false;
};

}  // namespace hsdp
