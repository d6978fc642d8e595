// SPDX-License-Identifier: Apache-2.0
// Executes the plan's redistribution steps on one rank.
#include <algorithm>

#include "redistribute/detail/redistribute_step.h"
#include "redistribute/redistribute.h"
#include "tensor/dtype_codec.h"
#include "tensor/packing.h"
#include "types/geometry.h"
#include "verify/truth.h"
#include "verify/verify.h"

namespace hsdp {

namespace {

using Op = RedistributionOp;
using detail::allPositions;
using detail::RedistributionStepRun;
using detail::withDim;

Tensor allGather(const RedistributionStepRun& s, const Tensor& local) {
    const int d = s.dimOf(s.step.before[size_t(s.m)]);
    const IndexSet target = s.layout(s.step.after, s.redist.coord).dims[size_t(d)];
    std::vector<IndexSet> sets;
    for (int64_t j = 0; j < s.n; ++j)
        sets.push_back(s.layout(s.step.before, s.coordAt(j)).dims[size_t(d)]);
    const Tensor moved = movedimTo0(local, d);
    int64_t rest = 1, widest = 0;
    for (size_t k = 1; k < moved.shape.size(); ++k) rest *= moved.shape[k];
    for (const auto& set : sets) widest = std::max(widest, indexCount(set) * rest);
    const int es = dtypeSize(s.redist.dtype);
    auto send = poisonBuffer(widest * es);
    encodeTensor(moved, s.redist.dtype, send.data());
    Communicator& comm = s.comm();
    std::vector<std::byte> out(size_t(widest * es) * size_t(comm.size()));
    comm.allGather(send.data(), out.data(), size_t(widest * es), s.label());
    const auto coords = s.members(comm);
    Tensor whole(withDim(moved.shape, 0, indexCount(target)));
    for (size_t q = 0; q < coords.size(); ++q) {
        const IndexSet& set = sets[size_t(coords[q])];
        Tensor block = decodeTensor(out.data() + q * size_t(widest * es), s.redist.dtype,
                                    withDim(moved.shape, 0, indexCount(set)));
        Positions pos = allPositions(block.shape);
        try {
            pos[0] = positionsIn(target, set);
        } catch (const std::out_of_range&) {
            throw ReferenceRaise(
                "all_gather over mesh dim " + std::to_string(s.m) +
                " cannot rebuild the target layout: a later mesh dim shards the same tensor dim");
        }
        insert(whole, pos, block);
    }
    return movedimFrom0(whole, d);
}

Tensor allReduce(const RedistributionStepRun& s, const Tensor& local) {
    const ReduceOp op = s.step.before[size_t(s.m)].reduceOp;
    const DType wire = s.reduceWire(op);
    std::vector<std::byte> buf(size_t(local.numel() * dtypeSize(wire)));
    encodeTensor(local, wire, buf.data());
    s.comm().allReduce(buf.data(), size_t(local.numel()), wire, op, s.label());
    Tensor out = decodeTensor(buf.data(), wire, local.shape);
    for (auto& v : out.data) v = roundTo(s.redist.dtype, v);
    return out;
}

// Blocks (in group order) of `local` along tensor dim d, each padded to the
// widest; the receiver keeps the reduction of its block.
Tensor reduceScatterBlocks(const RedistributionStepRun& s, const Tensor& local, int d,
                           const std::vector<IndexSet>& blockSets, const IndexSet& have,
                           ReduceOp op) {
    Communicator& comm = s.comm();
    const auto coords = s.members(comm);
    const Tensor moved = movedimTo0(local, d);
    int64_t rest = 1, widest = 0;
    for (size_t k = 1; k < moved.shape.size(); ++k) rest *= moved.shape[k];
    for (const auto& set : blockSets) widest = std::max(widest, indexCount(set) * rest);
    const DType wire = s.reduceWire(op);
    const int es = dtypeSize(wire);
    auto send = poisonBuffer(widest * es * int64_t(coords.size()));
    for (size_t q = 0; q < coords.size(); ++q) {
        Positions pos = allPositions(moved.shape);
        pos[0] = positionsIn(have, blockSets[size_t(coords[q])]);
        encodeTensor(extract(moved, pos), wire, send.data() + q * size_t(widest * es));
    }
    std::vector<std::byte> mine(size_t(widest * es));
    comm.reduceScatter(send.data(), mine.data(), size_t(widest), wire, op, s.label());
    const IndexSet& myRows = blockSets[size_t(s.redist.coord[size_t(s.m)])];
    Tensor block = decodeTensor(mine.data(), wire, withDim(moved.shape, 0, indexCount(myRows)));
    for (auto& v : block.data) v = roundTo(s.redist.dtype, v);
    return movedimFrom0(block, d);
}

Tensor reduceScatter(const RedistributionStepRun& s, const Tensor& local) {
    const int d = s.dimOf(s.step.after[size_t(s.m)]);
    const IndexSet have = s.layout(s.step.before, s.redist.coord).dims[size_t(d)];
    std::vector<IndexSet> sets;
    for (int64_t j = 0; j < s.n; ++j)
        sets.push_back(s.layout(s.step.after, s.coordAt(j)).dims[size_t(d)]);
    return reduceScatterBlocks(s, local, d, sets, have, s.step.before[size_t(s.m)].reduceOp);
}

Tensor equalReduceScatter(const RedistributionStepRun& s, const Tensor& local) {
    const int d = s.dimOf(s.step.after[size_t(s.m)]);
    const int64_t len = local.shape[size_t(d)];
    if (len % s.n != 0)
        throw ReferenceRaise("reduce_scatter over mesh dim " + std::to_string(s.m) +
                             ": tensor dim " + std::to_string(d) + " of size " +
                             std::to_string(len) + " does not split into " + std::to_string(s.n) +
                             " equal chunks");
    std::vector<IndexSet> sets;
    for (int64_t q = 0; q < s.n; ++q)
        sets.push_back({IndexRange{q * len / s.n, (q + 1) * len / s.n}});
    // Block q goes to group rank q: the reference assumes group order == mesh order.
    Communicator& comm = s.comm();
    std::vector<IndexSet> byCoord(size_t(s.n));
    const auto coords = s.members(comm);
    for (size_t q = 0; q < coords.size(); ++q) byCoord[size_t(coords[q])] = sets[q];
    return reduceScatterBlocks(s, local, d, byCoord, IndexSet{IndexRange{0, len}},
                               s.step.before[size_t(s.m)].reduceOp);
}

Tensor executeStep(const RedistributionStepRun& s, const Tensor& local, OpForm form) {
    const bool seed = form == OpForm::Seed;
    switch (s.step.op) {
        case Op::AllGather:
            return seed ? detail::stepConcatGather(s, local) : allGather(s, local);
        case Op::AllReduce:
            return allReduce(s, local);
        case Op::ReduceScatter:
            return seed ? equalReduceScatter(s, local) : reduceScatter(s, local);
        case Op::AllToAll:
            return detail::stepAllToAll(s, local);
        case Op::LocalChunk:
            return seed ? detail::stepTorchChunk(s, local) : detail::stepLocalChunk(s, local);
        case Op::LocalSplit:
            return detail::stepLocalSplit(s, local);
    }
    return local;
}

}  // namespace

bool stepCommunicates(RedistributionOp op) {
    return op != Op::LocalChunk && op != Op::LocalSplit;  // executeStep's two local cases
}

Tensor executeSteps(const RankRedistribution& redist, const std::vector<RedistributionStep>& steps,
                    Tensor local, OpForm form) {
    for (const auto& step : steps) {
        const int64_t n = redist.mesh->shape[size_t(step.meshDim)];
        if (n <= 1) continue;  // one rank: every step is the identity
        local = executeStep(RedistributionStepRun{redist, step, step.meshDim, n}, local, form);
    }
    return local;
}

}  // namespace hsdp
