// SPDX-License-Identifier: Apache-2.0
// Text of the plan tree's cells: placements in PyTorch's spelling, local
// shapes per rank, compact rank lists.
#include <QStringList>
#include <set>

#include "derived/plan/plan_tree_rows.h"
#include "types/geometry.h"

namespace hsdp {

namespace {

QString placementText(const Placement& p) {
    switch (p.kind) {
        case Placement::Kind::Replicate:
            return QStringLiteral("Replicate()");
        case Placement::Kind::Shard:
            return QStringLiteral("Shard(dim=%1)").arg(p.dim);
        case Placement::Kind::StridedShard:
            return QStringLiteral("_StridedShard(dim=%1, sf=%2)").arg(p.dim).arg(p.splitFactor);
        case Placement::Kind::Partial:
            return QStringLiteral("Partial(%1)")
                .arg(QString::fromStdString(std::string(reduceOpName(p.reduceOp))));
    }
    return {};
}

QString shapeText(const std::vector<int64_t>& shape) {
    QStringList parts;
    for (int64_t d : shape) parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// Coordinates over the mesh dims that shard the tensor (others at 0), at most
// `cap` of them: enough to see every distinct local shape of a real layout.
std::vector<Coord> shardCoordinates(const ParamSpec& spec, const Mesh& mesh, size_t cap) {
    std::vector<int64_t> sizes(mesh.shape.size(), 1);
    for (size_t d = 0; d < mesh.shape.size() && d < spec.placements->size(); ++d)
        if ((*spec.placements)[d].isShard()) sizes[d] = mesh.shape[d];
    std::vector<Coord> coords = allCoordinates(sizes);
    if (coords.size() > cap) {
        Coord last = coords.back();
        coords.resize(cap - 1);
        coords.push_back(last);  // the last coordinate holds the remainder of uneven chunks
    }
    return coords;
}

}  // namespace

QString pytorchPlacements(const std::vector<Placement>& placements) {
    QStringList parts;
    for (const Placement& p : placements) parts << placementText(p);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString localShapeText(const ParamSpec& spec, const Mesh& mesh) {
    if (!spec.placements || spec.placements->size() != mesh.shape.size())
        return shapeText(spec.shape);
    std::vector<std::vector<int64_t>> shapes;
    std::set<std::vector<int64_t>> seen;
    for (const Coord& coord : shardCoordinates(spec, mesh, 64)) {
        auto local = shardLayout(spec.shape, *spec.placements, mesh.shape, coord).localShape();
        if (seen.insert(local).second) shapes.push_back(local);
    }
    if (shapes.size() <= 1) return shapes.empty() ? shapeText(spec.shape) : shapeText(shapes[0]);
    return QStringLiteral("%1 … %2 (%3 shapes)")
        .arg(shapeText(shapes.front()), shapeText(shapes.back()))
        .arg(shapes.size());
}

}  // namespace hsdp
