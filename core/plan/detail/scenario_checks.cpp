// SPDX-License-Identifier: Apache-2.0
#include "plan/detail/scenario_checks.h"

#include <string>
#include <vector>

namespace hsdp {

namespace {

// "0..7, 12, 14..15", at most a few runs, then a count.
std::string rangesText(const std::vector<int>& ascending) {
    constexpr size_t kMaxRuns = 6;
    std::string out;
    size_t runs = 0, i = 0;
    while (i < ascending.size()) {
        size_t j = i;
        while (j + 1 < ascending.size() && ascending[j + 1] == ascending[j] + 1) ++j;
        if (runs == kMaxRuns) {
            out += ", ...";
            break;
        }
        out += (runs ? ", " : "") + std::to_string(ascending[i]);
        if (j > i) out += ".." + std::to_string(ascending[j]);
        ++runs;
        i = j + 1;
    }
    return out;
}

// What an unused rank still does: every rank, mesh or not, updates its own
// copy of each plain (non-DTensor) param (the runner's local params), so
// "own nothing" would be untrue of a scenario that has some.
std::string unusedRankWork(const Scenario& scenario) {
    std::vector<std::string> plain;
    for (const ParamSpec& param : scenario.params)
        if (!param.isDTensor()) plain.push_back(param.name);
    if (plain.empty()) return "own and compute nothing";
    std::string names = plain.front();
    if (plain.size() > 1) names += " and " + std::to_string(plain.size() - 1) + " more";
    return "own no DTensor param: they only update their own copy of the plain params every "
           "rank keeps (" +
           names + ")";
}

void reportUnusedRanks(const Scenario& scenario, DiagnosticSink& sink) {
    std::vector<bool> used(static_cast<size_t>(scenario.worldSize), false);
    for (const Mesh& mesh : scenario.meshes)
        for (int r : mesh.ranks)
            if (r < scenario.worldSize) used[static_cast<size_t>(r)] = true;
    std::vector<int> unused;
    for (size_t r = 0; r < used.size(); ++r)
        if (!used[r]) unused.push_back(static_cast<int>(r));
    if (unused.empty()) return;
    sink.report(Severity::Warning, codes::WorldRanksUnused,
                "world size " + std::to_string(scenario.worldSize) + " but no mesh uses " +
                    std::to_string(unused.size()) + " of its ranks (" + rangesText(unused) +
                    "): they have no mesh coordinate and " + unusedRankWork(scenario) +
                    " (a run still starts them); "
                    "the world size defaults to 1 + the largest mesh rank, so check the meshes' "
                    "\"ranks\" and \"world_size\"");
}

// A mesh dim whose name says it replicates ("dp_replicate") but which a
// placement shards: the planner goes by placements, not names, so such a
// param is planned as sharded there, which is rarely what the author meant.
void reportShardedReplicateDims(const Scenario& scenario, DiagnosticSink& sink) {
    for (const ParamSpec& param : scenario.params) {
        const Mesh* mesh = scenario.findMesh(param.mesh);
        if (!mesh || !param.placements) continue;
        const auto& placements = *param.placements;
        for (size_t d = 0; d < placements.size() && d < mesh->dimNames.size(); ++d) {
            const std::string& dim = mesh->dimNames[d];
            if (!placements[d].isShard() || dim.find("replicate") == std::string::npos) continue;
            sink.report(Severity::Warning, codes::ReplicateDimSharded,
                        "a placement shards a mesh dim named as a replicate dim; the plan "
                        "follows the placement (shard), not the name",
                        "#" + std::to_string(param.index) + " '" + param.name + "' shards mesh '" +
                            mesh->name + "' dim '" + dim + "'",
                        {param.index});
        }
    }
}

}  // namespace

void reportScenarioShape(const Scenario& scenario, DiagnosticSink& sink) {
    reportUnusedRanks(scenario, sink);
    reportShardedReplicateDims(scenario, sink);
    // A TP-only scenario (transitions, no params) is a legitimate study of TP
    // lowering; with neither, the plan and the run are empty and "verified".
    if (scenario.params.empty() && scenario.tpTransitions.empty())
        sink.report(Severity::Warning, codes::NoParams,
                    "the scenario has no params and no TP transitions: nothing to plan or run "
                    "(is the \"params\" key missing?)");
}

}  // namespace hsdp
