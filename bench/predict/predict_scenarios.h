// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace hsdp::bench {

// A scenario `hsdp-bench predict` runs: a sample file's path, or generated text.
struct PredictScenario {
    std::string label;
    std::string path;  // a file, or empty
    std::string json;  // the scenario itself when generated
};

// Every samples/*.json (sorted), then the generated 2-D HSDP scenarios: world
// sizes 2..16, pure sharding, pure replication and both, few and many params,
// small and large matrices, bf16 and f32.
std::vector<PredictScenario> predictScenarios(const std::string& samplesDir);

}  // namespace hsdp::bench
