// SPDX-License-Identifier: Apache-2.0
#include "types/scenario.h"

#include <stdexcept>

namespace hsdp {

int64_t shapeNumel(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (auto s : shape) n *= s;
    return n;
}

std::string_view paramOptimizerName(ParamOptimizer optimizer) {
    return optimizer == ParamOptimizer::AdamW ? "adamw" : "muon";
}

bool hasAdamWParams(const Scenario& scenario) {
    for (const auto& p : scenario.params)
        if (p.isAdamW()) return true;
    return false;
}

int64_t ParamSpec::numel() const {
    return shapeNumel(shape);
}
int64_t TpTransition::numel() const {
    return shapeNumel(shape);
}

const Mesh* Scenario::findMesh(const std::string& meshName) const {
    for (const auto& m : meshes)
        if (m.name == meshName) return &m;
    return nullptr;
}

const Mesh& Scenario::mesh(const std::string& meshName) const {
    if (auto* m = findMesh(meshName)) return *m;
    throw std::out_of_range("no mesh named '" + meshName + "'");
}

}  // namespace hsdp
