// SPDX-License-Identifier: Apache-2.0
#include "hf_config/detail/param_tree.h"

#include <stdexcept>

#include "hf_config/model_config.h"

namespace hsdp {

namespace {

using Shape = std::vector<int64_t>;
using Nodes = std::vector<ParamNode>;

// The role comes from the name rules, which the checkpoint route uses too;
// `expected` states what the tree means, so the two cannot drift apart.
void add(Nodes& out, std::string name, Shape shape, ParamRole expected) {
    const std::optional<ParamRole> role = tpRoleForName(name);
    if (role != expected)
        throw std::logic_error("the TP role rules do not give " + name + " its role");
    out.push_back({std::move(name), std::move(shape), *role, 0, {}, {}});
}

void gqaAttention(const ModelConfig& c, const std::string& p, Nodes& out) {
    const int64_t qDim = c.numHeads * c.headDim, kvDim = c.numKeyValueHeads * c.headDim;
    const bool qkvBias = c.family->qkvBias || c.attentionBias;
    const std::pair<const char*, int64_t> projections[] = {{"q", qDim}, {"k", kvDim}, {"v", kvDim}};
    for (const auto& [which, rows] : projections) {
        const std::string name = p + "self_attn." + which + "_proj.";
        add(out, name + "weight", {rows, c.hiddenSize}, ParamRole::ColWise);
        if (qkvBias) add(out, name + "bias", {rows}, ParamRole::ColWise);
    }
    add(out, p + "self_attn.o_proj.weight", {c.hiddenSize, qDim}, ParamRole::RowWise);
    // A row-wise layer adds its bias after the reduction: every TP rank holds it whole.
    if (c.attentionBias)
        add(out, p + "self_attn.o_proj.bias", {c.hiddenSize}, ParamRole::Replicated);
}

// DeepSeek's MLA: the low-rank down-projections and their norms are small and
// replicated over tp (torchtitan's NoParallel); the up-projections are column-wise.
void latentAttention(const ModelConfig& c, const std::string& p, Nodes& out) {
    const std::string a = p + "self_attn.";
    const int64_t qHead = c.qkNopeHeadDim + c.qkRopeHeadDim;
    if (c.qLoraRank) {
        add(out, a + "q_a_proj.weight", {*c.qLoraRank, c.hiddenSize}, ParamRole::Replicated);
        add(out, a + "q_a_layernorm.weight", {*c.qLoraRank}, ParamRole::Replicated);
        add(out, a + "q_b_proj.weight", {c.numHeads * qHead, *c.qLoraRank}, ParamRole::ColWise);
    } else {
        add(out, a + "q_proj.weight", {c.numHeads * qHead, c.hiddenSize}, ParamRole::ColWise);
    }
    add(out, a + "kv_a_proj_with_mqa.weight", {c.kvLoraRank + c.qkRopeHeadDim, c.hiddenSize},
        ParamRole::Replicated);
    add(out, a + "kv_a_layernorm.weight", {c.kvLoraRank}, ParamRole::Replicated);
    add(out, a + "kv_b_proj.weight", {c.numHeads * (c.qkNopeHeadDim + c.vHeadDim), c.kvLoraRank},
        ParamRole::ColWise);
    add(out, a + "o_proj.weight", {c.hiddenSize, c.numHeads * c.vHeadDim}, ParamRole::RowWise);
}

// gate/up column-wise, down row-wise: the SwiGLU MLP of every family. A
// column-wise bias is split with its outputs, the row-wise one added whole.
void swiGlu(const std::string& p, int64_t hidden, int64_t width, Nodes& out, bool bias = false) {
    add(out, p + "gate_proj.weight", {width, hidden}, ParamRole::ColWise);
    if (bias) add(out, p + "gate_proj.bias", {width}, ParamRole::ColWise);
    add(out, p + "up_proj.weight", {width, hidden}, ParamRole::ColWise);
    if (bias) add(out, p + "up_proj.bias", {width}, ParamRole::ColWise);
    add(out, p + "down_proj.weight", {hidden, width}, ParamRole::RowWise);
    if (bias) add(out, p + "down_proj.bias", {hidden}, ParamRole::Replicated);
}

void experts(const ModelConfig& c, const std::string& p, bool stacked, Nodes& out) {
    const bool mixtral = c.family->moe == MoeKind::Mixtral;
    const int64_t e = c.numExperts, h = c.hiddenSize, w = c.moeIntermediateSize;
    const std::string gate = mixtral ? "w1" : "gate_proj", up = mixtral ? "w3" : "up_proj",
                      down = mixtral ? "w2" : "down_proj";
    if (stacked) {
        add(out, p + "experts." + gate, {e, w, h}, ParamRole::ExpertColWise);
        add(out, p + "experts." + up, {e, w, h}, ParamRole::ExpertColWise);
        add(out, p + "experts." + down, {e, h, w}, ParamRole::ExpertRowWise);
        return;
    }
    ParamNode block{{}, {}, ParamRole::Replicated, e, "e", {}};
    const std::string ep = p + "experts.{e}.";
    add(block.children, ep + gate + ".weight", {w, h}, ParamRole::ColWise);
    add(block.children, ep + up + ".weight", {w, h}, ParamRole::ColWise);
    add(block.children, ep + down + ".weight", {h, w}, ParamRole::RowWise);
    out.push_back(std::move(block));
}

void moe(const ModelConfig& c, const std::string& p, bool stacked, Nodes& out) {
    const int64_t h = c.hiddenSize;
    const std::string m = p + (c.family->moe == MoeKind::Mixtral ? "block_sparse_moe." : "mlp.");
    add(out, m + "gate.weight", {c.numExperts, h}, ParamRole::Replicated);
    if (c.family->moe == MoeKind::DeepSeek)
        add(out, m + "gate.e_score_correction_bias", {c.numExperts}, ParamRole::Buffer);
    experts(c, m, stacked, out);
    if (c.family->moe == MoeKind::Qwen2Moe && c.sharedExpertIntermediate > 0) {
        swiGlu(m + "shared_expert.", h, c.sharedExpertIntermediate, out);
        add(out, m + "shared_expert_gate.weight", {1, h}, ParamRole::Replicated);
    }
    // transformers builds DeepSeek's shared experts as one MLP n_shared_experts times wider.
    if (c.family->moe == MoeKind::DeepSeek && c.numSharedExperts > 0)
        swiGlu(m + "shared_experts.", h, c.moeIntermediateSize * c.numSharedExperts, out);
}

Nodes layer(const ModelConfig& c, const std::string& index, bool isMoe, bool stacked) {
    Nodes out;
    const std::string p = "model.layers." + index + ".";
    if (c.family->attention == AttentionKind::MultiHeadLatent)
        latentAttention(c, p, out);
    else
        gqaAttention(c, p, out);
    if (isMoe)
        moe(c, p, stacked, out);
    else
        swiGlu(p + "mlp.", c.hiddenSize, c.intermediateSize, out, c.mlpBias);
    add(out, p + "input_layernorm.weight", {c.hiddenSize}, ParamRole::Replicated);
    add(out, p + "post_attention_layernorm.weight", {c.hiddenSize}, ParamRole::Replicated);
    return out;
}

// The leading run of identical layers becomes one repeat block; a layer after
// a change of kind (DeepSeek's MoE layers after the first dense ones) is
// written with its index, since a repeat block always counts from 0.
void layers(const ModelConfig& c, bool stacked, Nodes& out) {
    const auto isMoe = [&](int64_t i) { return bool(c.moeLayer[size_t(i)]); };
    int64_t run = 1;
    while (run < c.numLayers && isMoe(run) == isMoe(0)) ++run;
    out.push_back({{}, {}, ParamRole::Replicated, run, "i", layer(c, "{i}", isMoe(0), stacked)});
    for (int64_t i = run; i < c.numLayers; ++i)
        for (ParamNode& node : layer(c, std::to_string(i), isMoe(i), stacked))
            out.push_back(std::move(node));
}

}  // namespace

std::vector<ParamNode> buildParamTree(const ModelConfig& c, bool stackedExperts) {
    Nodes out;
    add(out, "model.embed_tokens.weight", {c.vocabSize, c.hiddenSize}, ParamRole::Embedding);
    layers(c, stackedExperts, out);
    add(out, "model.norm.weight", {c.hiddenSize}, ParamRole::Replicated);
    // Tied: lm_head shares the embedding's storage, so it is not a parameter of its own.
    if (!c.tieWordEmbeddings)
        add(out, "lm_head.weight", {c.vocabSize, c.hiddenSize}, ParamRole::ColWise);
    return out;
}

}  // namespace hsdp
