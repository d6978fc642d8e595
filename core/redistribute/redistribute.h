// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <vector>

#include "plan/redistribution.h"
#include "runtime/world.h"
#include "tensor/tensor.h"
#include "types/dtype.h"
#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp {

// How lowered TP ops run. Geometric: every op places members' pieces by
// shard geometry (always correct). Seed: the reference's lowered ops as written:
// all_gather concatenates equal shards in group order, reduce_scatter needs
// equal chunks, a local chunk is torch.chunk(t, n, dim)[group_rank]. The
// other ops have one form.
enum class OpForm { Geometric, Seed };

// A failure the reference itself raises (e.g. all_gather of unequal shards),
// found from geometry on every member before any collective runs.
class ReferenceRaise : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One rank's side of a redistribution.
struct RankRedistribution {
    RankContext* ctx = nullptr;
    const Mesh* mesh = nullptr;
    Coord coord;
    std::vector<int64_t> shape;  // global
    DType dtype = DType::F32;
    CollectiveLabel label;  // phase "tp", transition, mesh; meshDim is filled in
};

// Whether executeSteps runs a collective for `op` (over the step's mesh dim
// group, when that dim has more than one rank); the local ops never do.
bool stepCommunicates(RedistributionOp op);

// Runs `steps` on this rank's local tensor (laid out by steps.front().before).
Tensor executeSteps(const RankRedistribution& redist, const std::vector<RedistributionStep>& steps,
                    Tensor local, OpForm form = OpForm::Geometric);

}  // namespace hsdp
