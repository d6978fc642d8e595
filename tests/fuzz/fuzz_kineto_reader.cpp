// SPDX-License-Identifier: Apache-2.0
// readKinetoTrace (job_record/kineto_reader.h) on any bytes: a trace or a
// JobRecordError whose JSON path is in the document. A trace read is
// consistent: its rank is below its world size, each collective's ranks (when
// listed) are as many as its group size, its counts and times are not
// negative. The dump it implies (job_record/trace_as_dump.h) holds one
// entry per collective that names its group's ranks and Seq, in a group it
// lists with those ranks.
#include "fuzz_support.h"
#include "job_record/kineto_reader.h"
#include "job_record/trace_as_dump.h"

using namespace hsdp;
using fuzz::finding;

namespace {

void checkTrace(const KinetoTrace& trace) {
    if (trace.rank && trace.worldSize && *trace.rank >= *trace.worldSize)
        finding("a rank past the world size");
    for (const auto& c : trace.collectives) {
        if (!c.pgRanks.empty() && int64_t(c.pgRanks.size()) != c.groupSize)
            finding("a collective whose ranks are not its group size");
        if (c.inNelems < 0 || c.outNelems < 0 || c.groupSize < 1 || c.tsUs < 0 || c.durUs < 0)
            finding("a negative count or time");
        if (c.collectiveName.empty()) finding("a collective without a name");
    }
    const TraceDump derived = dumpOfTrace(trace);
    if (derived.dump.entries.size() + derived.skipped != trace.collectives.size())
        finding("a trace collective neither in the dump nor skipped");
    for (const auto& e : derived.dump.entries) {
        const FlightRecorderGroup* group = derived.dump.findGroup(e.pgName);
        if (!group || group->ranks.empty()) finding("an entry in a group the dump does not list");
        if (e.state != CollectiveState::Completed || !e.durationMs)
            finding("an entry of a trace not completed or untimed");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text = fuzz::textOf(data, size);
    KinetoTrace trace;
    const bool read = fuzz::returnsOrRefuses<JobRecordError>(
        "readKinetoTrace", [&] { trace = readKinetoTrace(text); },
        [&](const JobRecordError& e) {
            fuzz::checkMessage("readKinetoTrace", e);
            Json document;
            try {
                document = parseStrictJson(text);
            } catch (const ScenarioError&) {
                return;
            }
            fuzz::checkPointsInto("readKinetoTrace", document, e.where, e.what());
        });
    if (read) checkTrace(trace);
    return 0;
}
