// SPDX-License-Identifier: Apache-2.0
#include "hf_config/param_role.h"

#include <array>
#include <string>
#include <vector>

namespace hsdp {

namespace {

std::vector<std::string_view> components(std::string_view name) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        const size_t dot = name.find('.', start);
        parts.push_back(name.substr(start, dot == std::string_view::npos ? dot : dot - start));
        if (dot == std::string_view::npos) return parts;
        start = dot + 1;
    }
}

// A layer or expert index: digits, or a repeat variable such as {e}.
bool isIndex(std::string_view part) {
    if (part.size() >= 3 && part.front() == '{' && part.back() == '}') return true;
    if (part.empty()) return false;
    for (char c : part)
        if (c < '0' || c > '9') return false;
    return true;
}

// `pattern` matches the last components of `parts`; "#" matches an index.
bool endsWith(const std::vector<std::string_view>& parts, std::string_view pattern) {
    const std::vector<std::string_view> want = components(pattern);
    if (want.size() > parts.size()) return false;
    const size_t base = parts.size() - want.size();
    for (size_t i = 0; i < want.size(); ++i) {
        const std::string_view part = parts[base + i];
        if (want[i] == "#" ? !isIndex(part) : part != want[i]) return false;
    }
    return true;
}

struct Rule {
    std::string_view suffix;
    ParamRole role;
};

// torchtitan's TP plan for the seven families, by the checkpoints' names.
constexpr std::array<Rule, 42> kRules = {{
    {"embed_tokens.weight", ParamRole::Embedding},
    {"lm_head.weight", ParamRole::ColWise},
    // Attention: q/k/v (and MLA's up-projections) column-wise, o row-wise;
    // a row-wise bias is added after the reduction, whole on every rank.
    {"self_attn.q_proj.weight", ParamRole::ColWise},
    {"self_attn.q_proj.bias", ParamRole::ColWise},
    {"self_attn.k_proj.weight", ParamRole::ColWise},
    {"self_attn.k_proj.bias", ParamRole::ColWise},
    {"self_attn.v_proj.weight", ParamRole::ColWise},
    {"self_attn.v_proj.bias", ParamRole::ColWise},
    {"self_attn.q_b_proj.weight", ParamRole::ColWise},
    {"self_attn.kv_b_proj.weight", ParamRole::ColWise},
    {"self_attn.o_proj.weight", ParamRole::RowWise},
    {"self_attn.o_proj.bias", ParamRole::Replicated},
    {"self_attn.q_a_proj.weight", ParamRole::Replicated},
    {"self_attn.kv_a_proj_with_mqa.weight", ParamRole::Replicated},
    // SwiGLU MLPs, shared experts and per-expert weights.
    {"mlp.gate_proj.weight", ParamRole::ColWise},
    {"mlp.gate_proj.bias", ParamRole::ColWise},
    {"mlp.up_proj.weight", ParamRole::ColWise},
    {"mlp.up_proj.bias", ParamRole::ColWise},
    {"mlp.down_proj.weight", ParamRole::RowWise},
    {"mlp.down_proj.bias", ParamRole::Replicated},
    {"shared_expert.gate_proj.weight", ParamRole::ColWise},
    {"shared_expert.up_proj.weight", ParamRole::ColWise},
    {"shared_expert.down_proj.weight", ParamRole::RowWise},
    {"shared_experts.gate_proj.weight", ParamRole::ColWise},
    {"shared_experts.up_proj.weight", ParamRole::ColWise},
    {"shared_experts.down_proj.weight", ParamRole::RowWise},
    {"experts.#.gate_proj.weight", ParamRole::ColWise},
    {"experts.#.up_proj.weight", ParamRole::ColWise},
    {"experts.#.down_proj.weight", ParamRole::RowWise},
    {"experts.#.w1.weight", ParamRole::ColWise},
    {"experts.#.w3.weight", ParamRole::ColWise},
    {"experts.#.w2.weight", ParamRole::RowWise},
    // Stacked experts [E, out, in] (torchtitan's GroupedExperts).
    {"experts.gate_proj", ParamRole::ExpertColWise},
    {"experts.up_proj", ParamRole::ExpertColWise},
    {"experts.w1", ParamRole::ExpertColWise},
    {"experts.w3", ParamRole::ExpertColWise},
    {"experts.down_proj", ParamRole::ExpertRowWise},
    {"experts.w2", ParamRole::ExpertRowWise},
    // Routers and Qwen's shared-expert gate: small, whole on every TP rank.
    {"mlp.gate.weight", ParamRole::Replicated},
    {"block_sparse_moe.gate.weight", ParamRole::Replicated},
    {"mlp.shared_expert_gate.weight", ParamRole::Replicated},
    {"gate.e_score_correction_bias", ParamRole::Buffer},
}};

bool isNormWeight(const std::vector<std::string_view>& parts) {
    if (parts.size() < 2 || parts.back() != "weight") return false;
    const std::string_view owner = parts[parts.size() - 2];
    return owner.size() >= 4 && owner.substr(owner.size() - 4) == "norm";
}

}  // namespace

bool adamwByDefault(std::string_view name, size_t ndim) {
    if (ndim <= 1) return true;
    const std::vector<std::string_view> parts = components(name);
    for (std::string_view suffix : {"embed_tokens.weight", "tok_embeddings.weight", "wte.weight",
                                    "lm_head.weight", "output.weight"})
        if (endsWith(parts, suffix)) return true;
    return isNormWeight(parts);
}

std::string optimizerText(bool allMuon) {
    return allMuon ? " Every parameter on Muon (--all-muon)."
                   : " Embeddings, the output head, norms and 1-D parameters on AdamW "
                     "(\"optimizer\": \"adamw\"), as torchtitan, Moonlight and Megatron run "
                     "Muon; the rest on Muon.";
}

std::optional<ParamRole> tpRoleForName(std::string_view name) {
    const std::vector<std::string_view> parts = components(name);
    for (const Rule& rule : kRules)
        if (endsWith(parts, rule.suffix)) return rule.role;
    if (isNormWeight(parts)) return ParamRole::Replicated;
    return std::nullopt;
}

}  // namespace hsdp
