#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "model/dtype.h"
#include "model/mesh.h"
#include "model/placement.h"
#include "runtime/world.h"
#include "tensor/tensor.h"

namespace hsdp {

// One step of a placement change along one mesh dim. `before`/`after` are the
// whole placement lists around the step, so each side's geometry is known.
struct RedistStep {
    enum class Kind {
        AllGather,      // S/SS -> R: members' pieces placed by geometry (uneven, strided)
        AllReduce,      // P -> R
        ReduceScatter,  // P -> S/SS: padded blocks by geometry
        AllToAll,       // S(i) -> S(j): padded blocks by geometry
        LocalChunk,     // R -> S/SS: keep this rank's part
        LocalSplit,     // R -> P: keep this rank's share (the truth model's split)
        // The seed's lowered ops as written (reference mode):
        ConcatGather,        // equal-size all-gather, concat in group order
        TorchChunk,          // torch.chunk(t, n, dim)[group_rank]
        EqualReduceScatter,  // reduce-scatter of equal chunks (dim divisible by n)
    };
    Kind kind = Kind::AllGather;
    int meshDim = 0;
    std::vector<Placement> before;
    std::vector<Placement> after;
};

std::string_view redistStepName(RedistStep::Kind kind);

// The generic redistribution, always correct: mesh dims right to left, each
// changed dim converted directly (all-gather, all-reduce, reduce-scatter,
// local chunk, local split, all-to-all) when no later mesh dim interferes
// (shards the same tensor dim, or is partial where a reduction or split
// happens); otherwise the later dims are undone to R first and redone after.
// Pairs without a direct op (S <-> SS, P(op) -> P(op'), S -> P) go through R.
std::vector<RedistStep> planRedistribution(const std::vector<Placement>& src,
                                           const std::vector<Placement>& dst, int tensorNdim);

// The lowered op of the plan on the tp mesh dim (`op`: all_gather |
// all_reduce | reduce_scatter | all_reduce_shard). Corrected mode uses the
// geometric forms; reference mode the seed's (concat in group order,
// torch.chunk, equal reduce-scatter).
std::vector<RedistStep> loweredSteps(const std::string& op, int tpDim,
                                     const std::vector<Placement>& src,
                                     const std::vector<Placement>& dst, bool reference);

// A failure the reference itself raises (e.g. all_gather of unequal shards),
// found from geometry on every member before any collective runs.
class ReferenceRaise : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RedistContext {
    RankContext* ctx = nullptr;
    const Mesh* mesh = nullptr;
    Coord coord;
    std::vector<int64_t> shape;  // global
    DType dtype = DType::F32;
    CollectiveLabel label;  // phase "tp", transition, mesh; meshDim is filled in
};

// Runs `steps` on this rank's local tensor (laid out by steps.front().before).
Tensor executeSteps(const RedistContext& rc, const std::vector<RedistStep>& steps, Tensor local);

}  // namespace hsdp
