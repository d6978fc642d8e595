// SPDX-License-Identifier: Apache-2.0
#include <chrono>
#include <cstdio>
#include <iostream>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_error.h"
#include "checkpoint/scenario_from_checkpoint.h"
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
       hsdp-inspect scenario --from-checkpoint PATH [--mesh LAYOUT] -o SCENARIO [options]

Writes the hsdp-scenario/1 file of a model under a parallelism layout: the
parameter list of the architecture named in a Hugging Face config.json (names
as in its checkpoints), or the tensors of the checkpoint itself, the device
mesh, and each parameter's placements as FSDP2 applied after torchtitan's
tensor-parallel plan lays them out. Plan or run the result with
`hsdp-inspect plan` / `run`.

Architectures (config model_type, or architectures[0]): llama (Llama 2/3),
mistral, mixtral, qwen2 (Qwen2, Qwen2.5), qwen2_moe, deepseek_v3.

From a checkpoint, any model: PATH is a .safetensors file, a
model.safetensors.index.json, or a folder holding either (or a sharded/
folder of per-rank files). Only the files' headers are read, never the
weights. Every tensor keeps its name, shape and dtype; repeated layers are
folded into repeat blocks. FSDP2 places any tensor (Shard(0) over dp_shard,
Replicate() over dp_replicate); tp > 1 needs names the TP rules know (those
of the families above). A config.json beside the files is cross-checked.
Files written by PyTorch's Hugging Face storage writer with each rank's own
piece (DCP_SHARDING_INFO) give the placements the job saved, on its mesh:
--mesh then names that mesh (inferred when left out).

options:
  --from-config FILE  the model's config.json
  --from-checkpoint PATH  the model's safetensors checkpoint (one of the two)
  --mesh LAYOUT       parallelism degrees, torchtitan's names (required but
                      for a checkpoint with saved sharding):
                      dp_replicate=R,dp_shard=S,tp=T[,ep=E]; a missing degree
                      is 1. ep borrows from dp_shard (experts are FSDP-sharded
                      over dp_shard/ep) and needs a mixture-of-experts model
                      config (not a checkpoint)
  --world N           the number of ranks meant; the layout must multiply to it
  --dtype DTYPE       parameter dtype: bf16 (default), f32, f16, f64; from a
                      checkpoint the default is each tensor's own dtype
  --tp-plan PLAN      none (default) or torchtitan: add the TP transitions of
                      one block's forward pass (sequence parallelism)
  --ignore-saved-sharding  place a checkpoint's saved pieces afresh on --mesh
  --all-muon          every parameter on Muon; by default the embeddings, the
                      output head, norms and 1-D parameters (biases) get
                      "optimizer": "adamw", as torchtitan, Moonlight and
                      Megatron run Muon
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
hidden_size, a tp that does not divide the heads, ...), a checkpoint the
format refuses (the message names the file and the tensor: a header past the
file's end or over 100 MiB, invalid JSON or UTF-8, duplicate names, bad or
overlapping data_offsets, an unknown dtype, ...), a checkpoint the layout
cannot place (the tensors are named), or a layout that does not fit (ep not
dividing dp_shard or the experts, a product other than --world), or the
output could not be written. Hazards the plan reports are not errors here:
they are what the scenario is for.

docs/model-config.md, docs/checkpoint.md (the rules in full),
docs/scenario-format.md.
)";

namespace {

// A generated document and what to say about it.
struct Generated {
    Json document;
    std::string source;              // the config or checkpoint, for messages
    std::vector<std::string> notes;  // to standard error
    std::string summary;             // after "wrote FILE: …", "" none
};

std::optional<int64_t> worldOption(const ArgParser& parser) {
    if (auto text = parser.value("--world")) return parseInteger("--world", *text, 1);
    return std::nullopt;
}

bool tpPlanOption(const ArgParser& parser) {
    const std::string tpPlan = parser.value("--tp-plan").value_or("none");
    if (tpPlan != "none" && tpPlan != "torchtitan")
        throw UsageError("--tp-plan expects 'torchtitan' or 'none', got '" + tpPlan + "'");
    return tpPlan == "torchtitan";
}

std::optional<DType> dtypeOption(const ArgParser& parser) {
    const auto text = parser.value("--dtype");
    if (!text) return std::nullopt;
    const auto parsed = parseDType(*text);
    if (!parsed) throw UsageError("--dtype expects bf16, f32, f16 or f64, got '" + *text + "'");
    return parsed;
}

Generated fromConfig(const ArgParser& parser) {
    const auto config = parser.value("--from-config");
    const auto mesh = parser.value("--mesh");
    if (!mesh) throw UsageError("scenario needs --mesh, e.g. dp_replicate=2,dp_shard=8,tp=4");
    if (parser.has("--ignore-saved-sharding"))
        throw UsageError("--ignore-saved-sharding goes with --from-checkpoint");
    ConfigScenarioRequest request;
    request.dtype = dtypeOption(parser).value_or(DType::BF16);
    request.tpTransitions = tpPlanOption(parser);
    request.allMuon = parser.has("--all-muon");
    request.name = parser.value("--name").value_or("");
    const auto world = worldOption(parser);
    // Config and layout errors name the field and the rule (ModelConfigError).
    request.layout = parseParallelLayout(*mesh);
    request.config = readModelConfigFile(*config);
    request.configSource = *config;
    checkLayout(request.layout, request.config, *config, world);
    std::vector<std::string> notes;
    // The memory a plan predicts follows the params' dtype: said, as a job
    // that keeps fp32 master weights (FSDP2's usual mixed precision) needs
    // twice the bytes the default prices.
    if (!parser.value("--dtype"))
        notes.push_back(
            "params in bf16, the default; a job that keeps them and the optimizer's state in "
            "fp32 (FSDP2 with mixed precision) is --dtype f32");
    return {scenarioFromModelConfig(request), *config, notes, ""};
}

std::string secondsText(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", seconds);
    return text;
}

Generated fromCheckpoint(const ArgParser& parser) {
    const std::string path = *parser.value("--from-checkpoint");
    CheckpointScenarioRequest request;
    request.dtype = dtypeOption(parser);
    request.tpTransitions = tpPlanOption(parser);
    request.ignoreSavedSharding = parser.has("--ignore-saved-sharding");
    request.allMuon = parser.has("--all-muon");
    request.name = parser.value("--name").value_or("");
    const auto world = worldOption(parser);
    if (auto mesh = parser.value("--mesh")) request.layout = parseParallelLayout(*mesh);
    const auto started = std::chrono::steady_clock::now();
    DiskFileReader reader;
    const Checkpoint checkpoint = readCheckpoint(path, reader);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    CheckpointScenario result = scenarioFromCheckpoint(checkpoint, request);
    if (world && *world != result.layout.worldSize())
        throw CheckpointError("", "",
                              "--world: the mesh has " + std::to_string(result.layout.worldSize()) +
                                  " ranks, not " + std::to_string(*world));
    uint64_t fileBytes = 0;
    for (const CheckpointFile& f : checkpoint.files) fileBytes += f.size;
    std::string summary = "read the headers of " + std::to_string(checkpoint.files.size()) +
                          " safetensors files (" + std::to_string(reader.bytesRead()) +
                          " of their " + std::to_string(fileBytes) + " bytes) in " +
                          secondsText(seconds) + " s";
    if (result.savedSharding)
        summary +=
            "; placements as the " + std::to_string(checkpoint.writers) + " ranks saved them";
    return {std::move(result.document), path, std::move(result.notes), summary};
}

Generated generate(const ArgParser& parser) {
    const bool config = parser.has("--from-config"), checkpoint = parser.has("--from-checkpoint");
    if (config == checkpoint)
        throw UsageError(
            config ? "scenario takes --from-config or --from-checkpoint, not both"
                   : "scenario needs --from-config CONFIG.json or --from-checkpoint PATH");
    return config ? fromConfig(parser) : fromCheckpoint(parser);
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
    parser.option("--from-config").option("--from-checkpoint").option("--mesh").option("--world");
    parser.option("--dtype").option("--tp-plan").option("--name").option("--output");
    parser.flag("--ignore-saved-sharding").flag("--all-muon");
    parser.parse(normalized);
    if (!parser.positionals().empty())
        throw UsageError("scenario takes no positional argument, got '" + parser.positionals()[0] +
                         "'");
    const std::string out = outputPath(parser);
    Generated generated;
    try {
        generated = generate(parser);
    } catch (const ModelConfigError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\n";
        return 2;
    } catch (const CheckpointError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\n";
        return 2;
    }
    for (const std::string& note : generated.notes)
        std::cerr << "hsdp-inspect: note: " << note << "\n";
    const std::string text = scenarioJsonText(generated.document);
    // What we write must read back (the reader's limits: 64-bit element counts,
    // 10,000,000 entries); a model beyond them is refused, not written.
    Scenario scenario;
    try {
        scenario = readScenario(text);
    } catch (const ScenarioError& error) {
        std::cerr << "hsdp-inspect: " << generated.source
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
    if (!generated.summary.empty()) std::cout << generated.summary << "\n";
    return 0;
}

}  // namespace hsdp::cli
