// SPDX-License-Identifier: Apache-2.0
#include "types/step_memory.h"

#include <numeric>
#include <stdexcept>

namespace hsdp {

std::string_view memoryKindName(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::Param:
            return "param";
        case MemoryKind::Grad:
            return "grad";
        case MemoryKind::Momentum:
            return "momentum";
        case MemoryKind::GatherBuffer:
            return "gather_buffer";
        case MemoryKind::FullMatrix:
            return "full_matrix";
        case MemoryKind::NewtonSchulz:
            return "newton_schulz";
        case MemoryKind::UpdatePayload:
            return "update_payload";
        case MemoryKind::BroadcastBuffer:
            return "broadcast_buffer";
        case MemoryKind::ReplicaPayload:
            return "replica_payload";
    }
    return "?";
}

bool isResident(MemoryKind kind) {
    return kind == MemoryKind::Param || kind == MemoryKind::Grad || kind == MemoryKind::Momentum;
}

int64_t totalBytes(const MemoryBytes& bytes) {
    return std::accumulate(bytes.begin(), bytes.end(), int64_t(0));
}

void MemoryTally::add(MemoryKind kind, int64_t bytes) {
    current_[size_t(kind)] += bytes;
    total_ += bytes;
    peak_.allocatedBytes += bytes;
    if (isResident(kind)) peak_.residentBytes += bytes;
    if (total_ > peak_.peakBytes) {
        peak_.peakBytes = total_;
        peak_.atPeak = current_;
    }
    if (!peak_.entries.empty())
        peak_.entries.back().peakBytes = std::max(peak_.entries.back().peakBytes, total_);
}

void MemoryTally::remove(MemoryKind kind, int64_t bytes) {
    if (bytes > current_[size_t(kind)])
        throw std::logic_error("memory tally: more " + std::string(memoryKindName(kind)) +
                               " bytes freed than held");
    current_[size_t(kind)] -= bytes;
    total_ -= bytes;
    if (isResident(kind)) peak_.residentBytes -= bytes;
}

void MemoryTally::beginEntry(int index) {
    peak_.entries.push_back({index, total_});
}

StepMemory MemoryTally::result(int rank) const {
    StepMemory out = peak_;
    out.rank = rank;
    return out;
}

}  // namespace hsdp
