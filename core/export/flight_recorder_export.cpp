// SPDX-License-Identifier: Apache-2.0
#include "export/flight_recorder_export.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace hsdp {

namespace {

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
std::map<std::vector<int>, GroupName> nameGroups(const Trace& trace,
                                                 const std::vector<PendingCollective>& pending,
                                                 const Scenario& scenario, int worldSize) {
    std::vector<int> world(static_cast<size_t>(worldSize));
    for (int r = 0; r < worldSize; ++r) world[size_t(r)] = r;
    std::map<std::vector<int>, GroupName> names = {{world, {"0", "default_pg"}}};
    std::vector<const TraceEvent*> collectives;
    for (const auto& e : trace.events)
        if (!isCompute(e)) collectives.push_back(&e);
    for (const auto& p : pending) collectives.push_back(&p.event);
    std::stable_sort(collectives.begin(), collectives.end(),
                     [](const TraceEvent* a, const TraceEvent* b) { return a->seq < b->seq; });
    for (const TraceEvent* e : collectives) {
        if (names.count(e->groupRanks)) continue;
        const std::string name = std::to_string(names.size());
        names[e->groupRanks] = {name, describeGroup(*e, scenario)};
    }
    return names;
}

// What the event's rank handed the collective: its own buffers, or those
// the options give for it (the plan's real sizes).
CollectiveBuffers buffersOf(const TraceEvent& e, size_t index, const Scenario& scenario,
                            const FlightRecorderExportOptions& options) {
    if (index < options.buffers.size() && options.buffers[index]) return *options.buffers[index];
    CollectiveBuffers out{e.op, e.inputBytes, e.outputBytes, e.dtype, {}};
    for (int p : e.label.params)
        if (p >= 0 && size_t(p) < scenario.params.size())
            out.contents.push_back(scenario.params[size_t(p)].dtype);
    const int tp = e.label.tpTransition;
    if (out.contents.empty() && tp >= 0 && size_t(tp) < scenario.tpTransitions.size())
        out.contents.push_back(scenario.tpTransitions[size_t(tp)].dtype);
    return out;
}

FlightRecorderEntry entryOf(const CollectiveBuffers& buffers, const GroupName& group) {
    FlightRecorderEntry out;
    out.pgName = group.name;
    out.pgDesc = group.desc;
    RecordedForm form = recordedForm(buffers);
    out.profilingName = std::move(form.profilingName);
    out.inputSizes = std::move(form.inputSizes);
    out.outputSizes = std::move(form.outputSizes);
    out.inputDtypes = std::move(form.inputDtypes);
    out.outputDtypes = std::move(form.outputDtypes);
    return out;
}

// A completed collective: created at its start, discovered started then and
// completed at its end, retired.
FlightRecorderEntry completedEntry(const TraceEvent& e, const CollectiveBuffers& buffers,
                                   const GroupName& group,
                                   const FlightRecorderExportOptions& options) {
    FlightRecorderEntry out = entryOf(buffers, group);
    out.timeCreatedNs = options.runStartNs + std::llround(e.startUs * 1000);
    const int64_t endNs = options.runStartNs + std::llround(e.endUs * 1000);
    if (options.timed) out.durationMs = (e.endUs - e.startUs) / 1000;
    out.state = CollectiveState::Completed;
    out.timeDiscoveredStartedNs = out.timeCreatedNs;
    out.timeDiscoveredCompletedNs = endNs;
    out.retired = true;
    out.timeoutMs = options.timeoutMs;
    return out;
}

// A collective the rank had entered when the run stopped: started, never
// completed nor retired, as a hung job's recorder holds it.
FlightRecorderEntry pendingEntry(const PendingCollective& p, const GroupName& group,
                                 const FlightRecorderExportOptions& options) {
    FlightRecorderEntry out = entryOf(p.buffers, group);
    out.timeCreatedNs = options.runStartNs + std::llround(p.event.startUs * 1000);
    out.state = CollectiveState::Started;
    out.timeDiscoveredStartedNs = out.timeCreatedNs;
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
    std::map<std::string, int64_t> completedByGroup;
    auto add = [&](FlightRecorderEntry entry) {
        entry.recordId = int64_t(dump.entries.size());
        entry.pgId = idByGroup.at(entry.pgName);
        entry.collectiveSeqId = entry.opId = ++seqByGroup[entry.pgName];
        if (entry.state == CollectiveState::Completed)
            completedByGroup[entry.pgName] = entry.collectiveSeqId;
        dump.entries.push_back(std::move(entry));
    };
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent& e = trace.events[i];
        if (e.rank != rank || isCompute(e)) continue;
        add(completedEntry(e, buffersOf(e, i, scenario, options), names.at(e.groupRanks), options));
    }
    for (const auto& p : options.pending)
        if (p.event.rank == rank) add(pendingEntry(p, names.at(p.event.groupRanks), options));
    for (const auto& group : dump.groups) {
        const int64_t last = seqByGroup.count(group.name) ? seqByGroup[group.name] : -1;
        const int64_t done = completedByGroup.count(group.name) ? completedByGroup[group.name] : -1;
        dump.status.push_back({idByGroup.at(group.name), last, last, done});
    }
    return dump;
}

}  // namespace

std::vector<FlightRecorderDump> runFlightRecorderDumps(const Trace& trace, const Scenario& scenario,
                                                       int worldSize,
                                                       const FlightRecorderExportOptions& options) {
    const auto names = nameGroups(trace, options.pending, scenario, worldSize);
    std::vector<FlightRecorderDump> dumps;
    for (int rank = 0; rank < worldSize; ++rank)
        dumps.push_back(dumpOf(rank, trace, scenario, names, options));
    return dumps;
}

}  // namespace hsdp
