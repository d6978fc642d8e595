// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hf_config/param_role.h"

namespace hsdp {

struct ModelConfig;

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
