// SPDX-License-Identifier: Apache-2.0
#include "export/flight_recorder_export.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace hsdp {

namespace {

// PyTorch's names of the engine's element types (c10::toString(ScalarType)).
std::string torchDtypeName(DType dtype) {
    switch (dtype) {
        case DType::F32:
            return "Float";
        case DType::BF16:
            return "BFloat16";
        case DType::F16:
            return "Half";
        case DType::F64:
            return "Double";
    }
    return "Float";
}

// How c10d names and describes a group the run used.
struct GroupName {
    std::string name;
    std::string desc;
};

std::string describeGroup(const TraceEvent& first, const Scenario& scenario) {
    const Mesh* mesh = scenario.findMesh(first.label.mesh);
    const int dim = first.label.meshDim;
    if (!mesh || dim < 0 || dim >= mesh->ndim()) return "group";
    return "mesh_" + (size_t(dim) < mesh->dimNames.size() ? mesh->dimNames[size_t(dim)]
                                                          : "dim" + std::to_string(dim));
}

// The world is "0"; the others are numbered in the order the run first used
// them (the global seq is the same on every member), as new_group numbers
// groups in the order every rank creates them.
std::map<std::vector<int>, GroupName> nameGroups(const Trace& trace, const Scenario& scenario,
                                                 int worldSize) {
    std::vector<int> world(static_cast<size_t>(worldSize));
    for (int r = 0; r < worldSize; ++r) world[size_t(r)] = r;
    std::map<std::vector<int>, GroupName> names = {{world, {"0", "default_pg"}}};
    std::vector<const TraceEvent*> collectives;
    for (const auto& e : trace.events)
        if (!isCompute(e)) collectives.push_back(&e);
    std::stable_sort(collectives.begin(), collectives.end(),
                     [](const TraceEvent* a, const TraceEvent* b) { return a->seq < b->seq; });
    for (const TraceEvent* e : collectives) {
        if (names.count(e->groupRanks)) continue;
        const std::string name = std::to_string(names.size());
        names[e->groupRanks] = {name, describeGroup(*e, scenario)};
    }
    return names;
}

// The element type a collective moved: a reduction's own, else its params'
// when they share one (a TP transition's tensor's), else bytes.
std::pair<std::string, int64_t> elementOf(const TraceEvent& e, const Scenario& scenario) {
    if (e.dtype) return {torchDtypeName(*e.dtype), dtypeSize(*e.dtype)};
    std::optional<DType> shared;
    bool mixed = false;
    for (int p : e.label.params) {
        if (p < 0 || size_t(p) >= scenario.params.size()) continue;
        const DType d = scenario.params[size_t(p)].dtype;
        mixed = mixed || (shared && *shared != d);
        shared = d;
    }
    const int tp = e.label.tpTransition;
    if (!shared && tp >= 0 && size_t(tp) < scenario.tpTransitions.size())
        shared = scenario.tpTransitions[size_t(tp)].dtype;
    const bool fits =
        shared && e.inputBytes % dtypeSize(*shared) == 0 && e.outputBytes % dtypeSize(*shared) == 0;
    if (mixed || !fits) return {"Byte", 1};
    return {torchDtypeName(*shared), dtypeSize(*shared)};
}

// PyTorch's profiling name of the engine's collective: the c10d call the
// plan's job makes for it on NCCL.
std::string profilingNameOf(const std::string& op) {
    static const std::map<std::string, std::string> names = {
        {"all_gather", "nccl:_all_gather_base"},
        {"all_gather_v", "nccl:all_gather"},
        {"broadcast", "nccl:broadcast"},
        {"all_reduce", "nccl:all_reduce"},
        {"reduce_scatter", "nccl:_reduce_scatter_base"},
        {"all_to_all", "nccl:all_to_all"},
        {"all_to_all_v", "nccl:all_to_all"},
        {"barrier", "nccl:all_reduce"}};
    const auto found = names.find(op);
    return found == names.end() ? "nccl:" + op : found->second;
}

FlightRecorderEntry entryOf(const TraceEvent& e, const Scenario& scenario, const GroupName& group,
                            const FlightRecorderExportOptions& options) {
    FlightRecorderEntry out;
    out.pgName = group.name;
    out.pgDesc = group.desc;
    out.profilingName = profilingNameOf(e.op);
    if (e.op == "barrier") {  // NCCL's barrier is an all-reduce of one float
        out.inputSizes = out.outputSizes = {{1}};
        out.inputDtypes = out.outputDtypes = {"Float"};
    } else {
        const auto [dtype, size] = elementOf(e, scenario);
        out.inputSizes = {{e.inputBytes / size}};
        out.outputSizes = {{e.outputBytes / size}};
        out.inputDtypes = out.outputDtypes = {dtype};
    }
    out.timeCreatedNs = options.runStartNs + std::llround(e.startUs * 1000);
    const int64_t endNs = options.runStartNs + std::llround(e.endUs * 1000);
    out.durationMs = (e.endUs - e.startUs) / 1000;
    out.state = CollectiveState::Completed;
    out.timeDiscoveredStartedNs = out.timeCreatedNs;
    out.timeDiscoveredCompletedNs = endNs;
    out.retired = true;
    out.timeoutMs = options.timeoutMs;
    return out;
}

// One rank's dump: the groups it belongs to in pg_config (pg_id in the
// order it joined them), its collectives in the order it made them.
FlightRecorderDump dumpOf(int rank, const Trace& trace, const Scenario& scenario,
                          const std::map<std::vector<int>, GroupName>& names,
                          const FlightRecorderExportOptions& options) {
    FlightRecorderDump dump;
    dump.version = "2.10";
    dump.encoding = DumpEncoding::Json;
    std::map<std::string, int64_t> seqByGroup, idByGroup;
    for (const auto& [ranks, group] : names)
        if (group.name == "0" || std::count(ranks.begin(), ranks.end(), rank)) {
            dump.groups.push_back(
                {group.name, group.desc, std::vector<int64_t>(ranks.begin(), ranks.end())});
        }
    std::sort(dump.groups.begin(), dump.groups.end(),
              [](const auto& a, const auto& b) { return std::stoll(a.name) < std::stoll(b.name); });
    for (const auto& group : dump.groups) idByGroup[group.name] = int64_t(idByGroup.size());
    for (const auto& e : trace.events) {
        if (e.rank != rank || isCompute(e)) continue;
        FlightRecorderEntry entry = entryOf(e, scenario, names.at(e.groupRanks), options);
        entry.recordId = int64_t(dump.entries.size());
        entry.pgId = idByGroup.at(entry.pgName);
        entry.collectiveSeqId = entry.opId = ++seqByGroup[entry.pgName];
        dump.entries.push_back(std::move(entry));
    }
    for (const auto& group : dump.groups) {
        const int64_t last = seqByGroup.count(group.name) ? seqByGroup[group.name] : -1;
        dump.status.push_back({idByGroup.at(group.name), last, last, last});
    }
    return dump;
}

}  // namespace

std::vector<FlightRecorderDump> runFlightRecorderDumps(const Trace& trace, const Scenario& scenario,
                                                       int worldSize,
                                                       const FlightRecorderExportOptions& options) {
    const auto names = nameGroups(trace, scenario, worldSize);
    std::vector<FlightRecorderDump> dumps;
    for (int rank = 0; rank < worldSize; ++rank)
        dumps.push_back(dumpOf(rank, trace, scenario, names, options));
    return dumps;
}

}  // namespace hsdp
