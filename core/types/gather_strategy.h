// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hsdp {

// How a gathered group gets each sharded matrix to the rank that runs its
// Newton–Schulz, and the update back to the shards (docs/run.md, "Gather
// strategies"):
//   all-gather  the reference design: per shard mesh dim a fused all-gather of
//               the batch to every member, then the fp32 update broadcast from
//               each param's computing rank; every member slices its part;
//   all-to-all  over the shard group as one (its mesh dims flattened), each
//               member sends the computing rank of a param only its own piece
//               of it, and the computing rank sends each member back exactly
//               its fp32 slice of the update (two alltoallv per batch).
enum class GatherStrategy : uint8_t { AllGather, AllToAll };
// What the scenario asks for: one of the two, or the one the cost model
// predicts faster, per group.
enum class GatherStrategyOption : uint8_t { AllGather, AllToAll, Auto };

std::string_view gatherStrategyName(GatherStrategy strategy);  // "all-gather" | "all-to-all"
// "all-gather" | "all-to-all" | "auto"
std::string_view gatherStrategyOptionName(GatherStrategyOption option);
std::optional<GatherStrategyOption> gatherStrategyOptionNamed(std::string_view name);

}  // namespace hsdp
