// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hsdp {

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

// The role of a parameter by its name as the seven families' checkpoints
// spell it (model.layers.3.self_attn.q_proj.weight: ColWise), the last
// components deciding; a layer or expert index may also be a repeat
// variable ({i}, {e}). Any `*norm.weight` is Replicated. nullopt: no rule
// knows the name (a fused qkv_proj, another family's naming), so tensor
// parallelism cannot place it. Both scenario routes use these rules.
std::optional<ParamRole> tpRoleForName(std::string_view name);

// Whether a Muon job gives this parameter to AdamW instead, as torchtitan,
// Moonlight and Megatron do: the embeddings (embed_tokens, tok_embeddings,
// wte), the output head (lm_head, output), norms (`*norm.weight`) and every
// 1-D (or 0-D) parameter such as biases. Both scenario routes mark these
// `"optimizer": "adamw"` unless asked to keep every parameter on Muon.
bool adamwByDefault(std::string_view name, size_t ndim);
// The sentence a generated scenario's description says of its optimizers.
std::string optimizerText(bool allMuon);

}  // namespace hsdp
