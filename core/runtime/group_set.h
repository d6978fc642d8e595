#pragma once

#include <string>
#include <vector>

namespace hsdp {

// The process groups of one run. Each is a list of global ranks sorted
// ascending (the group rank is the position in it, as in a torch process
// group); the world comes first, then the declared groups in the order first
// declared, duplicates and copies of the world dropped. Every rank creates
// its contexts in this one global order, so the blocking rendezvous of
// overlapping groups cannot wait on each other in a cycle.
// Throws std::invalid_argument for an empty group, a rank out of range or a
// rank listed twice.
std::vector<std::vector<int>> normalizeGroups(const std::vector<std::vector<int>>& declared,
                                              int worldSize);

// Stable name of a group for store prefixes and sequence ids: "0,1,2,3".
std::string groupKey(const std::vector<int>& sortedRanks);

// Sockets the run keeps open once connected (two per pair, both ends live in
// this process) plus the largest group's listening sockets during setup.
long estimateFileDescriptors(const std::vector<std::vector<int>>& groups);

}  // namespace hsdp
