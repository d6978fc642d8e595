// SPDX-License-Identifier: Apache-2.0
#include "hf_config/detail/architecture.h"

namespace hsdp {

const std::vector<ArchitectureFamily>& architectureFamilies() {
    using A = AttentionKind;
    using M = MoeKind;
    static const std::vector<ArchitectureFamily> table = {
        {"llama", "LlamaForCausalLM", A::GroupedQuery, false, M::Dense},
        {"mistral", "MistralForCausalLM", A::GroupedQuery, false, M::Dense},
        {"mixtral", "MixtralForCausalLM", A::GroupedQuery, false, M::Mixtral},
        {"qwen2", "Qwen2ForCausalLM", A::GroupedQuery, true, M::Dense},
        {"qwen2_moe", "Qwen2MoeForCausalLM", A::GroupedQuery, true, M::Qwen2Moe},
        {"deepseek_v3", "DeepseekV3ForCausalLM", A::MultiHeadLatent, false, M::DeepSeek},
    };
    return table;
}

const ArchitectureFamily* findArchitectureFamily(std::string_view modelTypeOrClass) {
    for (const auto& family : architectureFamilies())
        if (family.modelType == modelTypeOrClass || family.architectureClass == modelTypeOrClass)
            return &family;
    return nullptr;
}

std::string supportedModelTypes() {
    std::string list;
    for (const auto& family : architectureFamilies()) {
        if (!list.empty()) list += ", ";
        list += family.modelType;
    }
    return list;
}

}  // namespace hsdp
