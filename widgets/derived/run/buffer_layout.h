// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "derived/plan/plan_selection.h"
#include "derived/run/exchange_layout.h"
#include "derived/run/run_data.h"
#include "runtime/trace.h"
#include "types/geometry.h"

namespace hsdp {

// One collective of a run's trace that moved a fused buffer (a gather, an
// update or a replica broadcast): the events of its members, as recorded.
struct BufferCollective {
    int64_t seq = -1;
    const TraceEvent* event = nullptr;       // the first member's (label, op, group ranks)
    std::vector<const TraceEvent*> members;  // group order; nullptr: no event from that rank
    bool isGather() const { return event && event->label.phase == "gather"; }
    bool isExchange() const { return event && event->op == "all_to_all_v"; }
};

// Every fused-buffer collective of `run` (events with segments), by seq.
// The pointers point into run.trace.
std::vector<BufferCollective> bufferCollectives(const RunResult& run);

// Which of `collectives` a selection shows: the selected collective when it
// is one of them, else the first gather of the selected group/batch (holding
// the focus param if there is one), else the first gather holding the focus
// param; -1 when nothing fits. `state.group` is a plan group id here (the
// trace's), not a position.
int pickCollective(const std::vector<BufferCollective>& collectives, const SelectionState& state);

// One member's slot of a fused buffer, as its own trace event recorded it.
struct SlotRow {
    int rank = -1;
    std::vector<BufferSegment> segments;  // the engine's, never recomputed
    int64_t slotBytes = 0;                // end of the last segment
};

// How one member's slot becomes rows of the gathered piece.
struct RowCut {
    int rank = -1;
    int64_t coordinate = 0;  // along the gathered mesh dim
    IndexSet rows;           // global indices along the gathered tensor dim, slot order
    BufferSegment segment;   // where those rows sit in the member's slot
};

// The selected param cut out of a gather's rank-major buffer (the engine's
// gatherAxisRows geometry: uneven, nested and strided shards alike).
struct TensorCut {
    int param = -1;
    int tensorDim = 0;
    IndexSet target;              // the piece every member holds afterwards
    std::vector<RowCut> members;  // group order
};

// Everything the buffer view draws for one collective and one rank.
struct BufferLayout {
    int64_t seq = -1;
    std::string mode;  // corrected | reference: the run's
    std::string op, phase, mesh;
    int meshDim = -1, group = -1, batch = -1;
    std::vector<int> groupRanks;
    std::vector<int> params;  // the collective's params, buffer order (colour order)
    std::vector<std::string> paramNames;
    int rank = -1;                     // whose send buffer is shown
    SlotRow send;                      // that rank's packed buffer
    std::vector<SlotRow> memberSlots;  // gather: the rank-major buffer, one row per member
    std::optional<TensorCut> cut;
    // all_to_all_v (the all-to-all gather strategy): the rank's send and
    // receive buffers, block by peer, in place of the send and member slots.
    std::optional<ExchangeLayout> exchange;
    // Shrunk runs: every byte above is of the shrunk shapes; realRatio turns
    // this buffer's bytes into the real shapes' (run/real_size.h), when known.
    int64_t shrinkFactor = 1;  // 1: the run used the real shapes
    std::optional<double> realRatio;

    int64_t widestSlot() const;
    bool shrunk() const { return shrinkFactor > 1; }
    // The param's colour: its role's position among the buffer's roles (the
    // name with its numbers left out: layers.3.attention.wq.weight is
    // attention.wq.weight's), -1 if absent. 112 params in 10 colours
    // repeated without meaning; by role, one colour is one kind of matrix.
    int colourOf(int param) const;
    std::vector<int> colours;  // per param, as colourOf says
    std::string nameOf(int param) const;
};

// `rank` must be a member (else the first member is shown); `param` the one
// to cut out (-1 or not gathered here: the first of the buffer).
BufferLayout bufferLayout(const RunData& data, const BufferCollective& collective, int rank,
                          int param);

}  // namespace hsdp
