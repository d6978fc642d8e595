// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>
#include <vector>

#include "types/placement.h"

namespace hsdp {

// What one redistribution step does along one mesh dim.
enum class RedistributionOp {
    AllGather,      // S/SS -> R: members' pieces placed by geometry (uneven, strided)
    AllReduce,      // P -> R
    ReduceScatter,  // P -> S/SS: padded blocks by geometry
    AllToAll,       // S(i) -> S(j): padded blocks by geometry
    LocalChunk,     // R -> S/SS: keep this rank's part
    LocalSplit,     // R -> P: keep this rank's share (the truth model's split)
};
// all_gather | all_reduce | reduce_scatter | all_to_all | local_chunk | local_split
std::string_view redistributionOpName(RedistributionOp op);

// One step of a placement change along one mesh dim. `before`/`after` are the
// whole placement lists around the step, so each side's geometry is known.
struct RedistributionStep {
    RedistributionOp op = RedistributionOp::AllGather;
    int meshDim = 0;
    std::vector<Placement> before;
    std::vector<Placement> after;
};

// The generic redistribution, always correct: mesh dims right to left, each
// changed dim converted directly (all-gather, all-reduce, reduce-scatter,
// local chunk, local split, all-to-all) when no later mesh dim interferes
// (shards the same tensor dim, or is partial where a reduction or split
// happens); otherwise the later dims are undone to R first and redone after.
// Pairs without a direct op (S <-> SS, P(op) -> P(op'), S -> P) go through R.
std::vector<RedistributionStep> planRedistribution(const std::vector<Placement>& src,
                                                   const std::vector<Placement>& dst,
                                                   int tensorNdim);

}  // namespace hsdp
