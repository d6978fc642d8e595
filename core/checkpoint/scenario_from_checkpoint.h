// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "hf_config/parallel_layout.h"
#include "scenario/json_text.h"
#include "types/dtype.h"

namespace hsdp {

// What `hsdp-inspect scenario --from-checkpoint` asks for.
struct CheckpointScenarioRequest {
    // --mesh. Without saved sharding: the layout to place the tensors on
    // (required). With it: the mesh the job that wrote the checkpoint ran on
    // (its ranks must cover the writers); nullopt: inferred from the pieces.
    std::optional<ParallelLayout> layout;
    std::optional<DType> dtype;        // --dtype: every tensor's; nullopt: each its own
    bool tpTransitions = false;        // --tp-plan torchtitan
    bool ignoreSavedSharding = false;  // place a saved job's tensors on `layout` afresh
    // --all-muon: every param on Muon; else embeddings, the output head, norms
    // and 1-D params get "optimizer": "adamw" (hf_config/param_role.h).
    bool allMuon = false;
    std::string name;  // "" : derived from the model and the layout
};

struct CheckpointScenario {
    Json document;                   // the hsdp-scenario/1 document
    ParallelLayout layout;           // the mesh it uses (the saved one, when reconstructed)
    bool savedSharding = false;      // placements reconstructed from the saved pieces
    std::vector<std::string> notes;  // the checkpoint's and the builder's, for the user
};

// The scenario of a checkpoint (docs/checkpoint.md): every tensor with its
// name, full shape and dtype, repeated layers folded into repeat blocks, on
// the dense mesh of the layout. Placements: without saved sharding, FSDP2's
// (Shard(0) over dp_shard, Replicate() over dp_replicate) for any tensor and
// torchtitan's TP layout by name where tp > 1 (the --from-config rules);
// with it, those that reproduce the saved pieces on the saved mesh. A
// config.json beside the files is cross-checked. Throws CheckpointError
// (naming the file, or --mesh, and the tensors) or ModelConfigError (the
// config's field).
CheckpointScenario scenarioFromCheckpoint(const Checkpoint& checkpoint,
                                          const CheckpointScenarioRequest& request);

}  // namespace hsdp
