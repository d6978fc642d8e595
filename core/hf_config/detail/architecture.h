// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hsdp {

// How a family's attention is built.
enum class AttentionKind {
    GroupedQuery,     // q/k/v/o projections; k and v have num_key_value_heads heads
    MultiHeadLatent,  // DeepSeek's MLA: low-rank q and kv with their own norms
};

// How a family's mixture-of-experts layers are built (Dense: it has none).
enum class MoeKind {
    Dense,
    Mixtral,   // block_sparse_moe: gate + experts w1/w2/w3
    Qwen2Moe,  // mlp: gate + experts + one shared expert with a sigmoid gate
    DeepSeek,  // mlp: gate (+ correction bias) + experts + n_shared_experts shared ones
};

// One supported architecture family: the config's `model_type` and the
// `architectures[0]` class name that select it, and what its layers contain.
struct ArchitectureFamily {
    std::string_view modelType;
    std::string_view architectureClass;
    AttentionKind attention;
    bool qkvBias;  // q/k/v projections carry a bias (Qwen2)
    MoeKind moe;
};

// The table of supported families, in the order the help text lists them.
const std::vector<ArchitectureFamily>& architectureFamilies();
// The family of a `model_type`, or of an `architectures[0]` class name; nullptr if unknown.
const ArchitectureFamily* findArchitectureFamily(std::string_view modelTypeOrClass);
// "llama, mistral, mixtral, qwen2, qwen2_moe, deepseek_v3": for messages.
std::string supportedModelTypes();

}  // namespace hsdp
