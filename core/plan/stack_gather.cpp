// SPDX-License-Identifier: Apache-2.0
#include "plan/stack_gather.h"

#include <string>

#include "plan/grouping.h"
#include "types/dtype.h"
#include "types/figures.h"

namespace hsdp {

namespace {

// The tensor dim a shard placement splits, negative dims counted from the end.
int shardDim(const Placement& p, int ndim) {
    return p.dim < 0 ? p.dim + ndim : p.dim;
}

// How many ways the stack dims (all but the last two) are split, and over
// which mesh dims; the mesh dims that split the matrix dims.
struct StackSplit {
    int64_t ways = 1;
    std::vector<int> stackMeshDims, matrixMeshDims;
};

StackSplit stackSplit(const ParamSpec& param, const std::vector<int64_t>& meshShape) {
    StackSplit split;
    const auto& placements = *param.placements;
    for (size_t m = 0; m < placements.size() && m < meshShape.size(); ++m) {
        if (!placements[m].isShard() || meshShape[m] <= 1) continue;
        if (shardDim(placements[m], param.ndim()) < param.ndim() - 2) {
            split.ways *= meshShape[m];
            split.stackMeshDims.push_back(int(m));
        } else {
            split.matrixMeshDims.push_back(int(m));
        }
    }
    return split;
}

// "mesh dim 1 (ep)", "mesh dims 1 (ep), 2 (efsdp)".
std::string meshDimsText(const std::vector<int>& dims, const Mesh* mesh) {
    std::string out = dims.size() > 1 ? "mesh dims " : "mesh dim ";
    for (size_t i = 0; i < dims.size(); ++i) {
        out += (i ? ", " : "") + std::to_string(dims[i]);
        if (mesh && size_t(dims[i]) < mesh->dimNames.size())
            out += " (" + mesh->dimNames[size_t(dims[i])] + ")";
    }
    return out;
}

}  // namespace

int64_t stackBytesGatheredForNothing(const ParamSpec& param,
                                     const std::vector<int64_t>& meshShape) {
    if (!param.placements || param.ndim() <= 2) return 0;
    const StackSplit split = stackSplit(param, meshShape);
    if (split.ways <= 1) return 0;
    const int64_t bytes = param.numel() * dtypeSize(param.dtype);
    return bytes - bytes / split.ways;  // every stack slice but the rank's own share
}

void reportStackGathers(const Scenario& scenario, const std::vector<Group>& groups,
                        DiagnosticSink& sink) {
    const std::vector<ParamSpec>& specs = scenario.params;
    std::vector<const Group*> groupOf(specs.size(), nullptr);
    for (const Group& g : groups)
        for (int p : g.params) groupOf[size_t(p)] = &g;
    for (size_t i = 0; i < specs.size(); ++i) {
        const Group* g = groupOf[i];
        if (!g || !isGathered(*g)) continue;
        const ParamSpec& param = specs[i];
        const int64_t waste = stackBytesGatheredForNothing(param, g->meshShape);
        if (waste <= 0) continue;
        const StackSplit split = stackSplit(param, g->meshShape);
        const Mesh* mesh = scenario.findMesh(g->mesh);
        sink.report(Severity::Warning, codes::StackDimGathered,
                    "a stack of matrices sharded along a stack dim is gathered whole; "
                    "Newton–Schulz needs only each matrix (the last two dims)",
                    "#" + std::to_string(param.index) + " '" + param.name + "' " +
                        placementsToString(*param.placements) + ": " +
                        meshDimsText(split.stackMeshDims, mesh) + " split the stack " +
                        std::to_string(split.ways) + " ways, so each rank assembling it receives " +
                        humanBytes(double(waste)) + " (" + exactBytes(waste) +
                        ") of other slices for nothing; the gather could stay within " +
                        meshDimsText(split.matrixMeshDims, mesh),
                    {param.index});
    }
}

}  // namespace hsdp
