// SPDX-License-Identifier: Apache-2.0
#include "plan/load_imbalance.h"

#include <algorithm>

namespace hsdp {

std::optional<double> loadImbalance(const std::vector<int64_t>& numels) {
    if (numels.empty()) return std::nullopt;
    double sum = 0;
    for (int64_t n : numels) sum += static_cast<double>(n);
    if (sum <= 0) return std::nullopt;
    const int64_t heaviest = *std::max_element(numels.begin(), numels.end());
    return static_cast<double>(heaviest) * static_cast<double>(numels.size()) / sum;
}

std::optional<double> loadImbalance(const OwnerLoads& loads) {
    if (loads.empty()) return std::nullopt;
    double sum = 0;  // the zero tail adds nothing
    for (int64_t n : loads.leading()) sum += static_cast<double>(n);
    if (sum <= 0) return std::nullopt;
    return static_cast<double>(loads.max()) * static_cast<double>(loads.size()) / sum;
}

std::optional<double> loadImbalance(const std::vector<CoordLoad>& loads) {
    std::vector<int64_t> numels;
    numels.reserve(loads.size());
    for (const auto& l : loads) numels.push_back(l.numel);
    return loadImbalance(numels);
}

}  // namespace hsdp
