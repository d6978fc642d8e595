// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string_view>
#include <vector>

#include "plan/plan.h"
#include "types/mesh.h"
#include "types/scenario.h"

namespace hsdp {

// Who does what in one schedule entry (group, batch) of the optimizer step:
// the rules the runner follows and the cost model, the memory model and the
// studio's views read, each defined here once (docs/run.md §2).

// The rank's coordinate over the group's replicate dims, reduced by the
// batch's sizes: the replicate coordinate whose owner class the rank is in.
Coord reducedReplicateCoord(const Group& group, const Batch& batch, const Coord& coord);

// Where param p's Newton–Schulz runs for the ranks of replicate coordinate
// `replicateCoord` (reduced), along the group's shard dims: the batch's shard
// compute plan of that coordinate (the last one listed when several are),
// shard 0 without one or when it does not name p.
Coord computeShard(const Group& group, const Batch& batch, const Coord& replicateCoord, int p);

// Whether the ranks of the entry's mesh hold batch param p: all of them or
// none, as the planner groups params only over meshes equal to the group's
// (plan/grouping.cpp: same shape and ranks), so it is decided per param, not
// per rank. Throws std::logic_error (its text starting with `who`) when p's
// mesh is another.
bool heldOnEntry(const Scenario& scenario, const Mesh& mesh, int p, std::string_view who);

// The ranks of one replicate coordinate in an entry: the params they own
// (batch order) and where each one's update is computed (computeShard).
struct OwnerClass {
    std::vector<int> owned;
    std::vector<Coord> computeShards;  // per owned param, along the group's shard dims
};

// An entry's owner classes: every owned param the entry's ranks hold
// (heldOnEntry), by the replicate coordinate that owns it.
struct EntryOwners {
    std::vector<int> owned;               // all classes' params, batch order
    std::vector<Coord> owners;            // per param of `owned`: its replicate coordinate
    std::map<Coord, OwnerClass> classes;  // replicate coordinate -> its class

    // The class of the rank at `coord` on the entry's mesh, or null.
    const OwnerClass* classAt(const Group& group, const Batch& batch, const Coord& coord) const;
};
EntryOwners entryOwners(const Scenario& scenario, const Group& group, const Batch& batch,
                        const Mesh& mesh, std::string_view who);

}  // namespace hsdp
