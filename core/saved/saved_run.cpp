// SPDX-License-Identifier: Apache-2.0
#include "saved/saved_run.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "run/real_size.h"
#include "scenario/input_file.h"
#include "scenario/json_text.h"
#include "scenario/reader.h"
#include "scenario/scenario_error.h"
#include "types/declared_groups.h"

namespace hsdp {

namespace {

std::string quoted(const std::string& text) {
    return "'" + text + "'";
}

std::string paramMismatch(const Scenario& scenario, int index, const std::string& name,
                          const std::string& where) {
    if (index < 0 || index >= static_cast<int>(scenario.params.size()))
        return where + " names parameter " + std::to_string(index) + " (" + quoted(name) +
               ") but the scenario has " + std::to_string(scenario.params.size()) + " parameters";
    const std::string& own = scenario.params[static_cast<size_t>(index)].name;
    if (own != name)
        return where + " names parameter " + std::to_string(index) + " " + quoted(name) +
               ", the scenario's parameter " + std::to_string(index) + " is " + quoted(own);
    return {};
}

std::set<std::vector<int>> knownGroups(const Scenario& scenario) {
    std::set<std::vector<int>> groups;
    for (auto group : declaredGroups(scenario)) {
        std::sort(group.begin(), group.end());
        groups.insert(std::move(group));
    }
    return groups;
}

std::string eventMismatch(const Scenario& scenario, const Plan& plan,
                          const std::set<std::vector<int>>& groups, const TraceEvent& e) {
    const std::string where = "the event of rank " + std::to_string(e.rank) + " in collective " +
                              std::to_string(e.seq) + " (" + e.op + ")";
    if (e.rank >= scenario.worldSize)
        return "the trace has rank " + std::to_string(e.rank) + ", the scenario's world is " +
               std::to_string(scenario.worldSize) + " ranks";
    std::vector<int> group = e.groupRanks;
    std::sort(group.begin(), group.end());
    if (std::find(group.begin(), group.end(), e.rank) == group.end())
        return where + " is not in its own group";
    if (group.size() > 1 && !groups.count(group))
        return where + " runs on a process group that no mesh dim of the scenario has";
    if (e.label.group >= static_cast<int>(plan.groups.size()))
        return where + " belongs to plan group " + std::to_string(e.label.group) +
               ", the plan has " + std::to_string(plan.groups.size());
    if (e.label.tpTransition >= static_cast<int>(scenario.tpTransitions.size()))
        return where + " belongs to TP transition " + std::to_string(e.label.tpTransition) +
               ", the scenario has " + std::to_string(scenario.tpTransitions.size());
    if (!e.label.mesh.empty() && !scenario.findMesh(e.label.mesh))
        return where + " names mesh " + quoted(e.label.mesh) + ", which the scenario lacks";
    for (int p : e.label.params)
        if (p >= static_cast<int>(scenario.params.size()))
            return where + " names parameter " + std::to_string(p) + ", the scenario has " +
                   std::to_string(scenario.params.size());
    for (const BufferSegment& s : e.label.segments)
        if (s.param >= static_cast<int>(scenario.params.size()))
            return where + " packs parameter " + std::to_string(s.param) + ", the scenario has " +
                   std::to_string(scenario.params.size());
    return {};
}

[[noreturn]] void refuse(const std::string& file, const std::string& reason) {
    throw std::runtime_error(file + ": " + reason);
}

// The file's JSON, errors naming the file, what it should be ("run result",
// "trace") and the reason or the JSON path.
template <typename Read>
auto readJsonFile(const std::string& path, const std::string& what, Read read) {
    std::string text;
    try {
        text = readInputFile(path, kMaxScenarioBytes);
    } catch (const InputFileError& e) {
        throw std::runtime_error(inputFileMessage(path, what, e));
    }
    try {
        return read(parseStrictJson(text));
    } catch (const ScenarioError& e) {
        throw std::runtime_error(e.inFile(path).what());
    }
}

}  // namespace

std::string runMismatch(const Scenario& scenario, const Plan& plan, const RunResult& run) {
    if (run.worldSize != scenario.worldSize)
        return "the run has " + std::to_string(run.worldSize) + " ranks, the scenario " +
               std::to_string(scenario.worldSize);
    if (plan.worldSize != scenario.worldSize) return "the plan is not of this scenario";
    for (const ParamRunResult& p : run.params) {
        if (auto why = paramMismatch(scenario, p.index, p.name, "the run"); !why.empty())
            return why;
        const size_t ndim = scenario.params[static_cast<size_t>(p.index)].shape.size();
        if (p.shapeRun.size() != ndim)
            return "the run's " + quoted(p.name) + " has " + std::to_string(p.shapeRun.size()) +
                   " dims, the scenario's " + std::to_string(ndim);
    }
    for (const NotRunParam& p : run.notRun)
        if (auto why = paramMismatch(scenario, p.index, p.name, "the run"); !why.empty())
            return why;
    for (const TpRunResult& t : run.tpTransitions) {
        if (t.index < 0 || t.index >= static_cast<int>(scenario.tpTransitions.size()))
            return "the run has TP transition " + std::to_string(t.index) + " (" + quoted(t.name) +
                   "), the scenario has " + std::to_string(scenario.tpTransitions.size());
        const std::string& own = scenario.tpTransitions[static_cast<size_t>(t.index)].name;
        if (own != t.name)
            return "the run's TP transition " + std::to_string(t.index) + " is " + quoted(t.name) +
                   ", the scenario's is " + quoted(own);
    }
    return {};
}

std::string traceMismatch(const Scenario& scenario, const Plan& plan, const RunResult& run,
                          const SavedTrace& saved) {
    for (const auto& [index, name] : saved.paramNames)
        if (auto why = paramMismatch(scenario, index, name, "the trace"); !why.empty()) return why;
    if (saved.processes > scenario.worldSize)
        return "the trace has " + std::to_string(saved.processes) +
               " ranks, the scenario's world " + std::to_string(scenario.worldSize);
    const auto groups = knownGroups(scenario);
    int64_t bytes = 0;
    int64_t events = 0;  // collective events: the run's rank_events count no compute spans
    for (const TraceEvent& e : saved.trace.events) {
        if (auto why = eventMismatch(scenario, plan, groups, e); !why.empty()) return why;
        if (__builtin_add_overflow(bytes, e.bytes, &bytes))
            return "the trace is of another run: its events move more than 2^63 bytes";
        events += !isCompute(e);
    }
    if (events != run.rankEvents || bytes != run.bytes)
        return "the trace is of another run: it has " + std::to_string(events) +
               " per-rank events moving " + std::to_string(bytes) + " bytes, the run recorded " +
               std::to_string(run.rankEvents) + " moving " + std::to_string(run.bytes);
    return {};
}

RunResult openSavedRun(const Scenario& scenario, const Plan& plan, const std::string& runPath,
                       const std::string& tracePath) {
    RunResult run = readJsonFile(runPath, "run result", runFromJson);
    if (auto why = runMismatch(scenario, plan, run); !why.empty())
        refuse(runPath, "not a run of scenario " + quoted(scenario.name) + ": " + why);
    if (tracePath.empty()) return run;
    SavedTrace saved = readJsonFile(tracePath, "trace", traceFromChromeJson);
    if (auto why = traceMismatch(scenario, plan, run, saved); !why.empty())
        refuse(tracePath,
               "not the trace of this run of scenario " + quoted(scenario.name) + ": " + why);
    run.trace = std::move(saved.trace);
    std::set<int64_t> ids;  // a result older than `rank_events` did not count them
    for (const TraceEvent& e : run.trace.events)
        if (!isCompute(e)) ids.insert(e.seq);
    run.collectives = static_cast<int64_t>(ids.size());
    if (run.shrink && run.shrink->realBytes <= 0)
        run.shrink->realBytes = realWireBytes(run.trace, realScale(scenario, run.shrink));
    return run;
}

}  // namespace hsdp
