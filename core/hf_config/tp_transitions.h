// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

#include "hf_config/parallel_layout.h"
#include "scenario/json_text.h"
#include "types/dtype.h"

namespace hsdp {

// The activation redistributions of one decoder block's forward pass under
// torchtitan's TP plan with sequence parallelism, as `tp_transitions`
// entries on the dense mesh (`meshName` empty: the scenario's only mesh):
// the embedding's partial sum scattered to sequence shards, each norm's
// sequence shards gathered before attention and the MLP, each row-wise
// output's partial sum scattered back, and the gather before lm_head. A
// transition's shape is [16 tokens, hiddenSize]: only its layout matters.
// Empty when tp is 1 (no TP dim, nothing to move).
Json torchtitanTpTransitions(int64_t hiddenSize, const ParallelLayout& layout, DType dtype,
                             const std::string& meshName);

}  // namespace hsdp
