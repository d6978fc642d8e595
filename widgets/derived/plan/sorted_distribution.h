// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <vector>

namespace hsdp {

// Every per-coordinate or per-rank chart switches from bars to a sorted
// distribution by this one rule: bars while each bar gets at least
// kMinBarPixels of the plot's width, a distribution beyond. Below two pixels
// a bar is a sliver that neither reads nor takes a click.
constexpr int kMinBarPixels = 2;
bool tooManyForBars(size_t bars, int plotWidthPx);

// A plot not laid out yet (no width of its own) decides as if it were this
// wide; its first layout decides again.
constexpr int kUnlaidPlotWidth = 1000;

// One chart's values sorted ascending, with what a distribution marks: the
// nearest-rank percentiles, the mean, the worst entries. x on the curve is
// the share (%) of entries at or below a value: sorted position k sits at
// 100 (k + 1) / n, so the p-th percentile is at x = p (to within 1/n).
class SortedDistribution {
public:
    SortedDistribution() = default;
    explicit SortedDistribution(std::vector<double> values);

    size_t size() const { return sorted_.size(); }
    bool empty() const { return sorted_.empty(); }
    const std::vector<double>& sorted() const { return sorted_; }
    int entryAt(size_t position) const { return order_[position]; }  // entry index
    size_t positionOf(int entry) const { return position_[size_t(entry)]; }
    double mean() const { return mean_; }
    double max() const { return sorted_.empty() ? 0 : sorted_.back(); }
    // Nearest rank: the value at sorted position ceil(p / 100 * n) - 1.
    double percentile(double p) const { return sorted_[percentilePosition(p)]; }
    size_t percentilePosition(double p) const;
    double shareAt(size_t position) const;  // x of sorted position `position`, in %
    size_t positionAt(double share) const;  // the sorted position drawn at x = `share`
    // The `count` highest entries, highest first (equal values: lower index first).
    std::vector<int> worst(size_t count) const;

private:
    std::vector<double> sorted_;
    std::vector<int> order_;        // entry of each sorted position
    std::vector<size_t> position_;  // sorted position of each entry
    double mean_ = 0;
};

}  // namespace hsdp
