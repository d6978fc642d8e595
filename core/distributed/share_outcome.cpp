// SPDX-License-Identifier: Apache-2.0
#include "distributed/share_outcome.h"

#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace hsdp {

using nlohmann::json;

namespace {

json rangesJson(const std::vector<IndexRange>& ranges) {
    json out = json::array();
    for (const auto& r : ranges) out.push_back({r.begin, r.end});
    return out;
}

std::vector<IndexRange> rangesFrom(const json& j) {
    std::vector<IndexRange> out;
    for (const auto& r : j) out.push_back(IndexRange{r.at(0), r.at(1)});
    return out;
}

json mismatchJson(const Mismatch& m) {
    return {{"rank", m.rank},
            {"what", m.what},
            {"rows", rangesJson(m.rows)},
            {"held", rangesJson(m.heldRows)},
            {"flat", m.firstBadFlat},
            {"expected", m.expected},
            {"got", m.got},
            {"text", m.text}};
}

Mismatch mismatchFrom(const json& j) {
    Mismatch m;
    m.rank = j.at("rank");
    m.what = j.at("what");
    m.rows = rangesFrom(j.at("rows"));
    m.heldRows = rangesFrom(j.at("held"));
    m.firstBadFlat = j.at("flat");
    m.expected = j.at("expected");
    m.got = j.at("got");
    m.text = j.at("text");
    return m;
}

json mismatchesJson(const std::vector<Mismatch>& v) {
    json out = json::array();
    for (const auto& m : v) out.push_back(mismatchJson(m));
    return out;
}

std::vector<Mismatch> mismatchesFrom(const json& j) {
    std::vector<Mismatch> out;
    for (const auto& m : j) out.push_back(mismatchFrom(m));
    return out;
}

json errorsJson(const std::vector<RunSink::RankError>& v) {
    json out = json::array();
    for (const auto& e : v) out.push_back({e.rank, e.text});
    return out;
}

std::vector<RunSink::RankError> errorsFrom(const json& j) {
    std::vector<RunSink::RankError> out;
    for (const auto& e : j) out.push_back({e.at(0).get<int>(), e.at(1).get<std::string>()});
    return out;
}

json tensorJson(const Tensor& t) {
    std::vector<uint8_t> bytes(t.data.size() * sizeof(float));
    if (!bytes.empty()) std::memcpy(bytes.data(), t.data.data(), bytes.size());
    return {{"shape", t.shape}, {"data", json::binary(std::move(bytes))}};
}

Tensor tensorFrom(const json& j) {
    Tensor t;
    t.shape = j.at("shape").get<std::vector<int64_t>>();
    const auto& bytes = j.at("data").get_binary();
    t.data.resize(bytes.size() / sizeof(float));
    if (!bytes.empty()) std::memcpy(t.data.data(), bytes.data(), bytes.size());
    return t;
}

json paramJson(int index, const RunSink::ParamRecords& r) {
    json hashes = json::array();
    for (const auto& [key, entries] : r.replicaHashes) {
        json list = json::array();
        for (const auto& [rank, hash] : entries) list.push_back({rank, hash});
        hashes.push_back({key, list});
    }
    return {{"index", index},
            {"gathered", r.gatheredRanks},
            {"gather_mismatches", mismatchesJson(r.gatherMismatches)},
            {"gather_errors", errorsJson(r.gatherErrors)},
            {"final", r.finalRanks},
            {"step_mismatches", mismatchesJson(r.stepMismatches)},
            {"step_errors", errorsJson(r.stepErrors)},
            {"update_mismatches", mismatchesJson(r.updateMismatches)},
            {"replica_hashes", hashes}};
}

RunSink::ParamRecords paramFrom(const json& j) {
    RunSink::ParamRecords r;
    r.gatheredRanks = j.at("gathered");
    r.gatherMismatches = mismatchesFrom(j.at("gather_mismatches"));
    r.gatherErrors = errorsFrom(j.at("gather_errors"));
    r.finalRanks = j.at("final");
    r.stepMismatches = mismatchesFrom(j.at("step_mismatches"));
    r.stepErrors = errorsFrom(j.at("step_errors"));
    r.updateMismatches = mismatchesFrom(j.at("update_mismatches"));
    for (const auto& entry : j.at("replica_hashes"))
        for (const auto& h : entry.at(1))
            r.replicaHashes[entry.at(0).get<std::string>()].push_back(
                {h.at(0).get<int>(), h.at(1).get<uint64_t>()});
    return r;
}

json tpJson(int index, const RunSink::TpRecords& r) {
    json outputs = json::array();
    for (const auto& [rank, output] : r.outputs)
        outputs.push_back(
            {{"rank", rank}, {"coord", output.first}, {"tensor", tensorJson(output.second)}});
    return {{"index", index},
            {"ranks", r.ranks},
            {"mismatches", mismatchesJson(r.mismatches)},
            {"errors", errorsJson(r.errors)},
            {"outputs", outputs},
            {"paths", r.paths}};
}

RunSink::TpRecords tpFrom(const json& j) {
    RunSink::TpRecords r;
    r.ranks = j.at("ranks");
    r.mismatches = mismatchesFrom(j.at("mismatches"));
    r.errors = errorsFrom(j.at("errors"));
    for (const auto& o : j.at("outputs"))
        r.outputs[o.at("rank").get<int>()] = {o.at("coord").get<Coord>(),
                                              tensorFrom(o.at("tensor"))};
    r.paths = j.at("paths").get<std::set<std::string>>();
    return r;
}

json labelJson(const CollectiveLabel& l) {
    json segments = json::array();
    for (const auto& s : l.segments) segments.push_back({s.param, s.offset, s.length, s.padding});
    return {{"phase", l.phase},         {"step", l.scheduleIndex}, {"group", l.group},
            {"batch", l.batch},         {"tp", l.tpTransition},    {"mesh", l.mesh},
            {"dim", l.meshDim},         {"params", l.params},      {"segments", segments},
            {"peer_bytes", l.peerBytes}};
}

CollectiveLabel labelFrom(const json& j) {
    CollectiveLabel l;
    l.phase = j.at("phase");
    l.scheduleIndex = j.at("step");
    l.group = j.at("group");
    l.batch = j.at("batch");
    l.tpTransition = j.at("tp");
    l.mesh = j.at("mesh");
    l.meshDim = j.at("dim");
    l.params = j.at("params").get<std::vector<int>>();
    for (const auto& s : j.at("segments"))
        l.segments.push_back({s.at(0).get<int>(), s.at(1).get<int64_t>(), s.at(2).get<int64_t>(),
                              s.at(3).get<int64_t>()});
    l.peerBytes = j.at("peer_bytes").get<std::vector<int64_t>>();
    return l;
}

json eventJson(const TraceEvent& e) {
    return {
        {"seq", e.seq},     {"rank", e.rank},     {"op", e.op},     {"group", e.groupRanks},
        {"bytes", e.bytes}, {"start", e.startUs}, {"end", e.endUs}, {"label", labelJson(e.label)}};
}

TraceEvent eventFrom(const json& j) {
    TraceEvent e;
    e.seq = j.at("seq");
    e.rank = j.at("rank");
    e.op = j.at("op");
    e.groupRanks = j.at("group").get<std::vector<int>>();
    e.bytes = j.at("bytes");
    e.startUs = j.at("start");
    e.endUs = j.at("end");
    e.label = labelFrom(j.at("label"));
    return e;
}

json memoryJson(const StepMemory& m) {
    json entries = json::array();
    for (const auto& e : m.entries) entries.push_back({e.scheduleIndex, e.peakBytes});
    return {{"rank", m.rank},
            {"peak", m.peakBytes},
            {"at_peak", m.atPeak},
            {"resident", m.residentBytes},
            {"allocated", m.allocatedBytes},
            {"entries", entries}};
}

StepMemory memoryFrom(const json& j) {
    StepMemory m;
    m.rank = j.at("rank");
    m.peakBytes = j.at("peak");
    m.atPeak = j.at("at_peak").get<MemoryBytes>();
    m.residentBytes = j.at("resident");
    m.allocatedBytes = j.at("allocated");
    for (const auto& e : j.at("entries")) m.entries.push_back({e.at(0), e.at(1)});
    return m;
}

}  // namespace

std::string encodeShare(const ShareOutcome& share) {
    json params = json::array(), tps = json::array(), events = json::array(),
         memory = json::array();
    for (const auto& [index, r] : share.params) params.push_back(paramJson(index, r));
    for (const auto& [index, r] : share.transitions) tps.push_back(tpJson(index, r));
    for (const auto& e : share.trace.events) events.push_back(eventJson(e));
    for (const auto& [rank, m] : share.memory) memory.push_back(memoryJson(m));
    const json j = {{"format", "hsdp-share/1"},
                    {"proc", share.proc},
                    {"ranks", share.ranks},
                    {"params", params},
                    {"transitions", tps},
                    {"memory", memory},
                    {"events", events},
                    {"start_epoch_us", share.startEpochUs},
                    {"connect_seconds", share.connectSeconds},
                    {"error", share.error},
                    {"error_rank", share.errorRank},
                    {"error_epoch_us", share.errorEpochUs},
                    {"cancelled", share.cancelled}};
    const auto bytes = json::to_cbor(j);
    return std::string(bytes.begin(), bytes.end());
}

ShareOutcome decodeShare(const std::string& bytes) {
    try {
        const json j = json::from_cbor(bytes);
        if (j.at("format") != "hsdp-share/1") throw std::runtime_error("not hsdp-share/1");
        ShareOutcome share;
        share.proc = j.at("proc");
        share.ranks = j.at("ranks").get<std::vector<int>>();
        for (const auto& p : j.at("params")) share.params[p.at("index").get<int>()] = paramFrom(p);
        for (const auto& t : j.at("transitions"))
            share.transitions[t.at("index").get<int>()] = tpFrom(t);
        for (const auto& e : j.at("events")) share.trace.events.push_back(eventFrom(e));
        for (const auto& m : j.at("memory")) {
            StepMemory memory = memoryFrom(m);
            share.memory[memory.rank] = std::move(memory);
        }
        share.startEpochUs = j.at("start_epoch_us");
        share.connectSeconds = j.at("connect_seconds");
        share.error = j.at("error");
        share.errorRank = j.at("error_rank");
        share.errorEpochUs = j.at("error_epoch_us");
        share.cancelled = j.at("cancelled");
        return share;
    } catch (const json::exception& error) {
        throw std::runtime_error(std::string("not a process share: ") + error.what());
    }
}

}  // namespace hsdp
