// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hsdp {

struct ModelConfig;

// torchtitan's parallelism degrees. ep is carved out of dp_shard (as in
// torchtitan, expert parallelism borrows FSDP ranks): the experts' FSDP
// degree is dp_shard / ep.
struct ParallelLayout {
    int64_t dpReplicate = 1;
    int64_t dpShard = 1;
    int64_t tp = 1;
    int64_t ep = 1;

    int64_t worldSize() const { return dpReplicate * dpShard * tp; }
    int64_t expertFsdp() const { return dpShard / ep; }
};

// Parses `dp_replicate=2,dp_shard=8,tp=4[,ep=2]` (any order, missing degrees
// are 1). Throws ModelConfigError starting with "--mesh: ".
ParallelLayout parseParallelLayout(const std::string& text);

// The rules a layout must meet for this model (tp divides the heads, ep
// divides the experts and dp_shard, ep only for MoE models) and, if given,
// the world size. Throws ModelConfigError naming the field and the rule.
void checkLayout(const ParallelLayout& layout, const ModelConfig& config,
                 const std::string& configSource, std::optional<int64_t> worldSize);

}  // namespace hsdp
