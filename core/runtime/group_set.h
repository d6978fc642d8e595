// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace hsdp {

// The process groups of one run. Each is a list of global ranks sorted
// ascending (the group rank is the position in it, as in a torch process
// group); the world comes first (unless `withWorld` is false and no group
// declared is the world), then the declared groups in the order first
// declared, duplicates dropped. Every rank creates
// its contexts in this one global order, so the blocking rendezvous of
// overlapping groups cannot wait on each other in a cycle.
// Throws std::invalid_argument for an empty group, a rank out of range or a
// rank listed twice.
std::vector<std::vector<int>> normalizeGroups(const std::vector<std::vector<int>>& declared,
                                              int worldSize, bool withWorld = true);

// Stable name of a group for store prefixes and sequence ids: "0,1,2,3".
std::string groupKey(const std::vector<int>& sortedRanks);

// Sockets a process running the ranks `local` accepts (empty: every rank)
// keeps open once connected (one per member and peer: with every rank here,
// both ends of each pair) plus the largest group's listening sockets during
// setup (this Gloo opens one per pair while it connects).
long estimateFileDescriptors(const std::vector<std::vector<int>>& groups,
                             const std::vector<int>& local = {});

}  // namespace hsdp
