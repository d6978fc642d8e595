// SPDX-License-Identifier: Apache-2.0
#include "accuracy/replay_json.h"

#include <cstdio>

#include "types/figures.h"

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

}  // namespace

Json replayToJson(const StepReplay& replay) {
    Json out;
    out["measured_seconds"] = replay.measuredSeconds;
    out["modelled_seconds"] = replay.modelledSeconds;
    if (!replay.made()) {
        out["replayed_seconds"] = nullptr;
        out["mismatches"] = replay.mismatches;
        return out;
    }
    out["replayed_seconds"] = replay.replayedSeconds;
    out["replay_error"] = replay.replayError();
    Json classes = Json::array();
    for (const ClassSubstitution& c : replay.classes)
        classes.push_back({{"durations", std::string(durationClassName(c.durations))},
                           {"measured_seconds", c.measuredSeconds},
                           {"modelled_seconds", c.modelledSeconds},
                           {"makespan_seconds", c.makespanSeconds},
                           {"carried_error", replay.carriedError(c)}});
    out["classes"] = classes;
    return out;
}

std::string replayToText(const StepReplay& replay) {
    std::string out =
        "Replay (the run's own durations through the step's dependency graph; then one class\n"
        "of durations at a time the model's, all others the run's):\n";
    if (!replay.made()) {
        out += "  not made: the schedule disagrees with the trace\n";
        for (const auto& m : replay.mismatches) out += "    " + m + "\n";
        return out;
    }
    out += "  step (makespan): measured " + durationText(replay.measuredSeconds) + ", replayed " +
           durationText(replay.replayedSeconds) + " (error " +
           signedPercentText(replay.replayError()) + "), modelled " +
           durationText(replay.modelledSeconds) + "\n";
    char header[256];
    std::snprintf(header, sizeof header, "    %-15s %-12s %-12s %-26s %s\n", "durations",
                  "measured", "modelled", "makespan, it modelled", "carries");
    out += header;
    for (const ClassSubstitution& c : replay.classes) {
        char line[256];
        std::snprintf(line, sizeof line, "    %-15s %-12s %-12s %-26s %s\n",
                      std::string(durationClassName(c.durations)).c_str(),
                      durationText(c.measuredSeconds).c_str(),
                      durationText(c.modelledSeconds).c_str(),
                      durationText(c.makespanSeconds).c_str(),
                      signedPercentText(replay.carriedError(c)).c_str());
        out += line;
    }
    out +=
        "  measured and modelled: the class's durations summed over every rank; carries:\n"
        "  (makespan with the class modelled - replayed) / measured, the part of the\n"
        "  prediction's error that class's durations bring\n";
    return out;
}

}  // namespace hsdp
