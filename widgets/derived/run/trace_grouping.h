// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <vector>

namespace hsdp {

class Mesh;
struct NodeMap;

// How the trace and the step panel group the rows of a big run's ranks.
enum class RankGroupingKind {
    None,       // one row per rank (small runs)
    MeshDim,    // the ranks sharing one index along a mesh dim
    Node,       // the ranks on one node of the chosen cluster
    Selection,  // the selected ranks, and the others
    Blocks,     // runs of consecutive ranks (no mesh of the world's size)
};

struct RankGrouping {
    RankGroupingKind kind = RankGroupingKind::None;
    int dim = 0;        // MeshDim: which dim
    int blockSize = 0;  // Blocks: ranks per group

    bool operator==(const RankGrouping&) const = default;
};

// What a grouping may draw on; null / empty when the run has none.
struct RankGroupingContext {
    const Mesh* mesh = nullptr;      // a mesh of the world's size
    const NodeMap* nodes = nullptr;  // the chosen cluster's nodes
    std::vector<int> selectedRanks;  // the shared selection's ranks
};

// One group: its title ("dp_shard=3", "node 5") and its members, positions
// into the grouped rank list, ascending.
struct RankGroup {
    QString title;
    std::vector<int> members;
};

// More ranks than this are grouped by default: beyond it, one row per rank
// is thinner than a label (a 1,000-row trace has sub-pixel rows).
inline constexpr int kGroupRanksAbove = 64;

// The groups of `ranks` under `grouping`, in order of their first member;
// every position in exactly one group. None (or a grouping the context
// cannot serve: no mesh, no nodes) gives no groups.
std::vector<RankGroup> groupRanks(const std::vector<int>& ranks, const RankGrouping& grouping,
                                  const RankGroupingContext& context);

// What a run of `rankCount` ranks opens with: None up to kGroupRanksAbove,
// else the mesh dim whose index splits the ranks into about 16 groups (the
// outer dim on a tie), else blocks of about sqrt(n) ranks.
RankGrouping defaultRankGrouping(int rankCount, const Mesh* mesh);

// Whether `context` can serve `grouping` (a Node grouping needs a node map).
bool canGroup(const RankGrouping& grouping, const RankGroupingContext& context);

// "ranks 0–15, 256–271, 512" (runs of consecutive ranks; after `maxRuns`
// runs, "… (1,024 ranks)"). `ranks` need not be sorted.
QString rankRunsText(std::vector<int> ranks, int maxRuns = 8);

}  // namespace hsdp
