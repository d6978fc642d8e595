// SPDX-License-Identifier: Apache-2.0
// What `hsdp-inspect scenario --from-config` and the studio's New from Config
// do with a config.json, on any bytes: parseStrictJson, then readModelConfig
// (hf_config/model_config.h): a ModelConfig or a ModelConfigError that starts
// with the config's name. A config read, under each layout checkLayout
// accepts, becomes a scenario (scenarioFromModelConfig) that the scenario
// reader reads back, or refuses only for the format's limits (64-bit element
// counts, expanded entries), as the command says it does.
#include "fuzz_support.h"
#include "hf_config/model_config_error.h"
#include "hf_config/scenario_from_config.h"
#include "scenario/reader.h"

using namespace hsdp;
using fuzz::finding;

namespace {

constexpr const char* kSource = "config.json";

// The layouts a user asks for: one rank (experts one by one), 3-D HSDP + TP
// (the TP transitions) and expert parallelism (stacked experts on a second
// mesh); checkLayout refuses what does not fit the model.
const std::vector<ParallelLayout> kLayouts = {{1, 1, 1, 1}, {2, 2, 2, 1}, {1, 4, 2, 2}};

bool isLimit(const ScenarioError& error) {
    const std::string_view problem = error.problem;
    return problem.find("overflows a 64-bit integer") != std::string_view::npos ||
           problem.find("expands to more than") != std::string_view::npos;
}

void buildScenarios(const ModelConfig& config) {
    for (const ParallelLayout& layout : kLayouts) {
        try {
            checkLayout(layout, config, kSource, std::nullopt);
        } catch (const ModelConfigError&) {
            continue;
        }
        ConfigScenarioRequest request;
        request.config = config;
        request.configSource = kSource;
        request.layout = layout;
        request.tpTransitions = layout.tp > 1;
        const Json document = scenarioFromModelConfig(request);
        if (fuzz::beyondBudget(document)) continue;
        fuzz::returnsOrRefuses<ScenarioError>(
            "readScenario of a config's scenario", [&] { readScenarioJson(document); },
            [&](const ScenarioError& e) {
                if (!isLimit(e))
                    finding(std::string("a config's scenario is refused: ") + e.what());
            });
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::optional<Json> parsed = fuzz::strictJsonOf(data, size);
    if (!parsed) return 0;
    const Json& document = *parsed;
    ModelConfig config;
    const bool read = fuzz::returnsOrRefuses<ModelConfigError>(
        "readModelConfig", [&] { config = readModelConfig(document, kSource); },
        [](const ModelConfigError& e) {
            if (std::string_view(e.what()).rfind(std::string(kSource) + ": ", 0) != 0)
                finding(std::string("a config error that does not name the config: ") + e.what());
        });
    if (read) buildScenarios(config);
    return 0;
}
