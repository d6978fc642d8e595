// SPDX-License-Identifier: Apache-2.0
#include "types/declared_groups.h"

namespace hsdp {

std::vector<std::vector<int>> declaredGroups(const Scenario& scenario) {
    std::vector<std::vector<int>> groups;
    for (const auto& mesh : scenario.meshes)
        for (int d = 0; d < mesh.ndim(); ++d)
            if (mesh.shape[size_t(d)] > 1)
                for (auto& g : mesh.groupsAlong(d)) groups.push_back(std::move(g));
    return groups;
}

}  // namespace hsdp
