// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include "runtime/trace.h"

namespace hsdp {

int64_t TraceRecorder::globalSeq(const std::string& groupKey, int64_t groupSeq) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = seqs_.try_emplace({groupKey, groupSeq}, nextSeq_);
    if (inserted) ++nextSeq_;
    return it->second;
}

bool isComputeOp(std::string_view op) {
    return op == "pack" || op == "unpack" || op == "newton_schulz" || op == "update";
}

bool isCompute(const TraceEvent& event) {
    return isComputeOp(event.op);
}

void TraceRecorder::record(TraceEvent event) {
    const bool compute = isCompute(event);
    std::lock_guard lock(mutex_);
    if (compute) {
        event.seq = -(++computeEvents_);
        events_.push_back(std::move(event));
        return;
    }
    if (recorded_.insert(event.seq).second) totals_.collectives += 1;
    totals_.rankEvents += 1;
    totals_.bytes += event.bytes;
    events_.push_back(std::move(event));
}

Trace TraceRecorder::take() {
    std::vector<TraceEvent> events;
    {
        std::lock_guard lock(mutex_);
        events.swap(events_);
    }
    std::stable_sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
        if (a.rank != b.rank) return a.rank < b.rank;
        if (a.startUs != b.startUs) return a.startUs < b.startUs;
        return a.seq < b.seq;
    });
    return Trace{std::move(events)};
}

TraceTotals TraceRecorder::totals() const {
    std::lock_guard lock(mutex_);
    return totals_;
}

}  // namespace hsdp
