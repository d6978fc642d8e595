#pragma once

#include <vector>

#include "model/scenario.h"
#include "plan/diagnostics.h"
#include "plan/plan.h"

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
// A process group orders its ranks ascending (docs/plan.md §5), so the reference's
// all-gather along a shard mesh dim of size > 1 whose mesh order is not
// ascending concatenates the shards of the wrong ranks. Judged on the shard
// groups of the param's owner (all of them for a param without one); needs
// the group's ownership assigned.
bool shardRankOrderHazard(const Group& group, int param);

// uneven-shard, nested-shard-order, strided-shard-chunk and shard-rank-order
// for params of gathered groups; frozen-param-no-owner for params of any group. Codes in
// order of first appearance over params in index order.
void reportParamHazards(const std::vector<Group>& groups, const std::vector<ParamSpec>& specs,
                        DiagnosticSink& sink);

// owner-imbalance (warning): a batch with at least as many trainable params as
// replicate coordinates whose heaviest coordinate carries more than
// `maxOverMin` times the lightest one's load.
inline constexpr double kImbalanceRatio = 2.0;
void reportOwnerImbalance(const std::vector<Group>& groups, DiagnosticSink& sink,
                          double maxOverMin = kImbalanceRatio);

}  // namespace hsdp
