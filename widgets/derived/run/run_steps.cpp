// SPDX-License-Identifier: Apache-2.0
#include "derived/run/run_steps.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "types/figures.h"

namespace hsdp {

namespace {

// A group's collectives take run-wide ids in its program order (every
// member calls them in that order), so seq order numbers them on the group.
void numberOnGroups(std::vector<RunStep>& steps, const Trace& trace) {
    std::vector<RunStep*> bySeq;
    for (RunStep& step : steps) bySeq.push_back(&step);
    std::sort(bySeq.begin(), bySeq.end(),
              [](const RunStep* a, const RunStep* b) { return a->seq < b->seq; });
    std::map<std::vector<int>, int64_t> counts;
    for (RunStep* step : bySeq)
        step->groupSeq = ++counts[sortedGroupRanks(trace.events[size_t(step->events.front())])];
}

}  // namespace

std::vector<RunStep> runSteps(const Trace& trace) {
    std::vector<RunStep> steps;
    std::unordered_map<int64_t, size_t> position;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent& e = trace.events[i];
        if (isCompute(e)) continue;  // a step is a collective
        auto [it, added] = position.emplace(e.seq, steps.size());
        if (added) steps.push_back({e.seq, 0, {}, {}, e.startUs, e.startUs, e.endUs});
        RunStep& step = steps[it->second];
        step.events.push_back(static_cast<int>(i));
        step.ranks.push_back(e.rank);
        step.firstStartUs = std::min(step.firstStartUs, e.startUs);
        step.readyUs = std::max(step.readyUs, e.startUs);
        step.endUs = std::max(step.endUs, e.endUs);
    }
    for (RunStep& step : steps) {
        std::vector<size_t> order(step.events.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return step.ranks[a] < step.ranks[b]; });
        RunStep sorted = step;
        for (size_t i = 0; i < order.size(); ++i) {
            sorted.events[i] = step.events[order[i]];
            sorted.ranks[i] = step.ranks[order[i]];
        }
        step = std::move(sorted);
    }
    numberOnGroups(steps, trace);
    std::sort(steps.begin(), steps.end(), [](const RunStep& a, const RunStep& b) {
        return a.readyUs != b.readyUs ? a.readyUs < b.readyUs : a.seq < b.seq;
    });
    return steps;
}

std::string collectiveName(const RunStep& step, const Trace& trace) {
    const TraceEvent& e = trace.events.at(size_t(step.events.front()));
    return e.op + " #" + std::to_string(step.groupSeq) + " of group " +
           groupRanksText(sortedGroupRanks(e));
}

std::vector<int> sortedGroupRanks(const TraceEvent& event) {
    std::vector<int> ranks = event.groupRanks;
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

int stepOfSeq(const std::vector<RunStep>& steps, int64_t seq) {
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i].seq == seq) return static_cast<int>(i);
    return -1;
}

}  // namespace hsdp
