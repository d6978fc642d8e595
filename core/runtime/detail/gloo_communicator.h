// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/detail/rank_state.h"
#include "runtime/world.h"

namespace gloo {
class Context;
}

namespace hsdp {

// One process group as seen by one rank, over a real Gloo context (loopback
// TCP). A group of one rank has no context: its collectives are local copies,
// still counted, sequenced and traced like the others.
class GlooCommunicator final : public Communicator {
public:
    // `ranks`: the group's global ranks, ascending; `context`: this rank's
    // connected Gloo context for them (null when the group has one rank).
    GlooCommunicator(RankState& state, std::vector<int> ranks,
                     std::shared_ptr<gloo::Context> context);
    ~GlooCommunicator() override;

    int rank() const override { return groupRank_; }
    int size() const override { return static_cast<int>(ranks_.size()); }
    const std::vector<int>& ranks() const override { return ranks_; }

    void allGather(const void* in, void* out, size_t bytesPerRank,
                   const CollectiveLabel& label) override;
    void allGatherV(const void* in, void* out, const std::vector<size_t>& bytesPerRank,
                    const CollectiveLabel& label) override;
    void broadcast(void* buffer, size_t bytes, int rootGroupRank,
                   const CollectiveLabel& label) override;
    void allReduce(void* buffer, size_t count, DType dtype, ReduceOp op,
                   const CollectiveLabel& label) override;
    void reduceScatter(const void* in, void* out, size_t countPerRank, DType dtype, ReduceOp op,
                       const CollectiveLabel& label) override;
    void allToAll(const void* in, void* out, size_t bytesPerRank,
                  const CollectiveLabel& label) override;
    void allToAllV(const void* in, const std::vector<size_t>& sendBytes, void* out,
                   const std::vector<size_t>& recvBytes, const CollectiveLabel& label) override;
    void barrier(const CollectiveLabel& label) override;

    // Destroys the Gloo context, closing its sockets: peers blocked on this
    // rank see the connection drop. Later collectives on this group throw.
    void close();

private:
    // The frame of every collective: sequence id, admission (cancel, abort,
    // injected fault), the transfer itself with errors turned into RunError
    // (closing this rank's connections), and the trace event.
    // `signature` spells the call (op and sizes); every member must make the same one.
    // A call's sizes for its trace event: bytes on the wire (TraceEvent::bytes),
    // its input and output buffers, a reduction's element type.
    struct CallSizes {
        int64_t wire = 0;
        int64_t input = 0;
        int64_t output = 0;
        std::optional<DType> dtype;
    };
    template <typename Transfer>
    void run(std::string_view op, const std::string& signature, const CallSizes& sizes,
             const CollectiveLabel& label, Transfer&& transfer);

    void allToAllBytes(const void* in, void* out, size_t bytesPerRank);  // Gloo alltoall, size > 1
    bool trivial(size_t bytes) const { return ranks_.size() == 1 || bytes == 0; }

    RankState& state_;
    const std::vector<int> ranks_;
    const int groupRank_;
    const std::string key_;
    const int localMembers_;  // members living in this process
    std::shared_ptr<gloo::Context> context_;
    bool closed_ = false;
    int64_t groupSeq_ = 0;
};

}  // namespace hsdp
