// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hf_config/model_config.h"
#include "hf_config/param_role.h"

namespace hsdp {

// One parameter of a model as its config describes it.
struct ConfigParam {
    std::string name;  // as in the checkpoint: model.layers.3.mlp.up_proj.weight
    std::vector<int64_t> shape;
    ParamRole role;
};

// Every parameter the config's architecture has, in the model's order (the
// embedding, each layer, the final norm, lm_head), one 2-D weight per expert
// as checkpoints hold them: what a checkpoint of this config must contain.
std::vector<ConfigParam> configParams(const ModelConfig& config);

}  // namespace hsdp
