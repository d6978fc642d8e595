// SPDX-License-Identifier: Apache-2.0
#include "plan/replica_count.h"

#include <algorithm>
#include <map>

namespace hsdp {

namespace {

// The reference's per-dim dedup: min(s, devices_per_node), lowered until it divides s.
int64_t dedupFor(int64_t size, int64_t devicesPerNode, bool& splitNeeded) {
    if (size <= devicesPerNode) return size;
    splitNeeded = true;
    int64_t dedup = std::min(size, devicesPerNode);
    while (dedup > 1 && size % dedup != 0) --dedup;
    return dedup;
}

std::string groupLabel(const Group& group) {
    return "group " + std::to_string(group.id);
}

void checkDivisible(const std::vector<Group>& groups, int64_t count, DiagnosticSink& sink) {
    for (const Group& group : groups) {
        for (int dim : group.replicateMeshDims) {
            int64_t s = group.meshShape[static_cast<size_t>(dim)];
            if (s <= count || s % count == 0) continue;
            sink.report(
                Severity::Error, codes::ReplicaCountIndivisible,
                "replica count " + std::to_string(count) + " does not divide a replicate mesh dim",
                groupLabel(group) + " mesh dim " + std::to_string(dim) + " of size " +
                    std::to_string(s),
                group.params);
            break;  // one detail per group; the params are the group's either way
        }
    }
}

}  // namespace

ReplicaDeduction deduceReplicaCount(const std::vector<Group>& groups, int64_t devicesPerNode) {
    ReplicaDeduction out;
    std::map<size_t, int64_t> dedupAtPosition;
    for (const Group& group : groups) {
        for (size_t j = 0; j < group.replicateMeshDims.size(); ++j) {
            int64_t s = group.meshShape[static_cast<size_t>(group.replicateMeshDims[j])];
            if (s <= 1) continue;
            int64_t dedup = dedupFor(s, devicesPerNode, out.splitNeeded);
            auto [it, inserted] = dedupAtPosition.emplace(j, dedup);
            if (!inserted) it->second = std::min(it->second, dedup);
        }
    }
    for (const auto& [position, dedup] : dedupAtPosition)
        out.minimumDedup = out.minimumDedup ? std::min(*out.minimumDedup, dedup) : dedup;
    return out;
}

std::optional<int64_t> effectiveReplicaCount(const std::vector<Group>& groups,
                                             const PlanOptions& options, DiagnosticSink& sink) {
    std::optional<int64_t> count = options.hsdpReplicaCount;
    if (options.autoReplicaCount) {
        auto deduction = deduceReplicaCount(groups, options.devicesPerNode);
        if (!deduction.splitNeeded) {
            if (count)
                sink.report(Severity::Warning, codes::ReplicaCountIgnored,
                            "hsdp_replica_count " + std::to_string(*count) +
                                " ignored: auto_replica_count found no replicate dim larger than "
                                "devices_per_node " +
                                std::to_string(options.devicesPerNode));
            count.reset();
        } else if (!count) {
            count = deduction.minimumDedup;
        }
    }
    if (count) checkDivisible(groups, *count, sink);
    return count;
}

std::vector<int64_t> replicateSizes(const Group& group, std::optional<int64_t> count) {
    std::vector<int64_t> sizes;
    sizes.reserve(group.replicateMeshDims.size());
    for (int dim : group.replicateMeshDims) {
        int64_t s = group.meshShape[static_cast<size_t>(dim)];
        sizes.push_back(count ? std::min(s, *count) : s);
    }
    return sizes;
}

Coord replicateCoordinate(const Coord& meshCoord, const std::vector<int>& replicateMeshDims,
                          std::optional<int64_t> count) {
    Coord out;
    out.reserve(replicateMeshDims.size());
    for (int dim : replicateMeshDims) {
        int64_t c = meshCoord[static_cast<size_t>(dim)];
        out.push_back(count ? c % *count : c);
    }
    return out;
}

int64_t replicateIndex(const Coord& meshCoord, const std::vector<int>& replicateMeshDims,
                       const std::vector<int64_t>& sizes, std::optional<int64_t> count) {
    int64_t index = 0;
    for (size_t i = 0; i < replicateMeshDims.size(); ++i) {
        const int64_t c = meshCoord[static_cast<size_t>(replicateMeshDims[i])];
        index = index * sizes[i] + (count ? c % *count : c);
    }
    return index;
}

}  // namespace hsdp
