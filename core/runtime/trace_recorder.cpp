// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <tuple>

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

namespace {

void sortByRankAndStart(std::vector<TraceEvent>& events) {
    std::stable_sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
        return std::tie(a.rank, a.startUs, a.seq) < std::tie(b.rank, b.startUs, b.seq);
    });
}

}  // namespace

std::map<int64_t, int64_t> numberInProgramOrder(std::vector<TraceEvent>& events) {
    sortByRankAndStart(events);
    using Place = std::pair<int64_t, int>;  // (position among the rank's collectives, rank)
    std::map<int64_t, Place> place;
    int rank = -1;
    int64_t position = 0;
    for (const auto& e : events) {
        if (isCompute(e)) continue;
        if (e.rank != rank) rank = e.rank, position = 0;
        const Place here{position++, e.rank};
        auto [it, added] = place.try_emplace(e.seq, here);
        if (!added) it->second = std::min(it->second, here);
    }
    std::vector<std::pair<Place, int64_t>> order;
    for (const auto& [seq, p] : place) order.push_back({p, seq});
    std::sort(order.begin(), order.end());
    std::map<int64_t, int64_t> ids;
    for (size_t i = 0; i < order.size(); ++i) ids[order[i].second] = int64_t(i);
    for (auto& e : events)
        if (!isCompute(e)) e.seq = ids.at(e.seq);
    sortByRankAndStart(events);  // ties between equal starts follow the new ids
    return ids;
}

Trace TraceRecorder::take() {
    std::lock_guard lock(mutex_);
    std::vector<TraceEvent> events;
    events.swap(events_);
    numberInProgramOrder(events);
    return Trace{std::move(events)};
}

TraceTotals TraceRecorder::totals() const {
    std::lock_guard lock(mutex_);
    return totals_;
}

}  // namespace hsdp
