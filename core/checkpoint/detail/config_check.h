// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "hf_config/model_config.h"
#include "hf_config/parallel_layout.h"
#include "hf_config/param_role.h"

namespace hsdp {

// What config.json beside a checkpoint tells about it.
struct CheckpointConfig {
    std::string path;                  // "" without a config
    std::string modelType;             // model_type (else architectures[0])
    std::optional<ModelConfig> known;  // one of the seven families
    std::optional<int64_t> numHeads;   // num_attention_heads, any family
    std::optional<int64_t> numKeyValueHeads;
    std::map<std::string, size_t> order;     // a known family's parameters: name -> place
    std::map<std::string, ParamRole> roles;  // ... and TP role
};

// Reads the checkpoint's config.json (if any) and, for a known family,
// compares every parameter the config implies with the checkpoint's tensor
// of that name. Throws ModelConfigError for a config the family's rules
// refuse, CheckpointError naming the config and the tensor for a shape that
// disagrees or a parameter the checkpoint lacks. Adds notes: tensors the
// config does not describe, a family not among the seven.
CheckpointConfig checkCheckpointConfig(const Checkpoint& checkpoint,
                                       std::vector<std::string>& notes);

// The layout's rules that need the config: tp dividing the heads (any
// family giving them), ep and the rest for a known family. Throws
// ModelConfigError naming the config's field.
void checkLayoutAgainstConfig(const CheckpointConfig& config, const ParallelLayout& layout);

}  // namespace hsdp
