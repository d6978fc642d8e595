// SPDX-License-Identifier: Apache-2.0
#include "recorded_times.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "accuracy/run_prediction.h"
#include "types/figures.h"

namespace hsdp::cli {

namespace {

struct OpTimes {
    size_t count = 0;
    double recorded = 0, predicted = 0;
    std::vector<double> errors;  // |predicted - recorded| / recorded, one per collective
};

std::map<std::string, OpTimes> byOp(const TimedCollectives& timed, OpTimes& all) {
    std::map<std::string, OpTimes> out;
    for (const JobCollectiveSample& s : timed.samples) {
        const double error = relativeError(s.seconds, s.predictedBefore);
        for (OpTimes* t : {&out[std::string(traceNameOf(s.op))], &all}) {
            ++t->count;
            t->recorded += s.seconds;
            t->predicted += s.predictedBefore;
            t->errors.push_back(error);
        }
    }
    return out;
}

// Recorded over predicted, summed: "9.5×" (the sums weigh the largest
// collectives most, the median error counts each collective once).
std::string sumsRatioText(double recorded, double predicted) {
    return predicted > 0 ? ratioText(recorded / predicted) : "-";
}

std::string rowText(const std::string& name, const OpTimes& t) {
    return "    " + padRight(name, 14) + " " + padLeft(std::to_string(t.count), 5) +
           "   recorded " + padRight(durationText(t.recorded), 11) + " predicted " +
           padRight(durationText(t.predicted), 11) + " recorded/predicted " +
           padRight(sumsRatioText(t.recorded, t.predicted), 7) + " median error " +
           percentText(medianOf(t.errors)) + "\n";
}

}  // namespace

std::string recordedTimesText(const TimedCollectives& timed, const std::string& clusterName,
                              bool clusterChosen) {
    if (timed.samples.empty()) return {};
    OpTimes all;
    const auto ops = byOp(timed, all);
    std::string text = "\nRecorded times beside the model's on " + clusterName +
                       (clusterChosen ? "" : " (the default: --cluster names the job's cluster)") +
                       ", " + groupedCount(int64_t(timed.samples.size())) + " of " +
                       groupedCount(int64_t(timed.collectives)) +
                       " collectives timed by every member. Each one's time is its shortest "
                       "member's. The sums and their ratio weigh the largest collectives most; "
                       "the median error counts each collective once:\n";
    for (const auto& [name, t] : ops) text += rowText(name, t);
    text += rowText("all", all);
    return text;
}

nlohmann::ordered_json recordedTimesJson(const TimedCollectives& timed,
                                         const std::string& clusterName) {
    if (timed.samples.empty()) return nullptr;
    OpTimes all;
    auto out = nlohmann::ordered_json::object();
    out["cluster"] = clusterName;
    out["collectives"] = timed.collectives;
    out["timed"] = timed.samples.size();
    out["ops"] = nlohmann::ordered_json::array();
    for (const auto& [name, t] : byOp(timed, all))
        out["ops"].push_back({{"op", name},
                              {"count", t.count},
                              {"recorded_seconds", t.recorded},
                              {"predicted_seconds", t.predicted},
                              {"recorded_over_predicted",
                               t.predicted > 0 ? nlohmann::ordered_json(t.recorded / t.predicted)
                                               : nlohmann::ordered_json(nullptr)},
                              {"median_error", medianOf(t.errors)}});
    out["recorded_seconds"] = all.recorded;
    out["predicted_seconds"] = all.predicted;
    out["median_error"] = medianOf(all.errors);
    return out;
}

}  // namespace hsdp::cli
