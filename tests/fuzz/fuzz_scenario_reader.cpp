// SPDX-License-Identifier: Apache-2.0
// readScenario (scenario/reader.h) on any bytes: a Scenario or a ScenarioError
// whose path is in the document. A scenario read is what the reader promises
// (repeat blocks expanded, entries indexed by position with unique names, every
// entry on a mesh of the scenario with one placement per mesh dim, every rank
// inside the world), and the studio's save (scenarioJsonText) writes a document
// that parses back to the same JSON.
#include <set>

#include "export/scenario_json_text.h"
#include "fuzz_support.h"
#include "scenario/reader.h"

using namespace hsdp;
using fuzz::finding;

namespace {

template <class Entry>
void checkEntries(const Scenario& scenario, const std::vector<Entry>& entries, const char* what) {
    std::set<std::string> names;
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        if (e.index != static_cast<int>(i)) finding(std::string(what) + " out of place: " + e.name);
        if (!names.insert(e.name).second) finding(std::string(what) + " named twice: " + e.name);
        const Mesh* mesh = scenario.findMesh(e.mesh);
        if (!mesh) finding(std::string(what) + " " + e.name + " on an unknown mesh " + e.mesh);
        if (e.numel() < 1) finding(std::string(what) + " " + e.name + " without elements");
    }
}

void checkScenario(const Scenario& s) {
    if (s.meshes.empty()) finding("a scenario without a mesh");
    if (s.worldSize < 1) finding("a world of no ranks");
    for (const Mesh& m : s.meshes)
        for (int r : m.ranks)
            if (r >= s.worldSize) finding("mesh " + m.name + " has a rank outside the world");
    checkEntries(s, s.params, "param");
    for (const ParamSpec& p : s.params)
        if (p.placements && static_cast<int>(p.placements->size()) != s.mesh(p.mesh).ndim())
            finding("param " + p.name + ": placements do not match its mesh");
    checkEntries(s, s.tpTransitions, "TP transition");
    for (const TpTransition& t : s.tpTransitions) {
        const int ndim = s.mesh(t.mesh).ndim();
        if (static_cast<int>(t.src.size()) != ndim || static_cast<int>(t.dst.size()) != ndim)
            finding("TP transition " + t.name + ": placements do not match its mesh");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text = fuzz::textOf(data, size);
    Json document;
    const bool parsed = fuzz::returnsOrRefuses<ScenarioError>(
        "parseStrictJson", [&] { document = parseStrictJson(text); },
        [&](const ScenarioError& e) { fuzz::checkMessage("parseStrictJson", e); });
    if (!parsed || fuzz::beyondBudget(document)) return 0;
    Scenario scenario;
    const bool read = fuzz::returnsOrRefuses<ScenarioError>(
        "readScenario", [&] { scenario = readScenarioJson(document); },
        [&](const ScenarioError& e) {
            fuzz::checkMessage("readScenario", e);
            fuzz::checkPointsInto("readScenario", document, e.path, e.what());
        });
    if (!read) return 0;
    checkScenario(scenario);
    const std::string saved = scenarioJsonText(document);
    if (parseStrictJson(saved) != document) finding("the saved scenario reads back otherwise");
    return 0;
}
