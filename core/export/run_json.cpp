// SPDX-License-Identifier: Apache-2.0
#include "export/run_json.h"

#include <cmath>

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

// JSON has no NaN: a poisoned value is written as null.
Json number(float v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json mismatchJson(const Mismatch& m) {
    Json j;
    j["rank"] = m.rank;
    j["what"] = m.what;
    Json rows = Json::array();
    for (const auto& r : m.rows) rows.push_back(Json::array({r.begin, r.end}));
    j["rows"] = rows;           // half-open [begin, end) along tensor dim 0
    Json held = Json::array();  // parallel to rows; [0, 0]: no row's values
    for (const auto& r : m.heldRows) held.push_back(Json::array({r.begin, r.end}));
    j["held_rows"] = held;
    j["first_bad_index"] = m.firstBadFlat;
    j["expected"] = number(m.expected);
    j["got"] = number(m.got);
    j["text"] = m.text;
    return j;
}

Json paramJson(const ParamRunResult& p) {
    Json j;
    j["index"] = p.index;
    j["name"] = p.name;
    j["gather"] = std::string(gatherVerdictName(p.gather));
    j["step"] = std::string(checkVerdictName(p.step));
    j["replicas"] = std::string(replicaVerdictName(p.replicas));
    if (!p.detail.empty()) j["detail"] = p.detail;
    j["shape_run"] = p.shapeRun;
    if (!p.mismatches.empty()) {
        j["mismatches"] = Json::array();
        for (const auto& m : p.mismatches) j["mismatches"].push_back(mismatchJson(m));
    }
    return j;
}

Json transitionJson(const TpRunResult& t) {
    Json j;
    j["index"] = t.index;
    j["name"] = t.name;
    j["path"] = t.path;
    j["result"] = std::string(checkVerdictName(t.result));
    if (!t.detail.empty()) j["detail"] = t.detail;
    if (!t.mismatches.empty()) {
        j["mismatches"] = Json::array();
        for (const auto& m : t.mismatches) j["mismatches"].push_back(mismatchJson(m));
    }
    return j;
}

Json bytesByKind(const MemoryBytes& bytes) {
    Json j = Json::object();
    for (int k = 0; k < kMemoryKinds; ++k)
        if (bytes[size_t(k)]) j[std::string(memoryKindName(MemoryKind(k)))] = bytes[size_t(k)];
    return j;
}

// Per rank: the measured high-water mark of the step and, when given, the
// prediction; both in bytes at the run's (maybe shrunk) shapes.
Json memoryJson(const RunResult& r, const std::vector<StepMemory>* predicted) {
    Json out = Json::array();
    for (const auto& m : r.memory) {
        const StepMemory* p = predicted && size_t(m.rank) < predicted->size()
                                  ? &(*predicted)[size_t(m.rank)]
                                  : nullptr;
        Json j;
        j["rank"] = m.rank;
        j["predicted_peak_bytes"] = p ? Json(p->peakBytes) : Json(nullptr);
        j["measured_peak_bytes"] = m.peakBytes;
        j["predicted_allocated_bytes"] = p ? Json(p->allocatedBytes) : Json(nullptr);
        j["measured_allocated_bytes"] = m.allocatedBytes;
        j["resident_bytes"] = m.residentBytes;
        j["at_peak"] = bytesByKind(m.atPeak);
        j["equal"] = p ? Json(*p == m) : Json(nullptr);
        out.push_back(std::move(j));
    }
    return out;
}

}  // namespace

nlohmann::ordered_json runToJson(const RunResult& r, const std::vector<StepMemory>* predicted) {
    Json j;
    j["format"] = "hsdp-run/1";
    j["mode"] = std::string(runModeName(r.mode));
    j["world_size"] = r.worldSize;
    j["verified"] = r.verified;
    if (r.shrink) {
        j["shrink"] = {{"factor", r.shrink->factor},
                       {"reason", r.shrink->reason},
                       {"bytes_before", r.shrink->bytesBefore},
                       {"bytes_after", r.shrink->bytesAfter},
                       {"flops_before", r.shrink->flopsBefore},
                       {"flops_after", r.shrink->flopsAfter},
                       {"real_bytes", r.shrink->realBytes},
                       {"real_collectives", r.shrink->realCollectives}};
    } else {
        j["shrink"] = nullptr;
    }
    j["params"] = Json::array();
    for (const auto& p : r.params) j["params"].push_back(paramJson(p));
    j["tp_transitions"] = Json::array();
    for (const auto& t : r.tpTransitions) j["tp_transitions"].push_back(transitionJson(t));
    j["collectives"] = r.collectives;  // each collective once, across its group
    j["bytes"] = r.bytes;
    j["seconds"] = r.seconds;
    j["connect_seconds"] = r.connectSeconds;
    j["rank_events"] = r.rankEvents;  // one per member of each collective (after the pinned keys)
    j["memory_shapes"] = r.shrink ? "shrunk" : "real";  // what the byte counts below are of
    j["memory"] = memoryJson(r, predicted);
    j["not_run"] = Json::array();
    for (const auto& n : r.notRun)
        j["not_run"].push_back({{"index", n.index}, {"name", n.name}, {"reason", n.reason}});
    j["plan_errors"] = Json::array();  // the plan's error diagnostics: they block `verified`
    for (const auto& d : r.planErrors)
        j["plan_errors"].push_back(
            {{"code", d.code}, {"message", d.message}, {"params", d.params}});
    if (!r.error.empty()) {
        j["error"] = r.error;
        j["error_rank"] = r.errorRank;
    }
    if (r.cancelled) j["cancelled"] = true;
    return j;
}

}  // namespace hsdp
