// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hsdp {

// Bytes a group rank puts on the wire for one collective under the algorithm
// Gloo runs (see TraceEvent::bytes in trace.h for the table). Pure functions
// of the arguments every participant knows, so traces can be summed.
namespace wire_bytes {

int64_t allGather(int64_t bytesPerRank, int size);
int64_t allGatherV(const std::vector<size_t>& bytesPerRank, int groupRank);
int64_t broadcast(int64_t bytes, int size, int groupRank, int root);
int64_t allReduce(int64_t bytes, int size);
int64_t allToAll(int64_t bytesPerRank, int size);
// What group rank `groupRank` sends the others: every block but its own.
int64_t allToAllV(const std::vector<size_t>& sendBytes, int groupRank);

}  // namespace wire_bytes
}  // namespace hsdp
