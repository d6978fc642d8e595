// SPDX-License-Identifier: Apache-2.0
#include "export/replay_json.h"

#include <cstdio>

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

std::string signedPercent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f %%", 100 * fraction);
    return text;
}

std::string seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, s < 0.01 ? "%.3g s" : "%.4f s", s);
    return text;
}

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
    out += "  step (makespan): measured " + seconds(replay.measuredSeconds) + ", replayed " +
           seconds(replay.replayedSeconds) + " (error " + signedPercent(replay.replayError()) +
           "), modelled " + seconds(replay.modelledSeconds) + "\n";
    out += "  durations       summed: measured   modelled     makespan with it modelled  carries\n";
    for (const ClassSubstitution& c : replay.classes) {
        char line[256];
        std::snprintf(line, sizeof line, "    %-15s %-12s %-12s %-26s %s\n",
                      std::string(durationClassName(c.durations)).c_str(),
                      seconds(c.measuredSeconds).c_str(), seconds(c.modelledSeconds).c_str(),
                      seconds(c.makespanSeconds).c_str(),
                      signedPercent(replay.carriedError(c)).c_str());
        out += line;
    }
    out +=
        "  carries: (makespan with the class modelled - replayed) / measured, the part of the\n"
        "  prediction's error that class's durations bring\n";
    return out;
}

}  // namespace hsdp
