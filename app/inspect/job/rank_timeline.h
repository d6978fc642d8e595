// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "job_check/recorded_timeline.h"
#include "runtime/trace.h"

namespace hsdp::cli {

// check-job's per-rank timeline (docs/job-records.md "Recorded times"):
// each drawn rank's recorded collectives beside the same rank's predicted
// ones, per training step: how many, the time in them (summed), and the
// span from the first one's start to the last one's end. `predicted` is the
// prediction's trace of those ranks (predictedTrace) on `clusterName`.
struct RankTimeline {
    int rank = 0;
    int64_t collectives = 0;  // recorded, per training step
    int64_t open = 0;         // never completed: drawn to the record's newest time
    double recordedSeconds = 0, recordedSpanSeconds = 0;
    int64_t predictedCollectives = 0;
    double predictedSeconds = 0, predictedSpanSeconds = 0;
};
std::vector<RankTimeline> rankTimelines(const RecordedTimeline& recorded, const Trace& predicted);

// The block's text ("" when nothing is timed; `ranksChecked`: the ranks of
// the record, of which `rows` may be a few) and JSON (null then).
std::string rankTimelineText(const std::vector<RankTimeline>& rows,
                             const RecordedTimeline& recorded, size_t ranksChecked,
                             const std::string& clusterName);
nlohmann::ordered_json rankTimelineJson(const std::vector<RankTimeline>& rows);

}  // namespace hsdp::cli
