// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/sorted_distribution.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hsdp {

bool tooManyForBars(size_t bars, int plotWidthPx) {
    return bars * kMinBarPixels > static_cast<size_t>(std::max(plotWidthPx, 0));
}

SortedDistribution::SortedDistribution(std::vector<double> values) {
    order_.resize(values.size());
    std::iota(order_.begin(), order_.end(), 0);
    // Stable: equal values keep entry order, so the curve is reproducible.
    std::stable_sort(order_.begin(), order_.end(),
                     [&](int a, int b) { return values[size_t(a)] < values[size_t(b)]; });
    sorted_.reserve(values.size());
    position_.resize(values.size());
    double sum = 0;
    for (size_t k = 0; k < order_.size(); ++k) {
        sorted_.push_back(values[size_t(order_[k])]);
        position_[size_t(order_[k])] = k;
        sum += sorted_.back();
    }
    mean_ = values.empty() ? 0 : sum / static_cast<double>(values.size());
}

size_t SortedDistribution::percentilePosition(double p) const {
    // Less a hair, so shareAt's x maps back to its own position despite rounding.
    const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted_.size()) - 1e-9);
    return static_cast<size_t>(std::clamp(rank - 1, 0.0, static_cast<double>(sorted_.size()) - 1));
}

double SortedDistribution::shareAt(size_t position) const {
    return 100.0 * static_cast<double>(position + 1) / static_cast<double>(sorted_.size());
}

size_t SortedDistribution::positionAt(double share) const {
    return percentilePosition(share);  // the inverse of shareAt
}

std::vector<int> SortedDistribution::worst(size_t count) const {
    count = std::min(count, sorted_.size());
    std::vector<int> entries;
    // From the top down; a run of equal values is taken from its first entry.
    size_t end = sorted_.size();
    while (entries.size() < count) {
        size_t begin = end;
        while (begin > 0 && sorted_[begin - 1] == sorted_[end - 1]) --begin;
        for (size_t k = begin; k < end && entries.size() < count; ++k) entries.push_back(order_[k]);
        end = begin;
    }
    return entries;
}

}  // namespace hsdp
