// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "types/dtype.h"
#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp::bench {

// The parameters one fused all-gather moves: 2-D f32 tensors sharded S(0)
// evenly over a 1-D mesh of `ranks`, so every rank's shard has the same size
// and the only padding is the reference's alignment.
struct GatherWorkload {
    int ranks = 8;
    DType dtype = DType::F32;
    int64_t alignmentBytes = 512;
    int64_t cols = 16;                         // elements per row (generated workloads)
    std::vector<std::vector<int64_t>> shapes;  // global shapes

    int params() const { return static_cast<int>(shapes.size()); }
    int64_t shardBytes(int p) const;  // one rank's payload of parameter p
    int64_t payloadBytes() const;     // one rank's payload, all parameters
    int64_t packedBytes() const;      // one rank's fused slot, alignment padding included
    std::vector<Placement> placements() const { return {Placement::shard(0)}; }
    Mesh mesh() const;
};

// `params` parameters whose per-rank shards are log-uniform in
// [minBytes, maxBytes] (rounded to whole rows), drawn from `seed`.
GatherWorkload logUniformWorkload(int params, int64_t minBytes, int64_t maxBytes, unsigned seed,
                                  int ranks = 8);

// `params` parameters whose per-rank shards are all `shardBytes`.
GatherWorkload uniformWorkload(int params, int64_t shardBytes, int ranks = 8);

// One parameter per entry whose per-rank shard is exactly that many bytes
// (a multiple of 4): rows of up to 16 elements, as many as divide it.
GatherWorkload shardSizesWorkload(const std::vector<int64_t>& shardBytes, int ranks = 8);

// Per parameter, one rank's shard bytes (what a --shard-sizes file lists).
std::vector<int64_t> shardSizesOf(const GatherWorkload& w);

}  // namespace hsdp::bench
