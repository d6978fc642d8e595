// SPDX-License-Identifier: Apache-2.0
#include "plan/detail/split_factors.h"

#include <optional>
#include <string>
#include <vector>

namespace hsdp {

namespace {

std::string dimLabel(const Mesh& mesh, size_t m) {
    std::string out = "mesh dim " + std::to_string(m);
    if (m < mesh.dimNames.size()) out += " '" + mesh.dimNames[m] + "'";
    return out;
}

std::optional<int> tensorDim(const Placement& p, int ndim) {
    int d = p.dim < 0 ? p.dim + ndim : p.dim;
    if (d < 0 || d >= ndim) return std::nullopt;  // invalid-shard-dim's business
    return d;
}

// The factor the strided shard at mesh dim `m` stands for, and the words
// that say where it comes from.
struct Expected {
    int64_t factor = 1;
    std::string from;
};

Expected expectedFactor(const std::vector<Placement>& placements, const Mesh& mesh, size_t m, int d,
                        int ndim) {
    Expected out;
    for (size_t later = m + 1; later < placements.size() && later < mesh.shape.size(); ++later) {
        const Placement& p = placements[later];
        if (!p.isShard() || tensorDim(p, ndim) != d) continue;
        out.factor *= mesh.shape[later];
        out.from += (out.from.empty() ? "" : " × ") + dimLabel(mesh, later) + " (size " +
                    std::to_string(mesh.shape[later]) + ")";
    }
    return out;
}

std::string mismatchText(const Placement& p, const Mesh& mesh, size_t m, int d,
                         const Expected& expected) {
    const std::string dim = std::to_string(d);
    return p.toString() + " on " + dimLabel(mesh, m) + ": split factor " +
           std::to_string(p.splitFactor) + ", but " +
           (expected.from.empty()
                ? "no later mesh dim shards tensor dim " + dim + " (expected 1: S(" + dim + "))"
                : expected.from + " shards tensor dim " + dim + " after it (expected " +
                      std::to_string(expected.factor) + ")");
}

// One detail per strided shard of `placements` whose factor disagrees.
std::vector<std::string> mismatches(const std::vector<Placement>& placements, const Mesh& mesh,
                                    int ndim) {
    std::vector<std::string> out;
    for (size_t m = 0; m < placements.size() && m < mesh.shape.size(); ++m) {
        const Placement& p = placements[m];
        auto d = tensorDim(p, ndim);
        if (p.kind != Placement::Kind::StridedShard || !d) continue;
        Expected expected = expectedFactor(placements, mesh, m, *d, ndim);
        if (expected.factor != p.splitFactor) out.push_back(mismatchText(p, mesh, m, *d, expected));
    }
    return out;
}

constexpr const char* kHeadline =
    "_StridedShard split factor disagrees with the mesh: it must be the product of the sizes "
    "of the later mesh dims sharding the same tensor dim (the TP degree, for FSDP over TP)";

void reportParams(const Scenario& scenario, DiagnosticSink& sink) {
    for (const ParamSpec& param : scenario.params) {
        const Mesh* mesh = param.placements ? scenario.findMesh(param.mesh) : nullptr;
        if (!mesh) continue;
        for (const std::string& why : mismatches(*param.placements, *mesh, param.ndim()))
            sink.report(Severity::Warning, codes::SplitFactorMismatch, kHeadline,
                        "#" + std::to_string(param.index) + " '" + param.name + "' " +
                            placementsToString(*param.placements) + ": " + why,
                        {param.index});
    }
}

void reportTransitions(const Scenario& scenario, DiagnosticSink& sink) {
    for (const TpTransition& t : scenario.tpTransitions) {
        const Mesh* mesh = scenario.findMesh(t.mesh);
        if (!mesh) continue;
        const int ndim = static_cast<int>(t.shape.size());
        for (const auto* side : {&t.src, &t.dst})
            for (const std::string& why : mismatches(*side, *mesh, ndim))
                sink.report(Severity::Warning, codes::SplitFactorMismatch, kHeadline,
                            "transition #" + std::to_string(t.index) + " '" + t.name + "' " +
                                (side == &t.src ? "src " : "dst ") + placementsToString(*side) +
                                ": " + why,
                            {}, {t.index});
    }
}

}  // namespace

void reportSplitFactors(const Scenario& scenario, DiagnosticSink& sink) {
    reportParams(scenario, sink);
    reportTransitions(scenario, sink);
}

}  // namespace hsdp
