// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/config_check.h"

#include <map>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/detail/layer_folding.h"
#include "hf_config/config_params.h"
#include "hf_config/model_config.h"
#include "hf_config/model_config_error.h"

namespace hsdp {

namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

std::optional<int64_t> positiveField(const Json& doc, const char* key) {
    if (!doc.is_object()) return std::nullopt;
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_number_integer() || it->get<int64_t>() < 1) return std::nullopt;
    return it->get<int64_t>();
}

void compareShapes(const Checkpoint& checkpoint, CheckpointConfig& config,
                   std::vector<std::string>& notes) {
    std::map<std::string, const CheckpointTensor*> tensors;
    for (const CheckpointTensor& t : checkpoint.tensors) tensors.emplace(t.name, &t);
    const std::vector<ConfigParam> params = configParams(*config.known);
    for (const ConfigParam& p : params) {
        auto it = tensors.find(p.name);
        if (it == tensors.end())
            throw CheckpointError(
                config.path, p.name,
                "the config's model has it (" + shapeText(p.shape) + "), the checkpoint does not");
        if (it->second->shape != p.shape)
            throw CheckpointError(config.path, p.name,
                                  "the config gives it " + shapeText(p.shape) +
                                      ", the checkpoint holds " + shapeText(it->second->shape));
        config.order.emplace(p.name, config.order.size());
        config.roles.emplace(p.name, p.role);
    }
    std::vector<std::string> extra;
    for (const CheckpointTensor& t : checkpoint.tensors)
        if (!config.order.count(t.name)) extra.push_back(t.name);
    if (extra.empty()) return;
    std::string list;
    const std::vector<std::string> folded = foldNamesForMessage(extra);
    for (size_t i = 0; i < folded.size() && i < 4; ++i) list += (i ? "; " : "") + folded[i];
    if (folded.size() > 4) list += "; …";
    notes.push_back(std::to_string(extra.size()) + " tensors are not parameters of the config's " +
                    config.modelType + " model (kept, placed by their names): " + list);
}

}  // namespace

CheckpointConfig checkCheckpointConfig(const Checkpoint& checkpoint,
                                       std::vector<std::string>& notes) {
    CheckpointConfig config;
    config.path = checkpoint.configPath;
    if (config.path.empty()) return config;
    const Json doc = readModelConfigJson(config.path);
    config.modelType = configModelType(doc);
    config.numHeads = positiveField(doc, "num_attention_heads");
    config.numKeyValueHeads = positiveField(doc, "num_key_value_heads");
    if (!isKnownModelFamily(doc)) {
        notes.push_back(config.path + ": model_type '" + config.modelType +
                        "' is not one of the families the shapes are checked against; the "
                        "tensors are taken as the checkpoint holds them");
        return config;
    }
    config.known = readModelConfig(doc, config.path);
    compareShapes(checkpoint, config, notes);
    return config;
}

void checkLayoutAgainstConfig(const CheckpointConfig& config, const ParallelLayout& layout) {
    if (config.known) return checkLayout(layout, *config.known, config.path, std::nullopt);
    const std::string tp = "tp=" + std::to_string(layout.tp);
    for (const auto& [field, heads] : {std::pair{"num_attention_heads", config.numHeads},
                                       std::pair{"num_key_value_heads", config.numKeyValueHeads}})
        if (heads && *heads % layout.tp != 0)
            throw ModelConfigError(config.path + ": " + field + ": " + std::to_string(*heads) +
                                   " is not divisible by " + tp +
                                   " (tensor parallelism gives each rank whole heads)");
}

}  // namespace hsdp
