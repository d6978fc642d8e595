// SPDX-License-Identifier: Apache-2.0
#include "gather_workload.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "tensor/packing.h"

namespace hsdp::bench {

namespace {

// A parameter whose per-rank shard holds `rows` rows.
std::vector<int64_t> shapeFor(const GatherWorkload& w, int64_t rows) {
    return {rows * w.ranks, w.cols};
}

int64_t rowBytes(const GatherWorkload& w) {
    return w.cols * dtypeSize(w.dtype);
}

}  // namespace

int64_t GatherWorkload::shardBytes(int p) const {
    const auto& s = shapes.at(size_t(p));
    return s[0] / ranks * s[1] * dtypeSize(dtype);
}

int64_t GatherWorkload::payloadBytes() const {
    int64_t total = 0;
    for (int p = 0; p < params(); ++p) total += shardBytes(p);
    return total;
}

int64_t GatherWorkload::packedBytes() const {
    const int es = dtypeSize(dtype);
    int64_t total = 0;
    for (int p = 0; p < params(); ++p)
        total += paddedElements(shardBytes(p) / es, alignmentBytes, es) * es;
    return total;
}

Mesh GatherWorkload::mesh() const {
    return Mesh("bench", {ranks}, {"shard"});
}

GatherWorkload logUniformWorkload(int params, int64_t minBytes, int64_t maxBytes, unsigned seed,
                                  int ranks) {
    GatherWorkload w;
    w.ranks = ranks;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> logSize(std::log(double(minBytes)),
                                                   std::log(double(maxBytes)));
    const int64_t minRows = minBytes / rowBytes(w), maxRows = maxBytes / rowBytes(w);
    for (int p = 0; p < params; ++p) {
        const auto rows =
            static_cast<int64_t>(std::llround(std::exp(logSize(rng)) / double(rowBytes(w))));
        w.shapes.push_back(shapeFor(w, std::clamp(rows, minRows, maxRows)));
    }
    return w;
}

GatherWorkload uniformWorkload(int params, int64_t shardBytes, int ranks) {
    GatherWorkload w;
    w.ranks = ranks;
    const int64_t rows = std::max<int64_t>(1, shardBytes / rowBytes(w));
    for (int p = 0; p < params; ++p) w.shapes.push_back(shapeFor(w, rows));
    return w;
}

GatherWorkload shardSizesWorkload(const std::vector<int64_t>& shardBytes, int ranks) {
    GatherWorkload w;
    w.ranks = ranks;
    const int es = dtypeSize(w.dtype);
    for (int64_t bytes : shardBytes) {
        const int64_t elements = bytes / es;
        int64_t cols = w.cols;
        while (elements % cols != 0) cols /= 2;
        w.shapes.push_back({elements / cols * ranks, cols});
    }
    return w;
}

std::vector<int64_t> shardSizesOf(const GatherWorkload& w) {
    std::vector<int64_t> sizes;
    for (int p = 0; p < w.params(); ++p) sizes.push_back(w.shardBytes(p));
    return sizes;
}

}  // namespace hsdp::bench
