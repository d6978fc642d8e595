// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "types/dtype.h"
#include "types/gather_strategy.h"
#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp {

// `options.newton_schulz` (docs/scenario-format.md): the Newton–Schulz the
// runner and the single-device truth both run. The defaults are the five
// quintic steps in fp32 the engine has always run.
struct NewtonSchulzOptions {
    int steps = 5;
    // One [a, b, c] per step (X <- a·X + (b·A + c·A·A)·X, A = X·Xᵀ).
    std::vector<std::array<float, 3>> coefficients = defaultCoefficients();
    // F32: every product and sum in fp32. BF16: X and every product rounded
    // to bf16 from an fp32 accumulation, as tensor cores do.
    DType dtype = DType::F32;

    static std::vector<std::array<float, 3>> defaultCoefficients();
    bool isDefault() const;
    bool operator==(const NewtonSchulzOptions&) const = default;
};

struct PlanOptions {
    int64_t alignmentBytes = 512;
    std::optional<int64_t> maxBatchNumel;
    std::optional<int64_t> hsdpReplicaCount;
    bool autoReplicaCount = false;
    int64_t devicesPerNode = 8;
    std::string backend = "gloo";  // gloo | nccl | hccl
    int64_t broadcastMaxBytes = 536870912;
    double lr = 0.02;
    GatherStrategyOption gatherStrategy = GatherStrategyOption::AllGather;
    NewtonSchulzOptions newtonSchulz;
};

// The optimizer a param's step uses (params[].optimizer): Muon (grouped,
// owned, gathered, Newton–Schulz) or AdamW (an elementwise update where the
// param lives: no communication, two moments beside it).
enum class ParamOptimizer { Muon, AdamW };
std::string_view paramOptimizerName(ParamOptimizer optimizer);  // "muon" | "adamw"

struct ParamSpec {
    int index = 0;  // position in the expanded list
    std::string name;
    std::vector<int64_t> shape;
    DType dtype = DType::F32;
    std::string mesh;                                  // mesh name
    std::optional<std::vector<Placement>> placements;  // nullopt: a plain local tensor
    bool requiresGrad = true;
    ParamOptimizer optimizer = ParamOptimizer::Muon;

    int64_t numel() const;
    bool isAdamW() const { return optimizer == ParamOptimizer::AdamW; }
    int ndim() const { return static_cast<int>(shape.size()); }
    bool isDTensor() const { return placements.has_value(); }
};

struct TpTransition {
    int index = 0;
    std::string name;
    std::string mesh;
    std::vector<int64_t> shape;
    DType dtype = DType::F32;
    std::vector<Placement> src;
    std::vector<Placement> dst;

    int64_t numel() const;
};

// A whole scenario file, repeat blocks expanded. Meshes keep file order.
struct Scenario {
    std::string name;
    std::string description;
    std::vector<Mesh> meshes;
    int worldSize = 0;
    PlanOptions options;
    std::vector<ParamSpec> params;
    std::vector<TpTransition> tpTransitions;

    const Mesh& mesh(const std::string& meshName) const;  // throws std::out_of_range
    const Mesh* findMesh(const std::string& meshName) const;
};

int64_t shapeNumel(const std::vector<int64_t>& shape);
// Whether any param of `scenario` runs AdamW (the plan then names every param's optimizer).
bool hasAdamWParams(const Scenario& scenario);

}  // namespace hsdp
