// SPDX-License-Identifier: Apache-2.0
#include "export/chrome_trace.h"

#include <algorithm>
#include <map>
#include <set>

namespace hsdp {
namespace {

using Json = nlohmann::ordered_json;

Json orNull(int value) {
    return value < 0 ? Json(nullptr) : Json(value);
}
Json orNull(const std::string& value) {
    return value.empty() ? Json(nullptr) : Json(value);
}

Json segmentsJson(const std::vector<BufferSegment>& segments) {
    Json list = Json::array();
    for (const auto& segment : segments)
        list.push_back({{"param", segment.param},
                        {"offset", segment.offset},
                        {"length", segment.length},
                        {"padding", segment.padding}});
    return list;
}

Json argsJson(const TraceEvent& event, const ChromeTraceOptions& options) {
    const CollectiveLabel& label = event.label;
    Json args = {{"op", event.op},
                 {"seq", event.seq},
                 {"group_ranks", event.groupRanks},
                 {"bytes", event.bytes},
                 {"step", orNull(label.scheduleIndex)},
                 {"group", orNull(label.group)},
                 {"batch", orNull(label.batch)},
                 {"phase", orNull(label.phase)},
                 {"mesh", orNull(label.mesh)},
                 {"mesh_dim", orNull(label.meshDim)},
                 {"tp_transition", orNull(label.tpTransition)},
                 {"params", label.params}};
    if (!options.paramNames.empty()) {
        Json names = Json::array();
        for (int param : label.params)
            names.push_back(param >= 0 && param < static_cast<int>(options.paramNames.size())
                                ? Json(options.paramNames[static_cast<size_t>(param)])
                                : Json(nullptr));
        args["param_names"] = std::move(names);
    }
    args["segments"] = segmentsJson(label.segments);
    if (!label.peerBytes.empty()) args["peer_bytes"] = label.peerBytes;
    return args;
}

Json eventJson(const TraceEvent& event, const ChromeTraceOptions& options) {
    const std::string& phase = event.label.phase;
    return {{"name", phase.empty() ? event.op : event.op + " (" + phase + ")"},
            {"cat", isCompute(event) ? std::string("compute")
                    : phase.empty()  ? std::string("collective")
                                     : phase},
            {"ph", "X"},
            {"ts", event.startUs},
            {"dur", std::max(0.0, event.endUs - event.startUs)},
            {"pid", event.rank},
            {"tid", 0},
            {"args", argsJson(event, options)}};
}

// Perfetto names and orders processes from these metadata events.
void addRankMetadata(Json& events, int rank) {
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", rank},
                      {"tid", 0},
                      {"args", {{"name", "rank " + std::to_string(rank)}}}});
    events.push_back({{"name", "process_sort_index"},
                      {"ph", "M"},
                      {"pid", rank},
                      {"tid", 0},
                      {"args", {{"sort_index", rank}}}});
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", rank},
                      {"tid", 0},
                      {"args", {{"name", "collectives"}}}});
}

Json flowJson(const TraceEvent& event, const char* ph) {
    Json flow = {{"name", event.op},    {"cat", "collective"}, {"ph", ph}, {"id", event.seq},
                 {"ts", event.startUs}, {"pid", event.rank},   {"tid", 0}};
    if (ph[0] == 'f') flow["bp"] = "e";  // binds to the slice around ts, not the next one
    return flow;
}

// A collective of several participants as flow events: from the slice of
// the member that arrived first ("s") to each other member's ("f"), id the
// collective's seq, so Perfetto draws an arrow to each participant.
void addFlows(Json& events, const Trace& trace) {
    std::map<int64_t, std::vector<const TraceEvent*>> bySeq;
    for (const auto& event : trace.events)
        if (!isCompute(event) && event.groupRanks.size() > 1) bySeq[event.seq].push_back(&event);
    for (auto& [seq, members] : bySeq) {
        if (members.size() < 2) continue;
        std::stable_sort(members.begin(), members.end(), [](const auto* a, const auto* b) {
            return a->startUs != b->startUs ? a->startUs < b->startUs : a->rank < b->rank;
        });
        events.push_back(flowJson(*members.front(), "s"));
        for (size_t i = 1; i < members.size(); ++i) events.push_back(flowJson(*members[i], "f"));
    }
}

}  // namespace

nlohmann::ordered_json traceToChromeJson(const Trace& trace, const ChromeTraceOptions& options) {
    std::set<int> ranks;
    for (const auto& event : trace.events) ranks.insert(event.rank);
    for (int rank = 0; rank < options.worldSize; ++rank) ranks.insert(rank);
    Json events = Json::array();
    for (int rank : ranks) addRankMetadata(events, rank);
    for (const auto& event : trace.events) events.push_back(eventJson(event, options));
    addFlows(events, trace);
    return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
}

}  // namespace hsdp
