// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/gloo_communicator.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include <gloo/allgather.h>
#include <gloo/allgatherv.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/alltoallv.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/context.h>
#include <gloo/math.h>

#include "runtime/group_set.h"
#include "runtime/reduce_kernels.h"
#include "runtime/wire_bytes.h"
#include "types/collective_op.h"

namespace hsdp {
namespace {

int positionOf(const std::vector<int>& ranks, int rank) {
    const auto it = std::find(ranks.begin(), ranks.end(), rank);
    if (it == ranks.end())
        throw std::invalid_argument("rank " + std::to_string(rank) + " is not in group " +
                                    groupKey(ranks));
    return static_cast<int>(it - ranks.begin());
}

uint8_t* bytesOf(const void* p) {
    return static_cast<uint8_t*>(const_cast<void*>(p));
}

template <typename T>
gloo::AllreduceOptions::Func nativeReduce(ReduceOp op) {
    using Kernel =
        void (*)(void*, const void*, const void*, size_t);  // picks the 4-argument overloads
    switch (op) {
        case ReduceOp::Product:
            return static_cast<Kernel>(&gloo::product<T>);
        case ReduceOp::Max:
            return static_cast<Kernel>(&gloo::max<T>);
        case ReduceOp::Min:
            return static_cast<Kernel>(&gloo::min<T>);
        default:
            return static_cast<Kernel>(&gloo::sum<T>);  // Avg: sum, divided afterwards
    }
}

// Gloo reduces with a type-erased function: (out, a, b, element count).
// f32/f64 use Gloo's own kernels; the 16-bit types widen to fp32 and round
// back to nearest even at every combine (reduce_kernels.h).
gloo::AllreduceOptions::Func reduceFunction(DType dtype, ReduceOp op) {
    if (dtype == DType::F32) return nativeReduce<float>(op);
    if (dtype == DType::F64) return nativeReduce<double>(op);
    return [dtype, op](void* out, const void* a, const void* b, size_t n) {
        reduceElements(dtype, op, out, a, b, n);
    };
}

std::string sizesText(const std::vector<size_t>& sizes) {
    std::string text = "[";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? "," : "") + std::to_string(sizes[i]);
    return text + "]";
}

std::string reductionText(ReduceOp op, size_t count, DType dtype) {
    return std::string(reduceOpName(op)) + " of " + std::to_string(count) + " " +
           std::string(dtypeName(dtype));
}

}  // namespace

GlooCommunicator::GlooCommunicator(RankState& state, std::vector<int> ranks,
                                   std::shared_ptr<gloo::Context> context)
    : state_(state),
      ranks_(std::move(ranks)),
      groupRank_(positionOf(ranks_, state.rank())),
      key_(groupKey(ranks_)),
      localMembers_(static_cast<int>(std::count_if(ranks_.begin(), ranks_.end(),
                                                   [&](int r) { return state.run().isLocal(r); }))),
      context_(std::move(context)) {}

GlooCommunicator::~GlooCommunicator() = default;

void GlooCommunicator::close() {
    context_.reset();
    closed_ = true;
}

template <typename Transfer>
void GlooCommunicator::run(std::string_view op, const std::string& signature,
                           const CallSizes& sizes, const CollectiveLabel& label,
                           Transfer&& transfer) {
    RunState& runState = state_.run();
    const int64_t seq = runState.globalSeq(key_, ++groupSeq_);
    const CollectiveCall call{op, ranks_, seq, label, groupSeq_};
    state_.admit(call);
    if (closed_) state_.fail(closedGroupError(state_.rank(), call));
    // The check compares the members in this process (all of them unless the
    // world is split over processes).
    if (localMembers_ > 1) {
        const auto mismatch =
            runState.calls().arrive(key_, localMembers_, groupSeq_, state_.rank(), signature);
        if (mismatch)
            state_.fail(mismatchError(state_.rank(), call, signature, mismatch->firstRank,
                                      mismatch->signature));
    }
    const auto timeout = runState.options().timeout;
    const auto started = std::chrono::steady_clock::now();
    const double startUs = runState.nowUs();
    try {
        transfer(timeout);
    } catch (const std::exception& error) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - started);
        state_.fail(transferError(state_.rank(), call, error, elapsed, timeout));
    }
    TraceEvent event;
    event.seq = seq;
    event.rank = state_.rank();
    event.op = std::string(op);
    event.groupRanks = ranks_;
    event.bytes = ranks_.size() > 1 ? sizes.wire : 0;
    event.inputBytes = sizes.input;
    event.outputBytes = sizes.output;
    event.dtype = sizes.dtype;
    event.startUs = startUs;
    event.endUs = runState.nowUs();
    event.label = label;
    runState.record(std::move(event));
}

void GlooCommunicator::allGather(const void* in, void* out, size_t bytesPerRank,
                                 const CollectiveLabel& label) {
    const auto sent = wire_bytes::allGather(static_cast<int64_t>(bytesPerRank), size());
    run(traceNameOf(CollectiveOp::AllGather),
        "all_gather of " + std::to_string(bytesPerRank) + " bytes per rank",
        {sent, int64_t(bytesPerRank), int64_t(bytesPerRank * ranks_.size()), std::nullopt}, label,
        [&](std::chrono::milliseconds timeout) {
            // Place our own block first (memmove: `in` may overlap `out`; no
            // copy at all when the caller packed it in place); Gloo then runs
            // without an input buffer, i.e. in place.
            uint8_t* mine = bytesOf(out) + groupRank_ * bytesPerRank;
            if (bytesPerRank > 0 && mine != in) std::memmove(mine, in, bytesPerRank);
            if (trivial(bytesPerRank)) return;
            gloo::AllgatherOptions opts(context_);
            opts.setOutput(bytesOf(out), bytesPerRank * ranks_.size());
            opts.setTimeout(timeout);
            gloo::allgather(opts);
        });
}

void GlooCommunicator::allGatherV(const void* in, void* out,
                                  const std::vector<size_t>& bytesPerRank,
                                  const CollectiveLabel& label) {
    const auto total = std::accumulate(bytesPerRank.begin(), bytesPerRank.end(), size_t{0});
    const bool sized = bytesPerRank.size() == ranks_.size();
    const auto sent = sized ? wire_bytes::allGatherV(bytesPerRank, groupRank_) : 0;
    run(traceNameOf(CollectiveOp::AllGatherV),
        "all_gather_v of " + sizesText(bytesPerRank) + " bytes",
        {sent, sized ? int64_t(bytesPerRank[groupRank_]) : 0, int64_t(total), std::nullopt}, label,
        [&](std::chrono::milliseconds timeout) {
            if (!sized)
                throw std::invalid_argument(
                    "all_gather_v got " + std::to_string(bytesPerRank.size()) +
                    " sizes for a group of " + std::to_string(ranks_.size()));
            const auto offset =
                std::accumulate(bytesPerRank.begin(), bytesPerRank.begin() + groupRank_, size_t{0});
            if (bytesPerRank[groupRank_] > 0)
                std::memmove(bytesOf(out) + offset, in, bytesPerRank[groupRank_]);
            if (trivial(total)) return;
            gloo::AllgathervOptions opts(context_);
            opts.setOutput(bytesOf(out), bytesPerRank);
            opts.setTimeout(timeout);
            gloo::allgatherv(opts);
        });
}

void GlooCommunicator::broadcast(void* buffer, size_t bytes, int rootGroupRank,
                                 const CollectiveLabel& label) {
    const bool validRoot = rootGroupRank >= 0 && rootGroupRank < size();
    const auto sent = validRoot ? wire_bytes::broadcast(static_cast<int64_t>(bytes), size(),
                                                        groupRank_, rootGroupRank)
                                : 0;
    const auto signature = "broadcast of " + std::to_string(bytes) + " bytes from group rank " +
                           std::to_string(rootGroupRank);
    run(traceNameOf(CollectiveOp::Broadcast), signature,
        {sent, int64_t(bytes), int64_t(bytes), std::nullopt}, label,
        [&](std::chrono::milliseconds timeout) {
            if (!validRoot)
                throw std::invalid_argument("broadcast root " + std::to_string(rootGroupRank) +
                                            " is not a rank of a group of " +
                                            std::to_string(size()));
            if (trivial(bytes)) return;
            gloo::BroadcastOptions opts(context_);
            opts.setOutput(bytesOf(buffer), bytes);  // in place: the root's output is its input
            opts.setRoot(rootGroupRank);
            opts.setTimeout(timeout);
            gloo::broadcast(opts);
        });
}

void GlooCommunicator::allReduce(void* buffer, size_t count, DType dtype, ReduceOp op,
                                 const CollectiveLabel& label) {
    const size_t bytes = count * static_cast<size_t>(dtypeSize(dtype));
    run(traceNameOf(CollectiveOp::AllReduce), "all_reduce " + reductionText(op, count, dtype),
        {wire_bytes::allReduce(static_cast<int64_t>(bytes), size()), int64_t(bytes), int64_t(bytes),
         dtype},
        label, [&](std::chrono::milliseconds timeout) {
            if (trivial(bytes)) return;
            gloo::AllreduceOptions opts(context_);
            // Element size drives Gloo's segmenting; the reduce function knows the type.
            switch (dtypeSize(dtype)) {
                case 2:
                    opts.setOutput(static_cast<uint16_t*>(buffer), count);
                    break;
                case 4:
                    opts.setOutput(static_cast<float*>(buffer), count);
                    break;
                default:
                    opts.setOutput(static_cast<double*>(buffer), count);
                    break;
            }
            opts.setReduceFunction(reduceFunction(dtype, op));
            opts.setTimeout(timeout);
            gloo::allreduce(opts);
            if (op == ReduceOp::Avg) divideElements(dtype, buffer, count, size());
        });
}

// Gloo's own reduce_scatter is a float-only halving-doubling algorithm with
// its own buffer layout, so the reduce-scatter here is the textbook one: an
// all-to-all moves block i of every rank to group rank i, which then reduces
// the blocks locally in group-rank order. The result is identical on every
// run and independent of the transport's timing.
void GlooCommunicator::reduceScatter(const void* in, void* out, size_t countPerRank, DType dtype,
                                     ReduceOp op, const CollectiveLabel& label) {
    const size_t blockBytes = countPerRank * static_cast<size_t>(dtypeSize(dtype));
    run(traceNameOf(CollectiveOp::ReduceScatter),
        "reduce_scatter " + reductionText(op, countPerRank, dtype) + " per rank",
        {wire_bytes::allToAll(static_cast<int64_t>(blockBytes), size()),
         int64_t(blockBytes * ranks_.size()), int64_t(blockBytes), dtype},
        label, [&](std::chrono::milliseconds /*timeout*/) {
            if (blockBytes == 0) return;
            std::vector<uint8_t> received(blockBytes * ranks_.size());
            if (ranks_.size() == 1)
                std::memcpy(received.data(), in, blockBytes);
            else
                allToAllBytes(in, received.data(), blockBytes);
            std::vector<const void*> blocks(ranks_.size());
            for (size_t i = 0; i < blocks.size(); ++i) blocks[i] = received.data() + i * blockBytes;
            reduceBlocks(dtype, op, out, blocks.data(), blocks.size(), countPerRank);
        });
}

void GlooCommunicator::allToAll(const void* in, void* out, size_t bytesPerRank,
                                const CollectiveLabel& label) {
    run(traceNameOf(CollectiveOp::AllToAll),
        "all_to_all of " + std::to_string(bytesPerRank) + " bytes per rank",
        {wire_bytes::allToAll(static_cast<int64_t>(bytesPerRank), size()),
         int64_t(bytesPerRank * ranks_.size()), int64_t(bytesPerRank * ranks_.size()),
         std::nullopt},
        label, [&](std::chrono::milliseconds /*timeout*/) {
            if (bytesPerRank == 0) return;
            if (ranks_.size() == 1) {
                std::memmove(out, in, bytesPerRank);
                return;
            }
            allToAllBytes(in, out, bytesPerRank);
        });
}

void GlooCommunicator::allToAllV(const void* in, const std::vector<size_t>& sendBytes, void* out,
                                 const std::vector<size_t>& recvBytes,
                                 const CollectiveLabel& label) {
    const bool sized = sendBytes.size() == ranks_.size() && recvBytes.size() == ranks_.size();
    const auto sent = sized ? wire_bytes::allToAllV(sendBytes, groupRank_) : 0;
    // Each member's sizes are its own: the members agree on the op and group only.
    const auto sum = [](const std::vector<size_t>& v) {
        return int64_t(std::accumulate(v.begin(), v.end(), size_t{0}));
    };
    run(traceNameOf(CollectiveOp::AllToAllV), "all_to_all_v",
        {sent, sum(sendBytes), sum(recvBytes), std::nullopt}, label,
        [&](std::chrono::milliseconds timeout) {
            if (!sized)
                throw std::invalid_argument("all_to_all_v got " + std::to_string(sendBytes.size()) +
                                            " send and " + std::to_string(recvBytes.size()) +
                                            " receive sizes for a group of " +
                                            std::to_string(ranks_.size()));
            if (sendBytes[groupRank_] != recvBytes[groupRank_])
                throw std::invalid_argument(
                    "all_to_all_v keeps " + std::to_string(sendBytes[groupRank_]) +
                    " bytes of its own but expects " + std::to_string(recvBytes[groupRank_]));
            if (ranks_.size() == 1) {
                if (sendBytes[0] > 0) std::memmove(out, in, sendBytes[0]);
                return;
            }
            std::vector<int64_t> sendCounts(sendBytes.begin(), sendBytes.end());
            std::vector<int64_t> recvCounts(recvBytes.begin(), recvBytes.end());
            // Gloo registers both buffers even when a rank sends or receives
            // nothing: an empty side gets a byte of its own to point at.
            uint8_t none = 0;
            gloo::AlltoallvOptions opts(context_);
            opts.setInput(in ? bytesOf(in) : &none, std::move(sendCounts));
            opts.setOutput(out ? bytesOf(out) : &none, std::move(recvCounts));
            opts.setTimeout(timeout);
            gloo::alltoallv(opts);
        });
}

void GlooCommunicator::allToAllBytes(const void* in, void* out, size_t bytesPerRank) {
    const size_t total = bytesPerRank * ranks_.size();
    // Gloo sends from `in` while it writes `out`: overlapping buffers need a copy.
    std::vector<uint8_t> copy;
    const auto* source = static_cast<const uint8_t*>(in);
    const auto* target = static_cast<const uint8_t*>(out);
    if (source < target + total && target < source + total) {
        copy.assign(source, source + total);
        source = copy.data();
    }
    gloo::AlltoallOptions opts(context_);
    opts.setInput(bytesOf(source), total);
    opts.setOutput(bytesOf(out), total);
    opts.setTimeout(state_.run().options().timeout);
    gloo::alltoall(opts);
}

void GlooCommunicator::barrier(const CollectiveLabel& label) {
    run(traceNameOf(CollectiveOp::Barrier), "barrier", {}, label,
        [&](std::chrono::milliseconds timeout) {
            if (ranks_.size() == 1) return;
            gloo::BarrierOptions opts(context_);
            opts.setTimeout(timeout);
            gloo::barrier(opts);
        });
}

}  // namespace hsdp
