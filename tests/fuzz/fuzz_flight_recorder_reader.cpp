// SPDX-License-Identifier: Apache-2.0
// readPickle and readFlightRecorderDump (job_record/) on any bytes, pickled
// or JSON: a value or a JobRecordError naming its culprit (a byte offset
// inside the input, or a JSON path into the document read). Nothing is ever
// executed: the pickle reader has no opcode that could. A dump read is
// consistent (one dtype per tensor shape, every entry's group in pg_config)
// and round-trips through the JSON writer:
// writeFlightRecorderJson(read(writeFlightRecorderJson(d))) ==
// writeFlightRecorderJson(d).
#include <charconv>

#include "fuzz_support.h"
#include "job_record/flight_recorder_reader.h"
#include "job_record/flight_recorder_writer.h"
#include "job_record/pickle_reader.h"

using namespace hsdp;
using fuzz::finding;

namespace {

// The culprit is in the input: an offset within it, or a path into the
// document the bytes read as (pickle or JSON).
void checkWhere(const JobRecordError& e, std::string_view bytes) {
    fuzz::checkMessage("readFlightRecorderDump", e);
    if (e.where.starts_with("offset ")) {
        size_t offset = 0;
        std::from_chars(e.where.data() + 7, e.where.data() + e.where.size(), offset);
        if (offset > bytes.size())
            finding("an error at an offset past the input: " + std::string(e.what()));
        return;
    }
    Json document;
    try {
        document = looksLikePickle(bytes) ? readPickle(bytes) : parseStrictJson(bytes);
    } catch (const std::exception&) {
        return;  // a duplicate key's path is not in a document the parser refused
    }
    fuzz::checkPointsInto("readFlightRecorderDump", document, e.where, e.what());
}

void checkDump(const FlightRecorderDump& dump) {
    for (const auto& entry : dump.entries) {
        if (entry.inputDtypes.size() != entry.inputSizes.size() ||
            entry.outputDtypes.size() != entry.outputSizes.size())
            finding("an entry without one dtype per tensor shape");
        if (!dump.findGroup(entry.pgName)) finding("an entry of a group not in pg_config");
        if (entry.backend().empty() || entry.operation().empty())
            finding("a profiling name without backend or operation");
    }
}

void checkRoundTrip(const FlightRecorderDump& dump) {
    const std::string written = writeFlightRecorderJson(dump);
    FlightRecorderDump again;
    fuzz::returnsOrRefuses<JobRecordError>(
        "readFlightRecorderDump of writeFlightRecorderJson",
        [&] { again = readFlightRecorderDump(written); },
        [&](const JobRecordError& e) {
            finding("writeFlightRecorderJson wrote what the reader refuses: " +
                    std::string(e.what()) + "\n" + written);
        });
    if (writeFlightRecorderJson(again) != written)
        finding("writeFlightRecorderJson does not read back to itself:\n" + written + "\n" +
                writeFlightRecorderJson(again));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes = fuzz::textOf(data, size);
    // The pickle machine on its own, on bytes that need not look like a pickle.
    fuzz::returnsOrRefuses<JobRecordError>(
        "readPickle", [&] { readPickle(bytes); },
        [&](const JobRecordError& e) { fuzz::checkMessage("readPickle", e); });
    FlightRecorderDump dump;
    if (!fuzz::returnsOrRefuses<JobRecordError>(
            "readFlightRecorderDump", [&] { dump = readFlightRecorderDump(bytes); },
            [&](const JobRecordError& e) { checkWhere(e, bytes); }))
        return 0;
    checkDump(dump);
    checkRoundTrip(dump);
    return 0;
}
