// SPDX-License-Identifier: Apache-2.0
#include "tensor_layout/tensor_block_text.h"

#include <QObject>
#include <QStringList>

#include "plan/diagnostics.h"

namespace hsdp {

QString ranksText(const std::vector<int>& ranks, int shown, const QString& separator) {
    QStringList parts;
    for (size_t i = 0; i < ranks.size() && static_cast<int>(i) < shown; ++i)
        parts << QString::number(ranks[i]);
    if (ranks.size() <= static_cast<size_t>(shown))
        return QLatin1Char('r') + parts.join(separator + QLatin1Char('r'));
    return QStringLiteral("%1 ranks: %2%3…")
        .arg(ranks.size())
        .arg(parts.join(separator), separator);
}

QString groupCoordText(const TensorBlocks& blocks, const ShardGroup& group, const Mesh* mesh) {
    if (blocks.plainLocal) return QObject::tr("every rank (local)");
    if (blocks.shardMeshDims.empty() || !mesh) return QObject::tr("all ranks (replicated)");
    QStringList parts;
    for (int m : blocks.shardMeshDims)
        parts << QStringLiteral("%1=%2")
                     .arg(QString::fromStdString(mesh->dimNames[static_cast<size_t>(m)]))
                     .arg(group.coord[static_cast<size_t>(m)]);
    return parts.join(QStringLiteral(", "));
}

QString copiesText(const TensorBlocks& blocks, const ParamSpec& spec, const Mesh* mesh) {
    if (blocks.plainLocal) return QObject::tr("not a DTensor: every rank holds all of it");
    if (!mesh || blocks.groups.empty()) return {};
    QStringList replicated, partial;
    for (size_t m = 0; m < mesh->shape.size(); ++m) {
        if (mesh->shape[m] <= 1) continue;
        const Placement& p = (*spec.placements)[m];
        QString name = QString::fromStdString(mesh->dimNames[m]);
        if (p.isReplicate()) replicated << name;
        if (p.isPartial()) partial << name;
    }
    size_t copies = blocks.groups.front().ranks.size();
    if (copies <= 1) return QObject::tr("each piece on one rank");
    QStringList why;
    if (!replicated.isEmpty())
        why << QObject::tr("replicated over %1").arg(replicated.join(QStringLiteral(", ")));
    if (!partial.isEmpty())
        why << QObject::tr("partial sums over %1").arg(partial.join(QStringLiteral(", ")));
    return QObject::tr("each piece on %1 ranks: %2")
        .arg(copies)
        .arg(why.join(QStringLiteral("; ")));
}

QString hazardText(const std::string& code) {
    QString scope;  // as computeTensorBlocks marks them
    if (code == codes::UnevenShard) scope = QObject::tr("short and empty pieces");
    if (code == codes::NestedShardOrder || code == codes::StridedShardChunk)
        scope = QObject::tr("every piece");
    if (code == codes::ShardRankOrder)
        scope = QObject::tr("pieces on shard lines out of rank order");
    QString name = QString::fromStdString(code);
    return scope.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, scope);
}

QString rangesText(const IndexSet& set, int shown) {
    if (set.empty()) return QObject::tr("nothing");
    QStringList parts;
    for (size_t i = 0; i < set.size() && static_cast<int>(i) < shown; ++i)
        parts << QStringLiteral("%1:%2").arg(set[i].begin).arg(set[i].end);
    if (set.size() > static_cast<size_t>(shown))
        parts << QObject::tr("… %1 ranges").arg(set.size());
    return parts.join(QStringLiteral(", "));
}

QString blockRangeText(const TensorBlocks& blocks, const TensorBlock& block) {
    if (blocks.axes.rowDim < 0)
        return QLatin1Char('[') + rangesText({block.cols}) + QLatin1Char(']');
    return QStringLiteral("[%1, %2]").arg(rangesText({block.rows}), rangesText({block.cols}));
}

QString shapeListText(const std::vector<int64_t>& shape) {
    QStringList parts;
    for (int64_t d : shape) parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString dimText(int dim, const std::vector<int64_t>& shape) {
    if (dim < 0) return QStringLiteral("—");
    return QStringLiteral("dim %1 (%2)").arg(dim).arg(shape.at(static_cast<size_t>(dim)));
}

}  // namespace hsdp
