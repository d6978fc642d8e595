// SPDX-License-Identifier: Apache-2.0
#include "derived/run/trace_grouping.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "derived/run/node_map.h"
#include "types/mesh.h"

namespace hsdp {

namespace {

constexpr int kOutside = -1;  // a rank the grouping has no key for

// The group key of `rank`, or kOutside.
int keyOf(int rank, int position, const RankGrouping& grouping, const RankGroupingContext& context,
          const std::set<int>& selected) {
    switch (grouping.kind) {
        case RankGroupingKind::MeshDim: {
            const auto coord = context.mesh->coordinateOf(rank);
            return coord ? static_cast<int>((*coord)[static_cast<size_t>(grouping.dim)]) : kOutside;
        }
        case RankGroupingKind::Node:
            return context.nodes->nodeOf(rank);
        case RankGroupingKind::Selection:
            return selected.count(rank) ? 0 : 1;
        case RankGroupingKind::Blocks:
            return position / std::max(1, grouping.blockSize);
        case RankGroupingKind::None:
            break;
    }
    return kOutside;
}

QString titleOf(int key, const std::vector<int>& ranks, const std::vector<int>& members,
                const RankGrouping& grouping, const RankGroupingContext& context) {
    if (key == kOutside) return QStringLiteral("other ranks");
    switch (grouping.kind) {
        case RankGroupingKind::MeshDim:
            return QStringLiteral("%1=%2")
                .arg(QString::fromStdString(
                    context.mesh->dimNames[static_cast<size_t>(grouping.dim)]))
                .arg(key);
        case RankGroupingKind::Node:
            return QStringLiteral("node %1").arg(key);
        case RankGroupingKind::Selection:
            return key == 0 ? QStringLiteral("selected") : QStringLiteral("not selected");
        case RankGroupingKind::Blocks:
            return QStringLiteral("ranks %1–%2")
                .arg(ranks[static_cast<size_t>(members.front())])
                .arg(ranks[static_cast<size_t>(members.back())]);
        case RankGroupingKind::None:
            break;
    }
    return {};
}

}  // namespace

bool canGroup(const RankGrouping& grouping, const RankGroupingContext& context) {
    switch (grouping.kind) {
        case RankGroupingKind::MeshDim:
            return context.mesh && grouping.dim >= 0 && grouping.dim < context.mesh->ndim();
        case RankGroupingKind::Node:
            return context.nodes && !context.nodes->empty();
        case RankGroupingKind::Selection:
        case RankGroupingKind::Blocks:
            return true;
        case RankGroupingKind::None:
            break;
    }
    return false;
}

std::vector<RankGroup> groupRanks(const std::vector<int>& ranks, const RankGrouping& grouping,
                                  const RankGroupingContext& context) {
    if (grouping.kind == RankGroupingKind::None || !canGroup(grouping, context)) return {};
    const std::set<int> selected(context.selectedRanks.begin(), context.selectedRanks.end());
    // Keys in ascending order (a dim's index, a node); the outside ones last.
    std::map<int, std::vector<int>> byKey;
    std::vector<int> outside;
    for (size_t i = 0; i < ranks.size(); ++i) {
        const int key = keyOf(ranks[i], static_cast<int>(i), grouping, context, selected);
        (key == kOutside ? outside : byKey[key]).push_back(static_cast<int>(i));
    }
    std::vector<RankGroup> groups;
    for (auto& [key, members] : byKey)
        groups.push_back({titleOf(key, ranks, members, grouping, context), std::move(members)});
    if (!outside.empty())
        groups.push_back({titleOf(kOutside, ranks, outside, grouping, context), outside});
    return groups;
}

RankGrouping defaultRankGrouping(int rankCount, const Mesh* mesh) {
    if (rankCount <= kGroupRanksAbove) return {};
    if (mesh && mesh->size() == rankCount) {
        int best = -1;
        for (int d = 0; d < mesh->ndim(); ++d) {
            if (mesh->dimSize(d) < 2) continue;
            const auto distance = std::abs(mesh->dimSize(d) - 16);
            if (best < 0 || distance < std::abs(mesh->dimSize(best) - 16)) best = d;
        }
        if (best >= 0) return {RankGroupingKind::MeshDim, best, 0};
    }
    const int block = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(rankCount))));
    return {RankGroupingKind::Blocks, 0, block};
}

QString rankRunsText(std::vector<int> ranks, int maxRuns) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    QStringList runs;
    size_t i = 0;
    while (i < ranks.size()) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (static_cast<int>(runs.size()) == maxRuns) {
            runs << QStringLiteral("… (%1 ranks)").arg(ranks.size());
            break;
        }
        runs << (i == j ? QString::number(ranks[i])
                        : QStringLiteral("%1–%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return (ranks.size() == 1 ? QStringLiteral("rank ") : QStringLiteral("ranks ")) +
           runs.join(QStringLiteral(", "));
}

}  // namespace hsdp
