// SPDX-License-Identifier: Apache-2.0
#include "hf_config/config_params.h"

#include "hf_config/detail/param_tree.h"

namespace hsdp {

namespace {

std::string substitute(const std::string& name, const std::string& var, int64_t value) {
    const std::string token = "{" + var + "}";
    std::string out = name;
    for (size_t at = out.find(token); at != std::string::npos; at = out.find(token, at))
        out.replace(at, token.size(), std::to_string(value));
    return out;
}

void expand(const std::vector<ParamNode>& nodes, std::vector<ConfigParam>& out) {
    for (const ParamNode& node : nodes) {
        if (node.repeat == 0) {
            out.push_back({node.name, node.shape, node.role});
            continue;
        }
        std::vector<ConfigParam> inner;
        expand(node.children, inner);
        for (int64_t i = 0; i < node.repeat; ++i)
            for (const ConfigParam& p : inner)
                out.push_back({substitute(p.name, node.var, i), p.shape, p.role});
    }
}

}  // namespace

std::vector<ConfigParam> configParams(const ModelConfig& config) {
    std::vector<ConfigParam> out;
    expand(buildParamTree(config, false), out);
    return out;
}

}  // namespace hsdp
