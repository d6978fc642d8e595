// SPDX-License-Identifier: Apache-2.0
#pragma once
// Scenarios built in code for the planner tests (tst_grouping, tst_ownership, ...),
// so they do not depend on the scenario reader.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "types/placement.h"
#include "types/scenario.h"

namespace hsdp::testing {

// Placement shorthands for tests that build placement lists in code.
inline Placement S(int d) {
    return Placement::shard(d);
}
inline Placement SS(int d, int k) {
    return Placement::stridedShard(d, k);
}
inline Placement R() {
    return Placement::replicate();
}
inline Placement P(ReduceOp op = ReduceOp::Sum) {
    return Placement::partial(op);
}

// A mesh named "main" over ranks 0..n-1 in row-major order; dims without a
// given name are called d<i>.
inline Mesh meshOf(const std::vector<int64_t>& shape, std::vector<std::string> dimNames = {}) {
    for (int d = int(dimNames.size()); d < int(shape.size()); ++d)
        dimNames.push_back("d" + std::to_string(d));
    return Mesh("main", shape, std::move(dimNames));
}

inline std::vector<Placement> placements(const std::vector<std::string>& texts) {
    std::vector<Placement> out;
    for (const auto& t : texts) {
        auto p = parsePlacement(t);
        if (!p) throw std::invalid_argument("bad placement in test: " + t);
        out.push_back(*p);
    }
    return out;
}

class ScenarioBuilder {
public:
    ScenarioBuilder& mesh(std::vector<int64_t> shape, std::vector<std::string> dimNames = {},
                          std::vector<int> ranks = {}, std::string name = "main") {
        for (int d = static_cast<int>(dimNames.size()); d < static_cast<int>(shape.size()); ++d)
            dimNames.push_back("dim" + std::to_string(d));
        if (ranks.empty())
            s_.meshes.emplace_back(std::move(name), std::move(shape), std::move(dimNames));
        else
            s_.meshes.emplace_back(std::move(name), std::move(shape), std::move(dimNames),
                                   std::move(ranks));
        return *this;
    }

    // `place` empty optional: a plain tensor.
    ScenarioBuilder& param(const std::string& name, std::vector<int64_t> shape,
                           std::optional<std::vector<std::string>> place, bool requiresGrad = true,
                           std::string meshName = "main", DType dtype = DType::F32) {
        ParamSpec p;
        p.index = static_cast<int>(s_.params.size());
        p.name = name;
        p.shape = std::move(shape);
        p.dtype = dtype;
        p.mesh = std::move(meshName);
        if (place) p.placements = placements(*place);
        p.requiresGrad = requiresGrad;
        s_.params.push_back(std::move(p));
        return *this;
    }

    ScenarioBuilder& transition(const std::string& name, const std::vector<std::string>& src,
                                const std::vector<std::string>& dst,
                                std::string meshName = "main") {
        TpTransition t;
        t.index = static_cast<int>(s_.tpTransitions.size());
        t.name = name;
        t.mesh = std::move(meshName);
        t.shape = {4, 8};
        t.src = placements(src);
        t.dst = placements(dst);
        s_.tpTransitions.push_back(std::move(t));
        return *this;
    }

    PlanOptions& options() { return s_.options; }
    ScenarioBuilder& worldSize(int n) {
        s_.worldSize = n;
        return *this;
    }

    // World size defaults to 1 + the largest mesh rank, as in the reader.
    Scenario build() const {
        Scenario out = s_;
        out.name = out.name.empty() ? "test" : out.name;
        if (out.worldSize == 0)
            for (const auto& m : out.meshes)
                for (int r : m.ranks) out.worldSize = std::max(out.worldSize, r + 1);
        return out;
    }

private:
    Scenario s_;
};

// Splits "1,2,3" into ints ("" -> empty).
inline std::vector<int> ints(const std::string& text) {
    std::vector<int> out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string::npos) comma = text.size();
        out.push_back(std::stoi(text.substr(pos, comma - pos)));
        pos = comma + 1;
    }
    return out;
}

inline std::string joinInts(const std::vector<int>& values) {
    std::string out;
    for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
    return out;
}

}  // namespace hsdp::testing

namespace hsdp::testing {

// A model-sized scenario for timing: `layers` blocks of four 2-d weights
// [R, S(0)] / [R, S(1)] and one [R, R] norm, on a [replicate, shard] mesh.
inline Scenario largeScenario(int params, int64_t replicate, int64_t shard,
                              std::optional<int64_t> maxBatchNumel = std::nullopt) {
    ScenarioBuilder b;
    b.mesh({replicate, shard}, {"dp_replicate", "dp_shard"});
    for (int i = 0; i < params; ++i) {
        int64_t width = 256 * (1 + i % 7);
        std::string name = "layers." + std::to_string(i / 5) + ".p" + std::to_string(i % 5);
        switch (i % 5) {
            case 0:
                b.param(name, {width, 1024}, std::vector<std::string>{"R", "S(0)"});
                break;
            case 1:
                b.param(name, {1024, width}, std::vector<std::string>{"R", "S(1)"});
                break;
            case 2:
                b.param(name, {width, 512}, std::vector<std::string>{"R", "S(0)"});
                break;
            case 3:
                b.param(name, {4, width, 64}, std::vector<std::string>{"S(0)", "R"});
                break;
            default:
                b.param(name, {width}, std::vector<std::string>{"R", "R"});
                break;
        }
    }
    b.options().maxBatchNumel = maxBatchNumel;
    return b.build();
}

}  // namespace hsdp::testing
