// hsdp-bench plan, second half: a 4,000-parameter Llama-70B-like scenario on
// an 8,192-rank 3-D mesh (16 replicas x 8-way FSDP x 64-way TP), planned and
// written as JSON the way `hsdp-inspect plan --json` does.
#include "large_plan.h"

#include <chrono>

#include "export/plan_json.h"
#include "plan/planner.h"

namespace hsdp::bench {

namespace {

ParamSpec param(int index, std::vector<int64_t> shape, DType dtype, std::vector<Placement> p) {
    ParamSpec spec;
    spec.index = index;
    spec.name = "p" + std::to_string(index);
    spec.shape = std::move(shape);
    spec.dtype = dtype;
    spec.mesh = "main";
    spec.placements = std::move(p);
    return spec;
}

}  // namespace

Scenario largePlanScenario() {
    Scenario s;
    s.name = "4000 params on 8192 ranks";
    Mesh mesh;
    mesh.name = "main";
    mesh.shape = {16, 8, 64};
    mesh.dimNames = {"dp_replicate", "dp_shard", "tp"};
    for (int r = 0; r < 8192; ++r) mesh.ranks.push_back(r);
    mesh.buildIndex();
    s.meshes = {mesh};
    s.worldSize = 8192;
    s.options.maxBatchNumel = 300000000;
    const auto R = Placement::replicate();
    const auto colwise = std::vector{R, Placement::stridedShard(0, 64), Placement::shard(0)};
    const auto rowwise = std::vector{R, Placement::shard(0), Placement::shard(1)};
    for (int layer = 0; layer < 500; ++layer) {
        int i = layer * 8;
        s.params.push_back(param(i, {8192, 8192}, DType::BF16, colwise));
        s.params.push_back(param(i + 1, {8192, 8192}, DType::BF16, rowwise));
        s.params.push_back(param(i + 2, {28672, 8192}, DType::BF16, colwise));
        s.params.push_back(param(i + 3, {8192, 28672}, DType::BF16, rowwise));
        s.params.push_back(param(i + 4, {28672, 8192}, DType::BF16, colwise));
        s.params.push_back(param(i + 5, {8192}, DType::F32, {R, Placement::shard(0), R}));
        s.params.push_back(param(i + 6, {8192}, DType::F32, {R, R, R}));
        s.params.push_back(param(i + 7, {8, 1024, 8192}, DType::BF16, {R, Placement::shard(0), R}));
    }
    return s;
}

LargePlanTiming timeLargePlan(const Scenario& scenario) {
    auto t0 = std::chrono::steady_clock::now();
    Plan plan = makePlan(scenario);
    auto t1 = std::chrono::steady_clock::now();
    std::string json = planToJson(plan, scenario).dump(1);
    auto t2 = std::chrono::steady_clock::now();
    return {std::chrono::duration<double>(t1 - t0).count(),
            std::chrono::duration<double>(t2 - t1).count(), json.size()};
}

}  // namespace hsdp::bench
