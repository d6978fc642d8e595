// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hf_config/detail/architecture.h"
#include "scenario/json_text.h"

namespace hsdp {

// The fields of a Hugging Face `config.json` that decide the parameter list,
// checked for consistency. Fields a family does not use stay at their defaults.
struct ModelConfig {
    const ArchitectureFamily* family = nullptr;
    std::string architecture;  // architectures[0] if given, else model_type
    int64_t vocabSize = 0;
    int64_t hiddenSize = 0;
    int64_t numLayers = 0;
    int64_t numHeads = 0;
    int64_t numKeyValueHeads = 0;
    int64_t headDim = 0;  // hidden_size / num_attention_heads unless head_dim is given
    int64_t intermediateSize = 0;
    bool tieWordEmbeddings = false;
    bool attentionBias = false;  // Llama's attention_bias: q/k/v/o biases
    bool mlpBias = false;        // Llama's mlp_bias: gate/up/down biases (dense MLPs)

    // Mixture of experts (MoeKind != Dense).
    int64_t numExperts = 0;
    int64_t moeIntermediateSize = 0;       // one routed expert's FFN width
    int64_t sharedExpertIntermediate = 0;  // Qwen2-MoE's shared expert width
    int64_t numSharedExperts = 0;          // DeepSeek's n_shared_experts
    std::vector<bool> moeLayer;            // per layer: routed experts (true) or a dense MLP

    // Multi-head latent attention (DeepSeek).
    std::optional<int64_t> qLoraRank;  // null: a plain q_proj
    int64_t kvLoraRank = 0;
    int64_t qkRopeHeadDim = 0;
    int64_t qkNopeHeadDim = 0;
    int64_t vHeadDim = 0;
};

// Reads the fields of `document`; `source` (the file name) starts every
// error message. Throws ModelConfigError naming the field and the rule.
ModelConfig readModelConfig(const Json& document, const std::string& source);
// A config.json file's document, parsed strictly; ModelConfigError names
// the file (unreadable, too large, not valid JSON).
Json readModelConfigJson(const std::string& path);
// readModelConfig of readModelConfigJson(path).
ModelConfig readModelConfigFile(const std::string& path);

// The family name a config gives: model_type, else architectures[0]; "" if neither.
std::string configModelType(const Json& document);
// Whether readModelConfig knows the family `document` names.
bool isKnownModelFamily(const Json& document);

}  // namespace hsdp
