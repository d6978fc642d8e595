// SPDX-License-Identifier: Apache-2.0
#include "cost/detail/broadcast_groups.h"

#include <map>

namespace hsdp {

template <class CoordAlong>
std::optional<int64_t> BroadcastGroups::outerIndex(int i, CoordAlong c) const {
    int64_t index = 0;
    for (int j = 0; j < i; ++j) {
        const int64_t at = c(j);
        if (at < 0 || at >= sizes_[size_t(j)]) return std::nullopt;
        index = index * sizes_[size_t(j)] + at;
    }
    return index;
}

BroadcastGroups::BroadcastGroups(const std::vector<Coord>& roots, const std::vector<int>& dims,
                                 const std::vector<int64_t>& meshShape)
    : dims_(dims), byOuter_(dims.size()) {
    for (int d : dims) sizes_.push_back(meshShape[size_t(d)]);
    for (int i = 0; i < int(dims.size()); ++i) {
        // outer index -> root -> items: ascending roots, items in the order given
        std::map<int64_t, std::map<int64_t, std::vector<int>>> grouped;
        for (size_t k = 0; k < roots.size(); ++k) {
            const Coord& root = roots[k];
            const auto outer = outerIndex(i, [&](int j) { return root[size_t(j)]; });
            if (outer) grouped[*outer][root[size_t(i)]].push_back(int(k));
        }
        for (auto& [outer, byRoot] : grouped) {
            auto& groups = byOuter_[size_t(i)][outer];
            for (auto& [root, items] : byRoot) groups.push_back({root, std::move(items)});
        }
    }
}

const std::vector<BroadcastGroups::RootGroup>* BroadcastGroups::along(int i,
                                                                      const Coord& coord) const {
    const auto outer = outerIndex(i, [&](int j) { return coord[size_t(dims_[size_t(j)])]; });
    if (!outer) return nullptr;
    const auto& byOuter = byOuter_[size_t(i)];
    auto it = byOuter.find(*outer);
    return it == byOuter.end() ? nullptr : &it->second;
}

}  // namespace hsdp
