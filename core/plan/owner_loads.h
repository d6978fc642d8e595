// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace hsdp {

// A batch's owned numel per replicate coordinate index (lexicographic), kept
// up to its last loaded coordinate: the rest are zero and not stored. The
// greedy owner rule fills coordinates from index 0, so a batch of 18 params
// over 16,384 coordinates keeps 18 numbers; at 131,072 ranks a plan's 662
// batches held 86 MB of zeros, and every plan, diff and chart walked them.
class OwnerLoads {
public:
    OwnerLoads() = default;
    // Every coordinate's load, `dense.size()` coordinates.
    explicit OwnerLoads(std::vector<int64_t> dense);
    // `count` coordinates: `leading` the first ones, the rest zero.
    OwnerLoads(size_t count, std::vector<int64_t> leading);

    size_t size() const { return count_; }  // coordinates, zero ones included
    bool empty() const { return count_ == 0; }
    int64_t operator[](size_t c) const { return c < stored_.size() ? stored_[c] : 0; }
    // The coordinates up to the last loaded one; every later one is zero.
    const std::vector<int64_t>& leading() const { return stored_; }
    int64_t max() const;
    int64_t min() const;  // 0 when a coordinate is idle
    int64_t sum() const;
    std::vector<int64_t> dense() const;
    bool operator==(const OwnerLoads&) const = default;

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = int64_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = int64_t;
        const_iterator() = default;
        const_iterator(const OwnerLoads* loads, size_t c) : loads_(loads), c_(c) {}
        int64_t operator*() const { return (*loads_)[c_]; }
        const_iterator& operator++() {
            ++c_;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator before = *this;
            ++c_;
            return before;
        }
        bool operator==(const const_iterator& other) const { return c_ == other.c_; }

    private:
        const OwnerLoads* loads_ = nullptr;
        size_t c_ = 0;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, count_}; }

private:
    void trim();

    size_t count_ = 0;
    std::vector<int64_t> stored_;  // no trailing zero
};

}  // namespace hsdp
