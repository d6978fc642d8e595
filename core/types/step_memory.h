// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace hsdp {

// The device memory one rank holds during the optimizer step, by kind of
// buffer (docs/cost-model.md "Memory"). The runner counts these where it
// allocates them (runtime/memory_ledger.h); the cost model predicts the same
// (cost/step_memory_model.h); a run reports both.
enum class MemoryKind : uint8_t {
    Param,            // resident: the parameter shard, in its dtype
    Grad,             // resident: the gradient shard, in its dtype
    Momentum,         // resident: Muon's momentum shard, in its dtype
    GatherBuffer,     // a fused all-gather's receive buffer (every member's slot)
    FullMatrix,       // an owner's full matrix, fp32, for Newton–Schulz
    NewtonSchulz,     // Newton–Schulz workspace (X, A, B, B·X) and its result
    UpdatePayload,    // the fp32 update of each owned param, broadcast to the shard group
    BroadcastBuffer,  // a fused broadcast's buffer (one root's items, packed)
    ReplicaPayload,   // the updated shards sent to the replicas, in their dtype
};
inline constexpr int kMemoryKinds = 9;

// "param" | "grad" | "momentum" | "gather_buffer" | "full_matrix" |
// "newton_schulz" | "update_payload" | "broadcast_buffer" | "replica_payload"
std::string_view memoryKindName(MemoryKind kind);
// True for the kinds held for the whole step (param, grad, momentum).
bool isResident(MemoryKind kind);

using MemoryBytes = std::array<int64_t, kMemoryKinds>;  // bytes per MemoryKind
int64_t totalBytes(const MemoryBytes& bytes);

// One schedule entry's high-water mark on one rank.
struct EntryMemory {
    int scheduleIndex = -1;  // -1: the params held whole (no_comm), after the schedule
    int64_t peakBytes = 0;
    bool operator==(const EntryMemory&) const = default;
};

// One rank's step: the high-water mark, what made it up, and per entry.
struct StepMemory {
    int rank = 0;
    int64_t peakBytes = 0;
    MemoryBytes atPeak{};  // by kind, at the (first) moment of the peak
    int64_t residentBytes = 0;
    // Every byte allocated over the step, summed (allocator traffic): a
    // buffer the other side does not know changes it even below the peak.
    int64_t allocatedBytes = 0;
    std::vector<EntryMemory> entries;  // in step order; entries the rank takes part in
    bool operator==(const StepMemory&) const = default;
};

// Records a sequence of allocations and frees (by kind) and keeps the
// high-water marks: the ledger the runner fills and the model replays.
class MemoryTally {
public:
    void add(MemoryKind kind, int64_t bytes);
    void remove(MemoryKind kind, int64_t bytes);
    // Starts schedule entry `index`'s own high-water mark (-1: the local params).
    void beginEntry(int index);
    const MemoryBytes& current() const { return current_; }
    StepMemory result(int rank) const;

private:
    MemoryBytes current_{};
    int64_t total_ = 0;
    StepMemory peak_;
};

}  // namespace hsdp
