// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "hf_config/model_config.h"
#include "hf_config/parallel_layout.h"
#include "scenario/json_text.h"
#include "types/dtype.h"

namespace hsdp {

// What `hsdp-inspect scenario --from-config` asks for.
struct ConfigScenarioRequest {
    ModelConfig config;
    std::string configSource;  // the config's file name, for the description
    ParallelLayout layout;
    DType dtype = DType::BF16;
    bool tpTransitions = false;  // --tp-plan torchtitan
    // --all-muon: every param on Muon; else embeddings, the output head, norms
    // and 1-D params get "optimizer": "adamw" (adamwByDefault).
    bool allMuon = false;
    std::string name;  // empty: derived from the architecture and layout
};

// The hsdp-scenario/1 document of the model under the layout (see
// docs/model-config.md): its parameters as FSDP2 + torchtitan's TP plan lay
// them out, one mesh (or a dense and an expert mesh when ep > 1), and the TP
// transitions of one block when asked. The layout must have passed checkLayout.
Json scenarioFromModelConfig(const ConfigScenarioRequest& request);

}  // namespace hsdp
