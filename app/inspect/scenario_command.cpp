// SPDX-License-Identifier: Apache-2.0
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "export/scenario_json_text.h"
#include "hf_config/model_config_error.h"
#include "hf_config/scenario_from_config.h"
#include "output_paths.h"
#include "scenario/reader.h"

namespace hsdp::cli {

const char* const kScenarioHelp =
    R"(usage: hsdp-inspect scenario --from-config CONFIG.json --mesh LAYOUT -o SCENARIO [options]

Writes the hsdp-scenario/1 file of a model under a parallelism layout: the
parameter list of the architecture named in a Hugging Face config.json (names
as in its checkpoints), the device mesh, and each parameter's placements as
FSDP2 applied after torchtitan's tensor-parallel plan lays them out. Plan or
run the result with `hsdp-inspect plan` / `run`.

Architectures (config model_type, or architectures[0]): llama (Llama 2/3),
mistral, mixtral, qwen2 (Qwen2, Qwen2.5), qwen2_moe, deepseek_v3.

options:
  --from-config FILE  the model's config.json (required)
  --mesh LAYOUT       parallelism degrees, torchtitan's names (required):
                      dp_replicate=R,dp_shard=S,tp=T[,ep=E]; a missing degree
                      is 1. ep borrows from dp_shard (experts are FSDP-sharded
                      over dp_shard/ep) and needs a mixture-of-experts model
  --world N           the number of ranks meant; the layout must multiply to it
  --dtype DTYPE       parameter dtype: bf16 (default), f32, f16, f64
  --tp-plan PLAN      none (default) or torchtitan: add the TP transitions of
                      one block's forward pass (sequence parallelism)
  --name NAME         the scenario's name (default: architecture and layout)
  -o, --output FILE   where to write the scenario ("-": standard output); the
                      file is written whole (a temporary file renamed into place)
  -h, --help          show this help

Layout rules: q/k/v, gate/up and lm_head column-wise (Shard(0) on tp), o_proj
and down_proj row-wise (Shard(1)), embeddings by vocabulary rows (Shard(0)),
norms, routers and MLA down-projections replicated over tp; FSDP Shard(0) on
dp_shard, _StridedShard(dim=0, sf=tp) where tp already splits dim 0;
Replicate() on dp_replicate. With ep > 1 experts are stacked [E, out, in] on a
second mesh (dp_replicate, ep, efsdp, tp): Shard(0) on ep, Shard(1) on efsdp.

exit status: 0 written; 2 bad usage, an unreadable or inconsistent config
(the message names the field and the rule: heads that do not divide
hidden_size, a tp that does not divide the heads, ...) or a layout that does
not fit (ep not dividing dp_shard or the experts, a product other than
--world), or the output could not be written. Hazards the plan reports are
not errors here: they are what the scenario is for.

docs/model-config.md (the rules in full), docs/scenario-format.md.
)";

namespace {

ConfigScenarioRequest requestFrom(const ArgParser& parser) {
    const auto config = parser.value("--from-config");
    const auto mesh = parser.value("--mesh");
    if (!config) throw UsageError("scenario needs --from-config CONFIG.json");
    if (!mesh) throw UsageError("scenario needs --mesh, e.g. dp_replicate=2,dp_shard=8,tp=4");
    ConfigScenarioRequest request;
    const std::string dtype = parser.value("--dtype").value_or("bf16");
    const auto parsed = parseDType(dtype);
    if (!parsed) throw UsageError("--dtype expects bf16, f32, f16 or f64, got '" + dtype + "'");
    request.dtype = *parsed;
    const std::string tpPlan = parser.value("--tp-plan").value_or("none");
    if (tpPlan != "none" && tpPlan != "torchtitan")
        throw UsageError("--tp-plan expects 'torchtitan' or 'none', got '" + tpPlan + "'");
    request.tpTransitions = tpPlan == "torchtitan";
    request.name = parser.value("--name").value_or("");
    std::optional<int64_t> world;
    if (auto text = parser.value("--world")) world = parseInteger("--world", *text, 1);
    // Config and layout errors name the field and the rule (ModelConfigError).
    request.layout = parseParallelLayout(*mesh);
    request.config = readModelConfigFile(*config);
    request.configSource = *config;
    checkLayout(request.layout, request.config, *config, world);
    return request;
}

std::string outputPath(const ArgParser& parser) {
    const auto out = parser.value("--output") ? parser.value("--output") : parser.value("-o");
    if (!out) throw UsageError("scenario needs -o SCENARIO.json (or -o - for standard output)");
    if (*out != "-") checkOutputFile("-o", *out);
    return *out;
}

}  // namespace

int scenarioCommand(const std::vector<std::string>& args) {
    // ArgParser knows long options only: `-o FILE` is read as `--output FILE`.
    std::vector<std::string> normalized;
    for (const auto& a : args) normalized.push_back(a == "-o" ? "--output" : a);
    ArgParser parser;
    parser.option("--from-config").option("--mesh").option("--world").option("--dtype");
    parser.option("--tp-plan").option("--name").option("--output");
    parser.parse(normalized);
    if (!parser.positionals().empty())
        throw UsageError("scenario takes no positional argument, got '" + parser.positionals()[0] +
                         "'");
    const std::string out = outputPath(parser);
    ConfigScenarioRequest request;
    try {
        request = requestFrom(parser);
    } catch (const ModelConfigError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\n";
        return 2;
    }
    const std::string text = scenarioJsonText(scenarioFromModelConfig(request));
    // What we write must read back (the reader's limits: 64-bit element counts,
    // 10,000,000 entries); a config beyond them is refused, not written.
    Scenario scenario;
    try {
        scenario = readScenario(text);
    } catch (const ScenarioError& error) {
        std::cerr << "hsdp-inspect: " << request.configSource
                  << ": the model's scenario exceeds the scenario format's limits: " << error.what()
                  << "\n";
        return 2;
    }
    if (out == "-") {
        std::cout << text;
        return 0;
    }
    if (const std::string error = writeFileAtomically(out, text); !error.empty()) {
        std::cerr << "hsdp-inspect: -o " << out << ": " << error << "\n";
        return 2;
    }
    int64_t numel = 0;
    for (const ParamSpec& p : scenario.params) numel += p.numel();
    std::cout << "wrote " << out << ": " << scenario.params.size() << " parameters, " << numel
              << " elements, " << scenario.tpTransitions.size() << " TP transitions\n";
    return 0;
}

}  // namespace hsdp::cli
