// SPDX-License-Identifier: Apache-2.0
#include "distributed/share_outcome.h"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

namespace hsdp {

using nlohmann::json;

namespace {

// Shares are read from a folder other hosts write to, so every value is
// checked before it is converted: nlohmann converts a float to an integer
// unchecked (undefined behaviour for 1e300) and any integer to a narrower one.
[[noreturn]] void refuse(const std::string& expected, const json& got) {
    const std::string shown = got.dump();
    throw std::runtime_error("expected " + expected + ", got " +
                             (shown.size() > 60 ? shown.substr(0, 60) + "..." : shown));
}

template <class Int>
Int integer(const json& j) {
    if (j.is_number_unsigned() && std::in_range<Int>(j.get<uint64_t>()))
        return static_cast<Int>(j.get<uint64_t>());
    if (j.is_number_integer() && !j.is_number_unsigned() && std::in_range<Int>(j.get<int64_t>()))
        return static_cast<Int>(j.get<int64_t>());
    refuse("an integer in " + std::to_string(std::numeric_limits<Int>::min()) + ".." +
               std::to_string(std::numeric_limits<Int>::max()),
           j);
}

double number(const json& j) {
    if (!j.is_number()) refuse("a number", j);
    return j.get<double>();
}

std::string text(const json& j) {
    if (!j.is_string()) refuse("a string", j);
    return j.get<std::string>();
}

bool flag(const json& j) {
    if (!j.is_boolean()) refuse("true or false", j);
    return j.get<bool>();
}

const json& list(const json& j) {
    if (!j.is_array()) refuse("a list", j);
    return j;
}

template <class Int>
std::vector<Int> integers(const json& j) {
    std::vector<Int> out;
    for (const auto& v : list(j)) out.push_back(integer<Int>(v));
    return out;
}

json rangesJson(const std::vector<IndexRange>& ranges) {
    json out = json::array();
    for (const auto& r : ranges) out.push_back({r.begin, r.end});
    return out;
}

std::vector<IndexRange> rangesFrom(const json& j) {
    std::vector<IndexRange> out;
    for (const auto& r : list(j))
        out.push_back(IndexRange{integer<int64_t>(r.at(0)), integer<int64_t>(r.at(1))});
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
    m.rank = integer<int>(j.at("rank"));
    m.what = text(j.at("what"));
    m.rows = rangesFrom(j.at("rows"));
    m.heldRows = rangesFrom(j.at("held"));
    m.firstBadFlat = integer<int64_t>(j.at("flat"));
    m.expected = static_cast<float>(number(j.at("expected")));
    m.got = static_cast<float>(number(j.at("got")));
    m.text = text(j.at("text"));
    return m;
}

json mismatchesJson(const std::vector<Mismatch>& v) {
    json out = json::array();
    for (const auto& m : v) out.push_back(mismatchJson(m));
    return out;
}

std::vector<Mismatch> mismatchesFrom(const json& j) {
    std::vector<Mismatch> out;
    for (const auto& m : list(j)) out.push_back(mismatchFrom(m));
    return out;
}

json errorsJson(const std::vector<RunSink::RankError>& v) {
    json out = json::array();
    for (const auto& e : v) out.push_back({e.rank, e.text});
    return out;
}

std::vector<RunSink::RankError> errorsFrom(const json& j) {
    std::vector<RunSink::RankError> out;
    for (const auto& e : list(j)) out.push_back({integer<int>(e.at(0)), text(e.at(1))});
    return out;
}

json tensorJson(const Tensor& t) {
    std::vector<uint8_t> bytes(t.data.size() * sizeof(float));
    if (!bytes.empty()) std::memcpy(bytes.data(), t.data.data(), bytes.size());
    return {{"shape", t.shape}, {"data", json::binary(std::move(bytes))}};
}

Tensor tensorFrom(const json& j) {
    Tensor t;
    t.shape = integers<int64_t>(j.at("shape"));
    const auto& bytes = j.at("data").get_binary();
    // Whoever reads the tensor indexes its data by its shape.
    int64_t numel = 1;
    for (int64_t d : t.shape) {
        if (d < 0 || (d > 0 && numel > std::numeric_limits<int64_t>::max() / d))
            refuse("a tensor shape", j.at("shape"));
        numel *= d;
    }
    if (bytes.size() % sizeof(float) != 0 || bytes.size() / sizeof(float) != uint64_t(numel))
        throw std::runtime_error("a tensor of shape " + j.at("shape").dump() + " holds " +
                                 std::to_string(bytes.size()) + " bytes");
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
    r.gatheredRanks = integer<int>(j.at("gathered"));
    r.gatherMismatches = mismatchesFrom(j.at("gather_mismatches"));
    r.gatherErrors = errorsFrom(j.at("gather_errors"));
    r.finalRanks = integer<int>(j.at("final"));
    r.stepMismatches = mismatchesFrom(j.at("step_mismatches"));
    r.stepErrors = errorsFrom(j.at("step_errors"));
    r.updateMismatches = mismatchesFrom(j.at("update_mismatches"));
    for (const auto& entry : list(j.at("replica_hashes")))
        for (const auto& h : list(entry.at(1)))
            r.replicaHashes[text(entry.at(0))].push_back(
                {integer<int>(h.at(0)), integer<uint64_t>(h.at(1))});
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
    r.ranks = integer<int>(j.at("ranks"));
    r.mismatches = mismatchesFrom(j.at("mismatches"));
    r.errors = errorsFrom(j.at("errors"));
    for (const auto& o : list(j.at("outputs")))
        r.outputs[integer<int>(o.at("rank"))] = {integers<int64_t>(o.at("coord")),
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
    l.phase = text(j.at("phase"));
    l.scheduleIndex = integer<int>(j.at("step"));
    l.group = integer<int>(j.at("group"));
    l.batch = integer<int>(j.at("batch"));
    l.tpTransition = integer<int>(j.at("tp"));
    l.mesh = text(j.at("mesh"));
    l.meshDim = integer<int>(j.at("dim"));
    l.params = integers<int>(j.at("params"));
    for (const auto& s : list(j.at("segments")))
        l.segments.push_back({integer<int>(s.at(0)), integer<int64_t>(s.at(1)),
                              integer<int64_t>(s.at(2)), integer<int64_t>(s.at(3))});
    l.peerBytes = integers<int64_t>(j.at("peer_bytes"));
    return l;
}

json eventJson(const TraceEvent& e) {
    return {
        {"seq", e.seq},     {"rank", e.rank},     {"op", e.op},     {"group", e.groupRanks},
        {"bytes", e.bytes}, {"start", e.startUs}, {"end", e.endUs}, {"label", labelJson(e.label)}};
}

TraceEvent eventFrom(const json& j) {
    TraceEvent e;
    e.seq = integer<int64_t>(j.at("seq"));
    e.rank = integer<int>(j.at("rank"));
    e.op = text(j.at("op"));
    e.groupRanks = integers<int>(j.at("group"));
    e.bytes = integer<int64_t>(j.at("bytes"));
    e.startUs = number(j.at("start"));
    e.endUs = number(j.at("end"));
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
    m.rank = integer<int>(j.at("rank"));
    m.peakBytes = integer<int64_t>(j.at("peak"));
    const auto atPeak = integers<int64_t>(j.at("at_peak"));
    if (atPeak.size() != m.atPeak.size()) refuse("bytes for each kind of memory", j.at("at_peak"));
    std::copy(atPeak.begin(), atPeak.end(), m.atPeak.begin());
    m.residentBytes = integer<int64_t>(j.at("resident"));
    m.allocatedBytes = integer<int64_t>(j.at("allocated"));
    for (const auto& e : list(j.at("entries")))
        m.entries.push_back({integer<int>(e.at(0)), integer<int64_t>(e.at(1))});
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
        if (!j.is_object() || !j.contains("format") || j.at("format") != "hsdp-share/1")
            throw std::runtime_error("not hsdp-share/1");
        ShareOutcome share;
        share.proc = integer<int>(j.at("proc"));
        share.ranks = integers<int>(j.at("ranks"));
        for (const auto& p : list(j.at("params")))
            share.params[integer<int>(p.at("index"))] = paramFrom(p);
        for (const auto& t : list(j.at("transitions")))
            share.transitions[integer<int>(t.at("index"))] = tpFrom(t);
        for (const auto& e : list(j.at("events"))) share.trace.events.push_back(eventFrom(e));
        for (const auto& m : list(j.at("memory"))) {
            StepMemory memory = memoryFrom(m);
            share.memory[memory.rank] = std::move(memory);
        }
        share.startEpochUs = number(j.at("start_epoch_us"));
        share.connectSeconds = number(j.at("connect_seconds"));
        share.error = text(j.at("error"));
        share.errorRank = integer<int>(j.at("error_rank"));
        share.errorEpochUs = number(j.at("error_epoch_us"));
        share.cancelled = flag(j.at("cancelled"));
        return share;
    } catch (const json::exception& error) {
        throw std::runtime_error(std::string("not a process share: ") + error.what());
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(std::string("not a process share: ") + error.what());
    }
}

}  // namespace hsdp
