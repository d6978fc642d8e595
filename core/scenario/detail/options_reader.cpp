// SPDX-License-Identifier: Apache-2.0
#include "scenario/detail/options_reader.h"

#include "scenario/detail/mesh_reader.h"
#include "scenario/json_fields.h"

namespace hsdp {

namespace {

// Segments are padded to the alignment; beyond 1 GiB it can only be a typo and
// would make buffer sizes overflow downstream.
constexpr int64_t kMaxAlignment = int64_t{1} << 30;

// An int > 0, or null (nullopt) where the format allows it.
std::optional<int64_t> readOptionalPositive(const Json& value, const std::string& path) {
    if (value.is_null()) return std::nullopt;
    if (!isIntInRange(value, 1, kNoMax)) failExpected(path, "an integer >= 1 or null", value);
    return value.get<int64_t>();
}

std::string readBackend(const Json& value, const std::string& path) {
    if (!value.is_string() || (value != "gloo" && value != "nccl" && value != "hccl"))
        failExpected(path, "one of \"gloo\", \"nccl\", \"hccl\"", value);
    return value.get<std::string>();
}

GatherStrategyOption readGatherStrategy(const Json& value, const std::string& path) {
    auto option =
        value.is_string() ? gatherStrategyOptionNamed(value.get<std::string>()) : std::nullopt;
    if (!option) failExpected(path, "one of \"all-gather\", \"all-to-all\", \"auto\"", value);
    return *option;
}

}  // namespace

PlanOptions readOptions(const Json& options, const std::string& path) {
    requireObject(options, path, "options",
                  {"alignment_bytes", "max_batch_numel", "hsdp_replica_count", "auto_replica_count",
                   "devices_per_node", "backend", "broadcast_max_bytes", "lr", "gather_strategy"});
    PlanOptions out;
    for (const auto& [key, value] : options.items()) {
        std::string at = childPath(path, key);
        if (key == "alignment_bytes")
            out.alignmentBytes = readInt(value, at, 1, kMaxAlignment);
        else if (key == "max_batch_numel")
            out.maxBatchNumel = readOptionalPositive(value, at);
        else if (key == "hsdp_replica_count")
            out.hsdpReplicaCount = readOptionalPositive(value, at);
        else if (key == "auto_replica_count")
            out.autoReplicaCount = readBool(value, at);
        else if (key == "devices_per_node")
            out.devicesPerNode = readInt(value, at, 1, kMaxWorldSize);
        else if (key == "backend")
            out.backend = readBackend(value, at);
        else if (key == "broadcast_max_bytes")
            out.broadcastMaxBytes = readInt(value, at, 1);
        else if (key == "lr")
            out.lr = readPositiveNumber(value, at);
        else if (key == "gather_strategy")
            out.gatherStrategy = readGatherStrategy(value, at);
    }
    return out;
}

}  // namespace hsdp
