// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/world.h"
#include "tensor/gathered_tensor.h"
#include "tensor/tensor.h"
#include "types/dtype.h"
#include "types/geometry.h"
#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp {

// One parameter of a fused all-gather, as one rank holds it.
struct GatherItem {
    int param = -1;
    std::vector<int64_t> shape;  // global shape of the data
    std::vector<Placement> placements;
    DType dtype = DType::F32;
    const Tensor* local = nullptr;  // this rank's shard
};

// Wall-clock split of one corrected gather, summed over mesh dims (seconds):
// layout + packing, the all-gather itself, unpacking. Filled only when asked.
struct GatherTimings {
    double pack = 0;
    double gather = 0;
    double unpack = 0;
};

// What every member of the shard group agrees on.
struct GatherSetup {
    const Mesh* mesh = nullptr;
    Coord coord;                                 // this rank's mesh coordinate
    std::vector<std::pair<int, int>> shardAxes;  // (mesh dim, tensor dim), mesh-dim order
    int64_t alignmentBytes = 512;
    CollectiveLabel label;  // phase/step/group/batch/mesh; meshDim, params, segments are filled in
    GatherTimings* timings =
        nullptr;  // optional (hsdp-bench gather): corrected mode adds its phases
};

struct GatherResult {
    // Per item, what this rank unpacked (reference: maybe wrong). The corrected
    // gather hands out views of its gathered buffer where the blocks tile the
    // tensor; the reference (and reordered shards) own their storage.
    std::vector<GatheredTensor> full;
    // The last all-gather's receive buffer (corrected mode): held, and counted
    // on the memory ledger, until the result is dropped.
    std::shared_ptr<float> buffer;
    std::string error;  // non-empty: the reference raises; no collective ran
    bool ok() const { return error.empty(); }
};

// Corrected: undoes the placements right to left (innermost mesh dim first);
// gathering over mesh dim m rebuilds the piece each member held before m split
// it, members' pieces placed by geometry (uneven, nested and strided shards).
// Segments are padded to the largest member's size, so one equal-size
// all-gather per mesh dim moves everything; no metadata collective.
GatherResult fusedGatherCorrected(RankContext& ctx, const GatherSetup& setup,
                                  const std::vector<GatherItem>& items);

// The reference `fused_allgather_dtensor_params` as written: shard axes in layout
// order, movedim to 0, pack with each rank's own padded sizes in the first
// item's dtype, all-gather in process-group order, unpack with the rank's own
// metadata. Unequal packed sizes (which the reference would fail on) are
// detected from geometry on every rank before any collective runs.
GatherResult fusedGatherReference(RankContext& ctx, const GatherSetup& setup,
                                  const std::vector<GatherItem>& items);

// Pure parts of the reference, shared with the step (it must know the shape
// the computing rank ends up with) and the tests.
// The shape `item` has at `coord` after the reference's gather (each active
// axis multiplies its tensor dim by the group size).
std::vector<int64_t> referenceGatheredShape(const GatherItem& item,
                                            const std::vector<int64_t>& meshShape,
                                            const Coord& coord,
                                            const std::vector<std::pair<int, int>>& shardAxes);
// Empty when every all-gather of the shard group through `setup.coord` would
// see equal packed sizes; otherwise the reference's failure, naming the ranks.
std::string referenceGatherPreflight(const GatherSetup& setup,
                                     const std::vector<GatherItem>& items);

// The rows (global indices along tensor dim `d`) one all-gather over mesh dim
// `m` moves, as the corrected gather cuts its rank-major buffer: what the
// member at each mesh coordinate j along `m` holds before the gather
// (members[j]), and the piece every member holds after it (target). `coord`
// is any member's coordinate. The gather, the buffer view and the tests
// share this one geometry.
struct AxisRows {
    std::vector<IndexSet> members;  // [coordinate along m]
    IndexSet target;
};
AxisRows gatherAxisRows(const std::vector<int64_t>& shape, const std::vector<Placement>& placements,
                        const std::vector<int64_t>& meshShape, const Coord& coord, int m, int d);

// The mesh coordinate along `dim` of each member of `comm` (group order).
std::vector<int64_t> memberCoords(const Communicator& comm, const Mesh& mesh, int dim);

}  // namespace hsdp
