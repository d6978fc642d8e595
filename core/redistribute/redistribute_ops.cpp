// SPDX-License-Identifier: Apache-2.0
// The all-to-all, the local steps and the reference's concat gather of a redistribution.
#include <algorithm>
#include <sstream>

#include "redistribute/detail/redistribute_step.h"
#include "tensor/dtype_codec.h"
#include "tensor/packing.h"
#include "verify/truth.h"
#include "verify/verify.h"

namespace hsdp::detail {

// S(i) -> S(j): member c sends to member c' the rows it holds along i that c'
// needs along j; blocks padded to the widest pair so one all-to-all moves all.
Tensor stepAllToAll(const RedistributionStepRun& s, const Tensor& local) {
    const int i = s.dimOf(s.step.before[size_t(s.m)]), j = s.dimOf(s.step.after[size_t(s.m)]);
    const ShardLayout mineBefore = s.layout(s.step.before, s.redist.coord);
    const ShardLayout mineAfter = s.layout(s.step.after, s.redist.coord);
    std::vector<IndexSet> srcSets, dstSets;  // by mesh coordinate: along i before, along j after
    for (int64_t c = 0; c < s.n; ++c) {
        srcSets.push_back(s.layout(s.step.before, s.coordAt(c)).dims[size_t(i)]);
        dstSets.push_back(s.layout(s.step.after, s.coordAt(c)).dims[size_t(j)]);
    }
    int64_t widestSrc = 0, widestDst = 0, rest = 1;
    for (const auto& x : srcSets) widestSrc = std::max(widestSrc, indexCount(x));
    for (const auto& x : dstSets) widestDst = std::max(widestDst, indexCount(x));
    for (int d = 0; d < local.ndim(); ++d)
        if (d != i && d != j) rest *= local.shape[size_t(d)];
    const int64_t blockBytes = widestSrc * widestDst * rest * dtypeSize(s.redist.dtype);
    Communicator& comm = s.comm();
    const auto coords = s.members(comm);
    auto send = poisonBuffer(blockBytes * int64_t(coords.size()));
    for (size_t q = 0; q < coords.size(); ++q) {
        Positions pos = allPositions(local.shape);
        pos[size_t(j)] = positionsIn(mineBefore.dims[size_t(j)], dstSets[size_t(coords[q])]);
        encodeTensor(extract(local, pos), s.redist.dtype, send.data() + q * size_t(blockBytes));
    }
    std::vector<std::byte> recv(send.size());
    comm.allToAll(send.data(), recv.data(), size_t(blockBytes), s.label());
    Tensor out(mineAfter.localShape());
    for (size_t q = 0; q < coords.size(); ++q) {
        const IndexSet& from = srcSets[size_t(coords[q])];
        std::vector<int64_t> shape = withDim(out.shape, i, indexCount(from));
        Tensor block = decodeTensor(recv.data() + q * size_t(blockBytes), s.redist.dtype, shape);
        Positions pos = allPositions(shape);
        pos[size_t(i)] = positionsIn(mineAfter.dims[size_t(i)], from);
        insert(out, pos, block);
    }
    return out;
}

Tensor stepLocalChunk(const RedistributionStepRun& s, const Tensor& local) {
    const int d = s.dimOf(s.step.after[size_t(s.m)]);
    Positions pos = allPositions(local.shape);
    pos[size_t(d)] = positionsIn(s.layout(s.step.before, s.redist.coord).dims[size_t(d)],
                                 s.layout(s.step.after, s.redist.coord).dims[size_t(d)]);
    return extract(local, pos);
}

// R -> P: this rank keeps its share of each value (the truth model's split),
// which needs each element's global flat index.
Tensor stepLocalSplit(const RedistributionStepRun& s, const Tensor& local) {
    const ShardLayout layout = s.layout(s.step.before, s.redist.coord);
    const Placement& to = s.step.after[size_t(s.m)];
    std::vector<std::vector<int64_t>> globals;
    for (const auto& set : layout.dims) {
        globals.emplace_back();
        for (const auto& r : set)
            for (int64_t g = r.begin; g < r.end; ++g) globals.back().push_back(g);
    }
    Tensor out = local;
    const auto strides = stridesOf(s.redist.shape);
    for (int64_t flat = 0; flat < out.numel(); ++flat) {
        const auto idx = unflatIndex(out.shape, flat);
        int64_t k = 0;
        for (size_t d = 0; d < idx.size(); ++d) k += globals[d][size_t(idx[d])] * strides[d];
        float& v = out.data[size_t(flat)];
        v = roundTo(s.redist.dtype,
                    partialShare(v, k, s.redist.coord[size_t(s.m)], s.n, to.reduceOp));
    }
    return out;
}

// torch.chunk(t, n, dim)[group_rank], group_rank = position in the ascending group.
Tensor stepTorchChunk(const RedistributionStepRun& s, const Tensor& local) {
    const int d = s.dimOf(s.step.after[size_t(s.m)]);
    auto ranks = s.redist.mesh->groupAlong(s.m, s.redist.coord);
    std::sort(ranks.begin(), ranks.end());
    const int me = s.redist.ctx->rank();
    const int64_t groupRank = std::find(ranks.begin(), ranks.end(), me) - ranks.begin();
    const IndexSet part = chunkOf({IndexRange{0, local.shape[size_t(d)]}}, s.n, groupRank);
    const IndexRange r = part.empty() ? IndexRange{0, 0} : part.front();
    return narrow(local, d, r.begin, r.size());
}

// The reference's all_gather concat: equal shard sizes required, blocks concatenated
// along the tensor dim in process-group order.
Tensor stepConcatGather(const RedistributionStepRun& s, const Tensor& local) {
    const int d = s.dimOf(s.step.before[size_t(s.m)]);
    const auto mine = local.shape;
    for (int64_t c = 0; c < s.n; ++c) {
        const auto theirs = s.layout(s.step.before, s.coordAt(c)).localShape();
        if (theirs != mine) {
            std::ostringstream os;
            os << "all_gather over mesh dim " << s.m << ": rank "
               << s.redist.mesh->rankAt(s.coordAt(c)) << " holds " << shapeText(theirs)
               << " but rank " << s.redist.ctx->rank() << " holds " << shapeText(mine)
               << "; the reference's all_gather needs equal shards and raises";
            throw ReferenceRaise(os.str());
        }
    }
    const Tensor moved = movedimTo0(local, d);
    const int64_t bytes = moved.numel() * dtypeSize(s.redist.dtype);
    std::vector<std::byte> send(static_cast<size_t>(bytes));
    encodeTensor(moved, s.redist.dtype, send.data());
    Communicator& comm = s.comm();
    std::vector<std::byte> out(size_t(bytes) * size_t(comm.size()));
    comm.allGather(send.data(), out.data(), size_t(bytes), s.label());
    Tensor whole = decodeTensor(out.data(), s.redist.dtype,
                                withDim(moved.shape, 0, moved.shape[0] * comm.size()));
    return movedimFrom0(whole, d);
}

}  // namespace hsdp::detail
