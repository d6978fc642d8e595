// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace hsdp::testing {

// A 2x2 HSDP scenario with one Muon param between two AdamW ones (a sharded
// embedding and a replicated norm): what the AdamW views are tested on.
inline constexpr const char* kMixedOptimizerScenario = R"json({"format": "hsdp-scenario/1",
  "name": "mixed", "mesh": {"shape": [2, 2], "dim_names": ["dp_replicate", "dp_shard"]},
  "params": [
    {"name": "embed", "shape": [16, 8], "dtype": "bf16", "placements": ["R", "S(0)"],
     "optimizer": "adamw"},
    {"name": "w", "shape": [8, 8], "dtype": "bf16", "placements": ["R", "S(0)"]},
    {"name": "norm", "shape": [8], "dtype": "bf16", "placements": ["R", "R"],
     "optimizer": "adamw"}]})json";

}  // namespace hsdp::testing
