// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>

#include <array>

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string_view>
#include <vector>

#include "cost/collective_cost.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// What the optimizer step does, rank by rank, in the order the runner does it
// (run/optimizer_step.cpp, run/detail/tp_transition.cpp): the collectives with
// their groups and sizes, and the compute between them. Built from the plan
// and the data shapes alone, without running anything, so it exists for any
// world size; tests hold it against the trace of a real run collective for
// collective (op, group, bytes).

// The phases of the step, as the trace's labels spell them; Local is the
// Newton–Schulz of a param held whole (an unsharded batch, a no-comm param).
enum class StepPhase : uint8_t { Gather, UpdateBroadcast, ReplicaBroadcast, Local, Tp };
// "gather" | "update-broadcast" | "replica-broadcast" | "local" | "tp"
std::string_view stepPhaseName(StepPhase phase);

enum class WorkKind : uint8_t {
    Collective,    // an instance of StepSchedule::collectives
    Pack,          // encoding shards into a fused send slot: `amount` bytes written
    Unpack,        // decoding the gathered buffer into full matrices: `amount` bytes read
    NewtonSchulz,  // `amount` FLOPs (newtonSchulzFlops), as options.newton_schulz says
    Update,        // slicing the update and param -= lr * update: `amount` bytes moved
};
// "collective" | "pack" | "unpack" | "newton_schulz" | "update"
std::string_view workKindName(WorkKind kind);

// One collective, shared by every member of its group.
struct ScheduledCollective {
    CollectiveOp op = CollectiveOp::AllGather;
    int group = 0;          // index into StepSchedule::groups
    int64_t sizeBytes = 0;  // as NCCL-tests counts it (collectiveCost)
    int root = -1;          // broadcast: the root's position in the group
    StepPhase phase = StepPhase::Gather;
    int scheduleIndex = -1;  // position in plan.schedule (gather and broadcasts)
    int planGroup = -1;
    int batch = -1;
    int tpTransition = -1;
    int meshDim = -1;  // -1: the all-to-all exchange, over every shard mesh dim at once
    // all_to_all_v: each member's bytes (group order); empty for other ops.
    // One vector, not three: a schedule holds millions of collectives.
    struct ExchangeBytes {
        int64_t sent = 0;    // to the others, its own block left out (on the wire)
        int64_t input = 0;   // its whole send buffer, its own block included
        int64_t output = 0;  // its whole receive buffer, its own block included
    };
    std::vector<ExchangeBytes> exchange;
    // A reduction's element type (the TP transition's, fp32 for an average of
    // 2-byte values): what the reduction computes in; nullopt for bytes moved as they are.
    std::optional<DType> reduction;
};

// One item of a rank's sequence.
struct RankWork {
    WorkKind kind = WorkKind::Collective;
    StepPhase phase = StepPhase::Gather;
    int scheduleIndex = -1;  // or the TP transition, for phase Tp
    // Kind Collective: index into StepSchedule::collectives. Compute: the one
    // param it works on (Newton–Schulz, an update), -1 for packing several.
    int collective = -1;
    double amount = 0;  // compute: bytes or FLOPs (see WorkKind)

    int param() const { return kind == WorkKind::Collective ? -1 : collective; }
};

struct StepSchedule {
    int worldSize = 0;
    std::vector<std::vector<int>> groups;  // distinct communicator groups, ranks in group order
    std::vector<ScheduledCollective> collectives;
    std::vector<std::vector<RankWork>> ranks;  // [rank]: what it does, in order
    // What Newton–Schulz runs, so each matrix is priced in its dtype at its
    // size (cost/newton_schulz_cost.h): the scenario's options and, per
    // param, its matrices' short and long side ({0, 0}: not a matrix).
    NewtonSchulzOptions newtonSchulz;
    std::vector<std::array<int64_t, 2>> matrixSides;

    // Bytes `rank` puts on the wire for `c` under the algorithm Gloo runs (the
    // trace's TraceEvent::bytes), so a schedule can be held against a trace.
    int64_t traceBytes(const ScheduledCollective& c, int rank) const;
};

// The corrected step's schedule for `plan` with the data shapes
// `paramShapes` (per param) and `tpShapes` (per TP transition): the real
// shapes, or a shrunk run's. Throws std::invalid_argument when the shapes do
// not fit the scenario.
StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan,
                          const std::vector<std::vector<int64_t>>& paramShapes,
                          const std::vector<std::vector<int64_t>>& tpShapes);

// The same with the scenario's own (real) shapes.
StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan);

// The most work items, all ranks' together, a schedule may hold (0: any).
// Each costs about 40 bytes with its simulated span: a plan of many batches
// at 131,072 ranks holds hundreds of millions, GiB the studio must not take.
// `stop`: the caller no longer wants the schedule (types/stopped.h).
// About what one work item costs with its simulated span, in bytes.
constexpr double kScheduleItemBytes = 40;
// The most work items a schedule the studio builds may hold: the
// prediction's and each gather strategy's. A 16,384-rank MoE plan of three
// batches holds about 4 M and fits; at 131,072 ranks tens of millions do not,
// and the view says so (ScheduleTooLarge's text) instead of taking GiB; the
// CLI has no limit.
constexpr int64_t kStudioScheduleItems = 12'000'000;
struct ScheduleBudget {
    int64_t maxWorkItems = 0;
    std::stop_token stop;
};

// Thrown when a schedule outgrows its budget; says by how much.
class ScheduleTooLarge : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// stepSchedule within `budget`: throws ScheduleTooLarge past it.
StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan,
                          const std::vector<std::vector<int64_t>>& paramShapes,
                          const std::vector<std::vector<int64_t>>& tpShapes,
                          const ScheduleBudget& budget);

// Only the phases that get the matrices to Newton–Schulz and the update back
// (Gather and UpdateBroadcast, with their compute): no replica broadcast, no
// local params, no TP; without `withCompute` only the collectives. A fraction
// of the whole schedule's cost, for figures that need only those phases
// (gather_traffic.h: collectives; the strategy choice: with their compute).
StepSchedule gatherSchedule(const Scenario& scenario, const Plan& plan,
                            const std::vector<std::vector<int64_t>>& paramShapes,
                            bool withCompute = true, const ScheduleBudget& budget = {});

}  // namespace hsdp
