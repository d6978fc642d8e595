// SPDX-License-Identifier: Apache-2.0
#include "plan/owner_loads.h"

#include <algorithm>
#include <numeric>

namespace hsdp {

OwnerLoads::OwnerLoads(std::vector<int64_t> dense)
    : count_(dense.size()), stored_(std::move(dense)) {
    trim();
}

OwnerLoads::OwnerLoads(size_t count, std::vector<int64_t> leading)
    : count_(count), stored_(std::move(leading)) {
    if (stored_.size() > count_) stored_.resize(count_);
    trim();
}

void OwnerLoads::trim() {
    while (!stored_.empty() && stored_.back() == 0) stored_.pop_back();
    stored_.shrink_to_fit();
}

int64_t OwnerLoads::max() const {
    return stored_.empty()
               ? 0
               : std::max<int64_t>(0, *std::max_element(stored_.begin(), stored_.end()));
}

int64_t OwnerLoads::min() const {
    if (stored_.size() < count_ || stored_.empty()) return 0;
    return *std::min_element(stored_.begin(), stored_.end());
}

int64_t OwnerLoads::sum() const {
    return std::accumulate(stored_.begin(), stored_.end(), int64_t{0});
}

std::vector<int64_t> OwnerLoads::dense() const {
    std::vector<int64_t> out(stored_);
    out.resize(count_, 0);
    return out;
}

}  // namespace hsdp
