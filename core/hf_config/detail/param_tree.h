// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hsdp {

struct ModelConfig;

// What tensor parallelism does with a parameter (torchtitan's plan); the
// placement rules turn a role into one placement per mesh dim.
enum class ParamRole {
    Embedding,      // RowwiseParallel on nn.Embedding: vocab rows split, Shard(0)
    ColWise,        // ColwiseParallel: output features split, Shard(0) of [out, in] (and its bias)
    RowWise,        // RowwiseParallel: input features split, Shard(1) of [out, in]
    Replicated,     // norms, routers, MLA's down-projections: whole on every TP rank
    ExpertColWise,  // stacked experts [E, out, in] on the expert mesh, out split over tp
    ExpertRowWise,  // stacked experts [E, out, in] on the expert mesh, in split over tp
    Buffer,         // a plain tensor, not trained (DeepSeek's router correction bias)
};

// One parameter, or (repeat > 0) a repeat block of the scenario format over
// `children`, with `{var}` in their names.
struct ParamNode {
    std::string name;
    std::vector<int64_t> shape;
    ParamRole role = ParamRole::Replicated;
    int64_t repeat = 0;
    std::string var;
    std::vector<ParamNode> children;
};

// The model's parameters as named in Hugging Face checkpoints
// (model.embed_tokens.weight, model.layers.{i}.self_attn.q_proj.weight, ...,
// lm_head.weight), identical layers as one repeat block. Experts are stacked
// [E, out, in] tensors when `stackedExperts` (expert parallelism), else one 2-D
// weight per expert as in the checkpoint; both hold the same elements.
std::vector<ParamNode> buildParamTree(const ModelConfig& config, bool stackedExperts);

}  // namespace hsdp
