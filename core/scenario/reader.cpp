// SPDX-License-Identifier: Apache-2.0
#include "scenario/reader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "scenario/detail/entry_reader.h"
#include "scenario/detail/mesh_reader.h"
#include "scenario/detail/options_reader.h"
#include "scenario/detail/repeat_blocks.h"
#include "scenario/input_file.h"
#include "scenario/json_fields.h"

namespace hsdp {

namespace {

constexpr std::string_view kFormat = "hsdp-scenario/1";

void readHeader(const Json& top, Scenario& scenario) {
    requireObject(top, "", "a scenario",
                  {"format", "name", "description", "mesh", "meshes", "world_size", "options",
                   "params", "tp_transitions"});
    const Json& format = requireMember(top, "", "format");
    if (format != kFormat) failExpected("/format", "\"" + std::string(kFormat) + "\"", format);
    scenario.name = readString(requireMember(top, "", "name"), "/name");
    if (const Json* description = findMember(top, "description"))
        scenario.description = readString(*description, "/description", /*allowEmpty=*/true);
}

// Every numel the planner adds up (batch, group, owner loads, a rank's owned
// numel) is at most the sum over all params, so bounding that sum here keeps
// them all exact; past int64 they wrapped to negative numbers.
void checkTotalNumel(const std::vector<ParamSpec>& params) {
    int64_t total = 0;
    for (const ParamSpec& p : params) {
        int64_t numel = p.numel();
        if (numel > std::numeric_limits<int64_t>::max() - total)
            throw ScenarioError("/params",
                                "the total number of elements of all params "
                                "overflows a 64-bit integer (at param " +
                                    std::to_string(p.index) + " '" + p.name + "')");
        total += numel;
    }
}

// An entry's error names the entry ("in param 'layers.{i}.mlp.up_proj'", the
// name as written, a repeat block's template included): a path such as
// /params/3/params/1/placements/0 alone leaves the reader counting entries.
template <typename Read>
auto namingTheEntry(const Json& entry, const std::string& path, const char* kind, Read read) {
    try {
        return read();
    } catch (const ScenarioError& error) {
        const Json* name = entry.is_object() ? findMember(entry, "name") : nullptr;
        if (!name || !name->is_string() || error.path == path + "/name") throw;
        throw ScenarioError(
            error.path, error.problem + " (in " + kind + " '" + name->get<std::string>() + "')");
    }
}

std::vector<ParamSpec> readParams(const Json& list, const std::vector<Mesh>& meshes) {
    auto readLeaf = [&](const Json& v, const std::string& path, const RepeatScope&) {
        return namingTheEntry(v, path, "param", [&] { return readParamEntry(v, path, meshes); });
    };
    auto items = readRepeatList<ParamSpec>(list, "/params", "params", "params", {}, readLeaf);
    auto params = expandRepeats(items, "/params", "param");
    checkTotalNumel(params);
    return params;
}

std::vector<TpTransition> readTransitions(const Json& list, const std::vector<Mesh>& meshes) {
    auto readLeaf = [&](const Json& v, const std::string& path, const RepeatScope&) {
        return namingTheEntry(v, path, "TP transition",
                              [&] { return readTransitionEntry(v, path, meshes); });
    };
    auto items = readRepeatList<TpTransition>(list, "/tp_transitions", "transitions",
                                              "TP transitions", {}, readLeaf);
    return expandRepeats(items, "/tp_transitions", "TP transition");
}

// A scenario is a few MiB at most (repeat blocks keep big models short); the
// cap stops `plan /dev/zero` or a mistyped binary from eating all memory.
std::string tooLarge() {
    return "the scenario is larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB (" +
           std::to_string(kMaxScenarioBytes) + " bytes), the most this reader accepts";
}

// read() rather than `out << in.rdbuf()`: the latter swallows a read error
// (it marks the output stream, not `in`), so an unreadable file looked empty.
std::string readAll(std::istream& in, const std::string& name) {
    std::string text;
    char chunk[1 << 16];
    errno = 0;
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxScenarioBytes) throw ScenarioError("", tooLarge(), name);
    }
    if (in.bad())
        throw ScenarioError("",
                            std::string("cannot read the scenario: ") +
                                (errno ? std::strerror(errno) : "I/O error"),
                            name);
    return text;
}

// The shared reader's refusals, in the scenario's words (and its file).
std::string readWholeFile(const std::string& filePath) {
    try {
        return readInputFile(filePath, kMaxScenarioBytes);
    } catch (const InputFileError& error) {
        throw ScenarioError("", "cannot read the scenario: " + error.reason, filePath);
    }
}

}  // namespace

Scenario readScenario(std::string_view jsonText) {
    return readScenarioJson(parseStrictJson(jsonText));
}

Scenario readScenarioJson(const Json& top) {
    Scenario scenario;
    readHeader(top, scenario);
    std::vector<MeshSource> sources = readMeshes(top);
    scenario.worldSize = resolveWorldSize(top, sources);
    for (auto& source : sources) scenario.meshes.push_back(std::move(source.mesh));
    if (const Json* options = findMember(top, "options"))
        scenario.options = readOptions(*options, "/options");
    if (const Json* params = findMember(top, "params"))
        scenario.params = readParams(*params, scenario.meshes);
    if (const Json* transitions = findMember(top, "tp_transitions"))
        scenario.tpTransitions = readTransitions(*transitions, scenario.meshes);
    return scenario;
}

std::string readScenarioFileText(const std::string& filePath) {
    return readWholeFile(filePath);
}

Scenario readScenarioFile(const std::string& filePath) {
    std::string text = readWholeFile(filePath);
    try {
        return readScenario(text);
    } catch (const ScenarioError& e) {
        throw e.inFile(filePath);
    }
}

Scenario readScenarioStream(std::istream& in, const std::string& name) {
    std::string text = readAll(in, name);
    try {
        return readScenario(text);
    } catch (const ScenarioError& e) {
        throw e.inFile(name);
    }
}

}  // namespace hsdp
