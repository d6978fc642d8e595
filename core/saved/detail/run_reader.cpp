// SPDX-License-Identifier: Apache-2.0
#include "saved/detail/run_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

// The enum value whose name (as the writer spells it) is `value`.
template <typename Enum, typename NameOf>
Enum readEnum(const Json& value, const std::string& path, std::initializer_list<Enum> values,
              NameOf nameOf) {
    const std::string name = readString(value, path);
    std::string allowed;
    for (Enum e : values) {
        if (nameOf(e) == name) return e;
        allowed += (allowed.empty() ? "" : " | ") + std::string(nameOf(e));
    }
    failExpected(path, allowed, value);
}

int64_t intMember(const Json& object, const std::string& path, std::string_view key,
                  int64_t min = std::numeric_limits<int64_t>::min()) {
    return readInt(requireMember(object, path, key), childPath(path, key), min);
}

std::string stringMember(const Json& object, const std::string& path, std::string_view key) {
    return readString(requireMember(object, path, key), childPath(path, key), true);
}

// Optional text: absent or null reads as "".
std::string optionalString(const Json& object, const std::string& path, std::string_view key) {
    const Json* value = findMember(object, key);
    return value && !value->is_null() ? readString(*value, childPath(path, key), true)
                                      : std::string();
}

double numberMember(const Json& object, const std::string& path, std::string_view key) {
    const Json& value = requireMember(object, path, key);
    if (!value.is_number()) failExpected(childPath(path, key), "a number", value);
    return value.get<double>();
}

// The writer's null for a value that was not finite.
float floatOrNaN(const Json& value, const std::string& path) {
    if (value.is_null()) return std::numeric_limits<float>::quiet_NaN();
    if (!value.is_number()) failExpected(path, "a number or null", value);
    return value.get<float>();
}

std::vector<int64_t> intList(const Json& value, const std::string& path, int64_t min) {
    std::vector<int64_t> list;
    const Json& array = readArray(value, path, "integers");
    for (size_t i = 0; i < array.size(); ++i)
        list.push_back(readInt(array[i], childPath(path, i), min));
    return list;
}

std::vector<int> smallIntList(const Json& value, const std::string& path) {
    std::vector<int> list;
    for (int64_t v : intList(value, path, 0))
        list.push_back(static_cast<int>(std::min<int64_t>(v, std::numeric_limits<int>::max())));
    return list;
}

std::vector<IndexRange> readRanges(const Json& value, const std::string& path) {
    std::vector<IndexRange> ranges;
    const Json& array = readArray(value, path, "[begin, end] pairs");
    for (size_t i = 0; i < array.size(); ++i) {
        std::vector<int64_t> pair = intList(array[i], childPath(path, i), 0);
        if (pair.size() != 2 || pair[0] > pair[1])
            failExpected(childPath(path, i), "[begin, end] with begin <= end", array[i]);
        ranges.push_back({pair[0], pair[1]});
    }
    return ranges;
}

Mismatch readMismatch(const Json& j, const std::string& path) {
    Mismatch m;
    m.rank = static_cast<int>(intMember(j, path, "rank", -1));
    m.what = stringMember(j, path, "what");
    m.rows = readRanges(requireMember(j, path, "rows"), childPath(path, "rows"));
    if (const Json* held = findMember(j, "held_rows")) {
        const std::string heldPath = childPath(path, "held_rows");
        m.heldRows = readRanges(*held, heldPath);
        // Empty, as run --json writes a mismatch that knows no held rows
        // (and as one read without the key writes back), or parallel to rows.
        if (!m.heldRows.empty() && m.heldRows.size() != m.rows.size())
            failExpected(heldPath, "one range per range of rows", *held);
    }
    m.firstBadFlat = intMember(j, path, "first_bad_index", -1);
    m.expected = floatOrNaN(requireMember(j, path, "expected"), childPath(path, "expected"));
    m.got = floatOrNaN(requireMember(j, path, "got"), childPath(path, "got"));
    m.text = stringMember(j, path, "text");
    return m;
}

std::vector<Mismatch> readMismatches(const Json& j, const std::string& path) {
    std::vector<Mismatch> list;
    const Json* value = findMember(j, "mismatches");
    if (!value) return list;
    const std::string listPath = childPath(path, "mismatches");
    const Json& array = readArray(*value, listPath, "mismatches");
    for (size_t i = 0; i < array.size(); ++i)
        list.push_back(readMismatch(array[i], childPath(listPath, i)));
    return list;
}

CheckVerdict readCheck(const Json& j, const std::string& path, std::string_view key) {
    return readEnum(requireMember(j, path, key), childPath(path, key),
                    {CheckVerdict::Exact, CheckVerdict::Mismatch, CheckVerdict::Error,
                     CheckVerdict::NotReached},
                    checkVerdictName);
}

ParamRunResult readParam(const Json& j, const std::string& path) {
    ParamRunResult p;
    p.index = static_cast<int>(intMember(j, path, "index", 0));
    p.name = stringMember(j, path, "name");
    p.gather = readEnum(requireMember(j, path, "gather"), childPath(path, "gather"),
                        {GatherVerdict::Exact, GatherVerdict::Mismatch, GatherVerdict::NotGathered,
                         GatherVerdict::Error, GatherVerdict::NotReached},
                        gatherVerdictName);
    p.step = readCheck(j, path, "step");
    p.replicas =
        readEnum(requireMember(j, path, "replicas"), childPath(path, "replicas"),
                 {ReplicaVerdict::Identical, ReplicaVerdict::Diverged, ReplicaVerdict::NotReached},
                 replicaVerdictName);
    p.detail = optionalString(j, path, "detail");
    p.shapeRun = intList(requireMember(j, path, "shape_run"), childPath(path, "shape_run"), 0);
    p.mismatches = readMismatches(j, path);
    return p;
}

TpRunResult readTransition(const Json& j, const std::string& path) {
    TpRunResult t;
    t.index = static_cast<int>(intMember(j, path, "index", 0));
    t.name = stringMember(j, path, "name");
    t.path = stringMember(j, path, "path");
    t.result = readCheck(j, path, "result");
    t.detail = optionalString(j, path, "detail");
    t.mismatches = readMismatches(j, path);
    return t;
}

std::optional<ShrinkInfo> readShrink(const Json& j, const std::string& path) {
    if (j.is_null()) return std::nullopt;
    ShrinkInfo s;
    s.factor = intMember(j, path, "factor", 1);
    s.reason = stringMember(j, path, "reason");
    s.bytesBefore = intMember(j, path, "bytes_before", 0);
    s.bytesAfter = intMember(j, path, "bytes_after", 0);
    s.flopsBefore = numberMember(j, path, "flops_before");
    s.flopsAfter = numberMember(j, path, "flops_after");
    if (findMember(j, "real_bytes")) s.realBytes = intMember(j, path, "real_bytes", 0);
    if (findMember(j, "real_collectives"))
        s.realCollectives = intMember(j, path, "real_collectives", 0);
    return s;
}

// Each element of the array at `key` read by `read`.
template <typename Read>
auto readList(const Json& j, std::string_view key, const std::string& what, Read read) {
    const std::string path = childPath("", key);
    const Json& array = readArray(requireMember(j, "", key), path, what);
    std::vector<decltype(read(array[0], path))> list;
    for (size_t i = 0; i < array.size(); ++i) list.push_back(read(array[i], childPath(path, i)));
    return list;
}

NotRunParam readNotRun(const Json& j, const std::string& path) {
    return {static_cast<int>(intMember(j, path, "index", 0)), stringMember(j, path, "name"),
            stringMember(j, path, "reason")};
}

Diagnostic readPlanError(const Json& j, const std::string& path) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.code = stringMember(j, path, "code");
    d.message = stringMember(j, path, "message");
    d.params = smallIntList(requireMember(j, path, "params"), childPath(path, "params"));
    return d;
}

}  // namespace

RunResult runFromJson(const Json& j) {
    if (!j.is_object()) failExpected("", "a run result (an object)", j);
    const Json* format = findMember(j, "format");
    if (!format)
        throw ScenarioError("",
                            "missing required key \"format\" (\"hsdp-run/1\": the output of "
                            "hsdp-inspect run --json)");
    if (*format != "hsdp-run/1")
        failExpected("/format", "\"hsdp-run/1\" (the output of hsdp-inspect run --json)", *format);
    RunResult r;
    r.mode = readEnum(requireMember(j, "", "mode"), "/mode",
                      {RunMode::Corrected, RunMode::Reference}, runModeName);
    r.worldSize = static_cast<int>(intMember(j, "", "world_size", 1));
    r.verified = readBool(requireMember(j, "", "verified"), "/verified");
    r.shrink = readShrink(requireMember(j, "", "shrink"), "/shrink");
    r.params = readList(j, "params", "parameter results", readParam);
    r.tpTransitions = readList(j, "tp_transitions", "transition results", readTransition);
    r.collectives = intMember(j, "", "collectives", 0);
    // Before `rank_events` existed, `collectives` counted the per-rank events.
    if (findMember(j, "rank_events")) {
        r.rankEvents = intMember(j, "", "rank_events", 0);
    } else {
        r.rankEvents = r.collectives;
        r.collectives = 0;  // unknown until a trace is opened with it
    }
    r.bytes = intMember(j, "", "bytes", 0);
    r.seconds = numberMember(j, "", "seconds");
    if (findMember(j, "connect_seconds")) r.connectSeconds = numberMember(j, "", "connect_seconds");
    r.notRun = readList(j, "not_run", "parameters not run", readNotRun);
    r.planErrors = readList(j, "plan_errors", "diagnostics", readPlanError);
    r.error = optionalString(j, "", "error");
    if (const Json* rank = findMember(j, "error_rank"))
        r.errorRank = static_cast<int>(readInt(*rank, "/error_rank", -1));
    if (const Json* cancelled = findMember(j, "cancelled"))
        r.cancelled = readBool(*cancelled, "/cancelled");
    return r;
}

namespace {

// The writer's null for an unset label field.
int intOrUnset(const Json& args, const std::string& path, std::string_view key) {
    const Json* value = findMember(args, key);
    if (!value || value->is_null()) return -1;
    return static_cast<int>(
        readInt(*value, childPath(path, key), 0, std::numeric_limits<int>::max()));
}

std::vector<BufferSegment> readSegments(const Json& args, const std::string& path) {
    std::vector<BufferSegment> segments;
    const Json* value = findMember(args, "segments");
    if (!value) return segments;
    const std::string listPath = childPath(path, "segments");
    const Json& array = readArray(*value, listPath, "segments");
    for (size_t i = 0; i < array.size(); ++i) {
        const std::string p = childPath(listPath, i);
        segments.push_back({static_cast<int>(intMember(array[i], p, "param", 0)),
                            intMember(array[i], p, "offset", 0),
                            intMember(array[i], p, "length", 0),
                            intMember(array[i], p, "padding", 0)});
    }
    return segments;
}

TraceEvent readEvent(const Json& j, const std::string& path, SavedTrace& saved) {
    TraceEvent e;
    e.rank = static_cast<int>(readInt(requireMember(j, path, "pid"), childPath(path, "pid"), 0,
                                      std::numeric_limits<int>::max()));
    e.startUs = numberMember(j, path, "ts");
    // A span never ends before it starts (the writer writes no negative
    // duration, and one would read back as another event).
    const double duration = numberMember(j, path, "dur");
    if (duration < 0) failExpected(childPath(path, "dur"), "a duration >= 0", j.at("dur"));
    e.endUs = e.startUs + duration;
    const std::string argsPath = childPath(path, "args");
    const Json& args = requireMember(j, path, "args");
    e.op = stringMember(args, argsPath, "op");
    // A compute span's seq is negative (runtime/trace.h), a collective's not.
    e.seq = intMember(args, argsPath, "seq",
                      isComputeOp(e.op) ? std::numeric_limits<int64_t>::min() : 0);
    e.groupRanks = smallIntList(requireMember(args, argsPath, "group_ranks"),
                                childPath(argsPath, "group_ranks"));
    e.bytes = intMember(args, argsPath, "bytes", 0);
    CollectiveLabel& label = e.label;
    label.scheduleIndex = intOrUnset(args, argsPath, "step");
    label.group = intOrUnset(args, argsPath, "group");
    label.batch = intOrUnset(args, argsPath, "batch");
    label.tpTransition = intOrUnset(args, argsPath, "tp_transition");
    label.meshDim = intOrUnset(args, argsPath, "mesh_dim");
    label.phase = optionalString(args, argsPath, "phase");
    label.mesh = optionalString(args, argsPath, "mesh");
    label.params =
        smallIntList(requireMember(args, argsPath, "params"), childPath(argsPath, "params"));
    label.segments = readSegments(args, argsPath);
    if (const Json* peers = findMember(args, "peer_bytes"))
        label.peerBytes = intList(*peers, childPath(argsPath, "peer_bytes"), 0);
    if (const Json* names = findMember(args, "param_names"); names && names->is_array()) {
        for (size_t i = 0; i < names->size() && i < label.params.size(); ++i)
            if ((*names)[i].is_string())
                saved.paramNames.emplace(label.params[i], (*names)[i].get<std::string>());
    }
    return e;
}

}  // namespace

SavedTrace traceFromChromeJson(const Json& j) {
    if (!j.is_object() || !findMember(j, "traceEvents"))
        failExpected("", "a trace (an object with \"traceEvents\", as run --trace writes it)", j);
    const Json& events = readArray(requireMember(j, "", "traceEvents"), "/traceEvents", "events");
    SavedTrace saved;
    for (size_t i = 0; i < events.size(); ++i) {
        const std::string path = childPath("/traceEvents", i);
        const Json& event = events[i];
        if (!event.is_object()) failExpected(path, "an event (an object)", event);
        const std::string ph = optionalString(event, path, "ph");
        if (ph == "M") {
            saved.processes += optionalString(event, path, "name") == "process_name";
        } else if (ph == "X") {
            saved.trace.events.push_back(readEvent(event, path, saved));
        }
    }
    std::stable_sort(saved.trace.events.begin(), saved.trace.events.end(),
                     [](const TraceEvent& a, const TraceEvent& b) {
                         return a.rank != b.rank ? a.rank < b.rank : a.startUs < b.startUs;
                     });
    return saved;
}

}  // namespace hsdp
