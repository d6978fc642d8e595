// SPDX-License-Identifier: Apache-2.0
#include "rank_timeline.h"

#include <algorithm>
#include <map>

#include "types/figures.h"

namespace hsdp::cli {

namespace {

struct Tally {
    int64_t count = 0, open = 0;
    double seconds = 0, first = 1e300, last = -1e300;

    void add(const TraceEvent& e, bool isOpen) {
        ++count;
        open += isOpen ? 1 : 0;
        seconds += (e.endUs - e.startUs) / 1e6;
        first = std::min(first, e.startUs);
        last = std::max(last, e.endUs);
    }
    double spanSeconds() const { return count ? (last - first) / 1e6 : 0; }
};

std::map<int, Tally> collectivesByRank(const Trace& trace) {
    std::map<int, Tally> out;
    for (const TraceEvent& e : trace.events)
        if (!isCompute(e)) out[e.rank].add(e, e.label.phase == kNeverCompletedPhase);
    return out;
}

int64_t stepsOf(const RecordedTimeline& recorded) {
    return std::max<int64_t>(1, recorded.lastStep - recorded.firstStep + 1);
}

}  // namespace

std::vector<RankTimeline> rankTimelines(const RecordedTimeline& recorded, const Trace& predicted) {
    const auto predictedByRank = collectivesByRank(predicted);
    const int64_t steps = stepsOf(recorded);
    std::vector<RankTimeline> rows;
    for (const auto& [rank, t] : collectivesByRank(recorded.trace)) {
        RankTimeline row;
        row.rank = rank;
        row.collectives = t.count / steps;
        row.open = t.open;
        // Per training step: a record of several is set beside one predicted step.
        row.recordedSeconds = t.seconds / double(steps);
        row.recordedSpanSeconds = t.spanSeconds() / double(steps);
        if (const auto p = predictedByRank.find(rank); p != predictedByRank.end()) {
            row.predictedCollectives = p->second.count;
            row.predictedSeconds = p->second.seconds;
            row.predictedSpanSeconds = p->second.spanSeconds();
        }
        rows.push_back(row);
    }
    return rows;
}

std::string rankTimelineText(const std::vector<RankTimeline>& rows,
                             const RecordedTimeline& recorded, size_t ranksChecked,
                             const std::string& clusterName) {
    if (rows.empty()) return {};
    const int64_t steps = stepsOf(recorded);
    std::string text =
        "\nPer rank, the recorded collectives beside the predicted ones on " + clusterName +
        (steps > 1 ? ", per training step (" + std::to_string(steps) + " recorded)" : "") +
        ": how many, the time in them (summed) and from the first one's start to the last "
        "one's end" +
        (rows.size() < ranksChecked
             ? " (" + std::to_string(rows.size()) + " of the " +
                   groupedCount(int64_t(ranksChecked)) + " ranks, evenly spaced)"
             : std::string()) +
        ":\n" +
        "    rank     collectives: recorded  planned    in them: recorded  predicted    "
        "first to last: recorded  predicted\n";
    for (const RankTimeline& r : rows)
        text += "    " + padRight(std::to_string(r.rank), 9) +
                padLeft(std::to_string(r.collectives), 22) + "  " +
                padRight(std::to_string(r.predictedCollectives), 7) + "    " +
                padLeft(durationText(r.recordedSeconds), 18) + "  " +
                padRight(durationText(r.predictedSeconds), 9) + "    " +
                padLeft(durationText(r.recordedSpanSeconds), 23) + "  " +
                durationText(r.predictedSpanSeconds) +
                (r.open ? "   (its last one never completed: counted to the record's end)" : "") +
                "\n";
    return text;
}

nlohmann::ordered_json rankTimelineJson(const std::vector<RankTimeline>& rows) {
    if (rows.empty()) return nullptr;
    auto out = nlohmann::ordered_json::array();
    for (const RankTimeline& r : rows)
        out.push_back({{"rank", r.rank},
                       {"recorded_collectives", r.collectives},
                       {"recorded_seconds", r.recordedSeconds},
                       {"recorded_span_seconds", r.recordedSpanSeconds},
                       {"never_completed", r.open},
                       {"predicted_collectives", r.predictedCollectives},
                       {"predicted_seconds", r.predictedSeconds},
                       {"predicted_span_seconds", r.predictedSpanSeconds}});
    return out;
}

}  // namespace hsdp::cli
