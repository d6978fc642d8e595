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

std::vector<std::array<float, 3>> NewtonSchulzOptions::defaultCoefficients() {
    return {{4.0848f, -6.8946f, 2.9270f},
            {3.9505f, -6.3029f, 2.6377f},
            {3.7418f, -5.5913f, 2.3037f},
            {2.8769f, -3.1427f, 1.2046f},
            {2.8366f, -3.0525f, 1.2012f}};
}

bool NewtonSchulzOptions::isDefault() const {
    return *this == NewtonSchulzOptions{};
}

}  // namespace hsdp
