// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "plan/plan.h"
#include "types/mesh.h"

namespace hsdp {

// One schedule entry as the runner, the schedule and the memory model walk
// it: its position, group, batch (and its index in the group) and mesh, and
// the coordinate of the rank (or case) being worked out.
struct EntryView {
    int index;
    const Group& group;
    const Batch& batch;
    int batchIndex;
    const Mesh& mesh;
    Coord coord;
};

}  // namespace hsdp
