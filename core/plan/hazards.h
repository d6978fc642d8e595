// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "plan/diagnostics.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// What the reference gets wrong for one parameter of a gathered group
// (docs/plan.md §6); each flag is one warning code.
struct ParamHazards {
    bool unevenShard = false;        // a sharded dim not divisible by its mesh sizes' product
    bool nestedShardOrder = false;   // one dim plainly sharded by >= 2 mesh dims of size > 1
    bool stridedShardChunk = false;  // a strided shard on a mesh dim of size > 1
    bool shardRankOrder = false;     // a shard mesh dim's groups not in ascending rank order
};
ParamHazards findHazards(const ParamSpec& param, const std::vector<int64_t>& meshShape);
// A process group orders its ranks ascending (docs/plan.md §5), so the reference's all-gather
// along a shard mesh dim of size > 1 whose mesh order is not ascending
// concatenates the shards of the wrong ranks. Only the shard lines of a
// param's owner (its replicate coordinate, reduced by the replica count)
// gather it; a param without owner (frozen) is judged on every line, as the
// other hazards judge the layout alone. The lines depend on the group's mesh
// and shard dims, not on the param: they are judged once here, and each
// param is then a lookup.
class ShardRankOrder {
public:
    // `replicateSizes`: the reduced sizes owners are coordinates over (those
    // of the group's batches); empty when only ownerless params are asked about.
    ShardRankOrder(const Group& group, std::vector<int64_t> replicateSizes);
    // nullptr: no owner.
    bool hazard(const Coord* owner) const;

private:
    int64_t reducedIndex(const Group& group, const Coord& meshCoord) const;

    std::vector<int64_t> sizes_;
    std::vector<char> unorderedAt_;  // per reduced replicate coordinate, row-major
    bool anyUnordered_ = false;
};

// uneven-shard, nested-shard-order, strided-shard-chunk and shard-rank-order
// for params of gathered groups; frozen-param-no-owner for params of any group. Codes in
// order of first appearance over params in index order.
void reportParamHazards(const std::vector<Group>& groups, const std::vector<ParamSpec>& specs,
                        DiagnosticSink& sink);

// owner-imbalance (warning): each place ownerImbalances (plan/load_imbalance.h)
// judges, a batch with at least as many owned params as replicate
// coordinates (fewer cannot keep every coordinate busy) or a group over its
// batches summed (every batch restarts the greedy at zero), where a
// coordinate is idle while another has load, or the heaviest coordinate
// carries more than `maxOverMean` times the mean load: max/mean, the same
// measure as the plan's per-batch imbalance line and its worst imbalance.
inline constexpr double kImbalanceMaxOverMean = 1.5;
void reportOwnerImbalance(const std::vector<Group>& groups, DiagnosticSink& sink,
                          double maxOverMean = kImbalanceMaxOverMean);

}  // namespace hsdp
