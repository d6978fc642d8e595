// SPDX-License-Identifier: Apache-2.0
// traceFromChromeJson (saved/saved_run.h), the reader of `hsdp-inspect run
// --trace` files, on any bytes: a SavedTrace or a ScenarioError whose path is
// in the document. The events come ordered by (rank, start); the trace
// writes back (traceToChromeJson) to a document that reads to the same
// events; traceMismatch judges it against a scenario without throwing.
#include <cmath>

#include "export/chrome_trace.h"
#include "saved/saved_run.h"
#include "saved_run_fixture.h"
#include "scenario/json_text.h"

using namespace hsdp;
using fuzz::finding;

namespace {

bool sameLabel(const CollectiveLabel& a, const CollectiveLabel& b) {
    auto segments = [](const CollectiveLabel& l) {
        std::vector<std::tuple<int, int64_t, int64_t, int64_t>> out;
        for (const auto& s : l.segments) out.emplace_back(s.param, s.offset, s.length, s.padding);
        return out;
    };
    return a.phase == b.phase && a.scheduleIndex == b.scheduleIndex && a.group == b.group &&
           a.batch == b.batch && a.tpTransition == b.tpTransition && a.mesh == b.mesh &&
           a.meshDim == b.meshDim && a.params == b.params && segments(a) == segments(b) &&
           a.peerBytes == b.peerBytes;
}

// The end is written as a duration and read back as start + duration: equal
// up to the rounding of that sum.
bool sameEnd(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

void checkSameEvents(const Trace& read, const Trace& again) {
    if (read.events.size() != again.events.size())
        finding("the trace reads back with other events");
    for (size_t i = 0; i < read.events.size(); ++i) {
        const TraceEvent& a = read.events[i];
        const TraceEvent& b = again.events[i];
        if (a.seq != b.seq || a.rank != b.rank || a.op != b.op || a.groupRanks != b.groupRanks ||
            a.bytes != b.bytes || a.startUs != b.startUs || !sameEnd(a.endUs, b.endUs) ||
            !sameLabel(a.label, b.label))
            finding("event " + std::to_string(i) + " reads back otherwise");
    }
}

void checkOrder(const Trace& trace) {
    for (size_t i = 1; i < trace.events.size(); ++i) {
        const TraceEvent& a = trace.events[i - 1];
        const TraceEvent& b = trace.events[i];
        if (a.rank > b.rank || (a.rank == b.rank && a.startUs > b.startUs))
            finding("the events are not ordered by (rank, start)");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::optional<Json> parsed = fuzz::strictJsonOf(data, size);
    if (!parsed) return 0;
    const Json& document = *parsed;
    SavedTrace saved;
    if (!fuzz::returnsOrRefuses<ScenarioError>(
            "traceFromChromeJson", [&] { saved = traceFromChromeJson(document); },
            [&](const ScenarioError& e) {
                fuzz::checkMessage("traceFromChromeJson", e);
                fuzz::checkPointsInto("traceFromChromeJson", document, e.path, e.what());
            }))
        return 0;
    checkOrder(saved.trace);
    SavedTrace again;
    fuzz::returnsOrRefuses<ScenarioError>(
        "traceFromChromeJson of traceToChromeJson",
        [&] { again = traceFromChromeJson(traceToChromeJson(saved.trace)); },
        [&](const ScenarioError& e) {
            finding("traceToChromeJson wrote what traceFromChromeJson refuses: " +
                    std::string(e.what()));
        });
    checkSameEvents(saved.trace, again.trace);
    const auto& fixture = fuzz::savedRunFixture();
    RunResult run;
    run.worldSize = fixture.scenario.worldSize;
    fuzz::returnsOrRefuses<std::exception>(
        "traceMismatch", [&] { traceMismatch(fixture.scenario, fixture.plan, run, saved); },
        [](const std::exception& e) { finding(std::string("traceMismatch threw: ") + e.what()); });
    return 0;
}
