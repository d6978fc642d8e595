// SPDX-License-Identifier: Apache-2.0
// Per HSDP group: its layout, batches, owners, loads and imbalance.
#include <algorithm>
#include <optional>

#include "derived/plan/plan_index.h"
#include "owner_balance/balance_data.h"
#include "plan/load_imbalance.h"
#include "report/report_builder.h"
#include "report/report_sections.h"

namespace hsdp::report {

namespace {

QString dimsText(const Group& g, const std::vector<int>& dims, const Scenario& scenario) {
    const Mesh* mesh = scenario.findMesh(g.mesh);
    QStringList parts;
    for (int d : dims) {
        QString name = mesh && size_t(d) < mesh->dimNames.size()
                           ? QString::fromStdString(mesh->dimNames[size_t(d)])
                           : QStringLiteral("dim");
        parts << QStringLiteral("%1 %2 (size %3)").arg(name).arg(d).arg(g.meshShape[size_t(d)]);
    }
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
}

QString layoutText(const GroupLayout& layout) {
    QStringList axes;
    for (const auto& [meshDim, tensorDim] : layout.shardAxes)
        axes << QStringLiteral("mesh dim %1 → tensor dim %2").arg(meshDim).arg(tensorDim);
    return QStringLiteral("%1-D tensors; shards: %2%3")
        .arg(layout.tensorNdim)
        .arg(axes.isEmpty() ? QStringLiteral("none") : axes.join(QStringLiteral(", ")))
        .arg(layout.isLast2dSharded ? QStringLiteral("; last two dims sharded") : QString());
}

QString groupTitle(const Group& g, int position) {
    QStringList shape;
    for (int64_t e : g.meshShape) shape << QString::number(e);
    return QStringLiteral("Group %1 (id %2): mesh %3 [%4], %5 params")
        .arg(position)
        .arg(g.id)
        .arg(QString::fromStdString(g.mesh), shape.join(QStringLiteral("×")))
        .arg(g.params.size());
}

ReportTable batchTable(const Group& g) {
    ReportTable table;
    table.header = {QStringLiteral("Batch"),       QStringLiteral("Params"),
                    QStringLiteral("Numel"),       QStringLiteral("Gathered"),
                    QStringLiteral("Coordinates"), QStringLiteral("Max load"),
                    QStringLiteral("Min load"),    QStringLiteral("Imbalance (max/mean)")};
    std::vector<std::pair<double, QStringList>> rows;
    for (size_t b = 0; b < g.batches.size(); ++b) {
        const Batch& batch = g.batches[b];
        const int64_t most = batch.loads.max(), least = batch.loads.min();
        const std::optional<double> imbalance = loadImbalance(batch.loads);
        rows.push_back(
            {imbalance.value_or(0),
             {QString::number(b), number(qint64(batch.params.size())), number(batch.numel),
              batch.isShard ? QStringLiteral("yes") : QStringLiteral("no"),
              number(qint64(batch.loads.size())), number(most), number(least),
              imbalance ? ratio(*imbalance) : QStringLiteral("-")}});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [key, row] : rows) table.rows.push_back(std::move(row));
    return table;
}

// Owners, the largest params first (they decide the balance).
ReportTable ownerTable(const Scenario& scenario, const PlanIndex& index, const Group& g) {
    ReportTable table;
    table.header = {QStringLiteral("Parameter"), QStringLiteral("Numel"), QStringLiteral("Batch"),
                    QStringLiteral("Owner (replicate coordinate)"), QStringLiteral("Owner ranks")};
    std::vector<int> params = g.params;
    std::stable_sort(params.begin(), params.end(), [&](int a, int b) {
        return scenario.params[size_t(a)].numel() > scenario.params[size_t(b)].numel();
    });
    for (int p : params) {
        const ParamPlace& place = index.params[size_t(p)];
        table.rows.push_back(
            {paramLabel(scenario, p), number(scenario.params[size_t(p)].numel()),
             QString::number(place.batch),
             place.owner.empty() ? QStringLiteral("none") : coordText(place.owner),
             place.ownerRanks.empty() ? QStringLiteral("-") : listText(place.ownerRanks, 16)});
    }
    return table;
}

// Loads per replicate coordinate of every batch, the heaviest first.
ReportTable loadTable(const Plan& plan, const Group& g) {
    ReportTable table;
    table.header = {QStringLiteral("Batch"), QStringLiteral("Coordinate"), QStringLiteral("Numel"),
                    QStringLiteral("Share of the batch mean"), QStringLiteral("Ranks")};
    std::vector<std::pair<double, QStringList>> rows;
    // A coordinate's ranks depend on the group, not the batch: found once each
    // (a scan of the group's ranks; 4,000 batches would repeat it 4,000 times).
    std::map<Coord, QString> ranks;
    auto ranksOf = [&](const Coord& coord) {
        auto it = ranks.find(coord);
        if (it == ranks.end())
            it = ranks
                     .emplace(coord,
                              listText(ranksAtCoordinate(g, coord, plan.effectiveReplicaCount), 16))
                     .first;
        return it->second;
    };
    for (size_t b = 0; b < g.batches.size(); ++b) {
        const Batch& batch = g.batches[b];
        // The mean of the owners' loads, as max/mean is everywhere (a frozen
        // param of the batch has no owner and no load).
        double total = 0;
        for (size_t c = 0; c < batch.loads.size(); ++c) total += double(batch.loads[c]);
        const double mean = batch.loads.empty() ? 0 : total / double(batch.loads.size());
        for (size_t c = 0; c < batch.loads.size(); ++c) {
            const Coord coord = batch.loadCoord(c);
            const int64_t numel = batch.loads[c];
            const double share = mean > 0 ? double(numel) / mean : 0;
            rows.push_back({share,
                            {QString::number(b), coordText(coord), number(numel), ratio(share),
                             ranksOf(coord)}});
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [key, row] : rows) table.rows.push_back(std::move(row));
    return table;
}

QString shapeText(const std::vector<int64_t>& shape) {
    QStringList parts;
    for (int64_t e : shape) parts << QString::number(e);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// Every parameter: those a diagnostic names first, then the largest.
ReportTable paramTable(const Scenario& scenario, const PlanIndex& index) {
    ReportTable table;
    table.header = {
        QStringLiteral("Parameter"), QStringLiteral("Shape"),      QStringLiteral("Dtype"),
        QStringLiteral("Mesh"),      QStringLiteral("Placements"), QStringLiteral("Group"),
        QStringLiteral("Batch"),     QStringLiteral("Owner"),      QStringLiteral("Diagnostics")};
    std::vector<int> order(scenario.params.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const bool da = !index.params[size_t(a)].diagnostics.empty();
        const bool db = !index.params[size_t(b)].diagnostics.empty();
        if (da != db) return da;
        return scenario.params[size_t(a)].numel() > scenario.params[size_t(b)].numel();
    });
    for (int p : order) {
        const ParamSpec& spec = scenario.params[size_t(p)];
        const ParamPlace& place = index.params[size_t(p)];
        table.rows.push_back(
            {paramLabel(scenario, p), shapeText(spec.shape),
             QString::fromLatin1(dtypeName(spec.dtype).data()), QString::fromStdString(spec.mesh),
             spec.placements ? QString::fromStdString(placementsToString(*spec.placements))
                             : QStringLiteral("plain tensor"),
             place.group < 0 ? QStringLiteral("-") : QString::number(place.group),
             place.batch < 0 ? QStringLiteral("-") : QString::number(place.batch),
             place.owner.empty() ? QStringLiteral("-") : coordText(place.owner),
             QString::number(place.diagnostics.size())});
    }
    return table;
}

}  // namespace

void addParamSection(const ReportInput& input, SectionList& list) {
    ReportSection& section = list.add(QStringLiteral("parameters"), QStringLiteral("Parameters"));
    section.paragraph(QStringLiteral(
        "Where each parameter sits: its group (position), batch and owner; those a diagnostic "
        "names first, then the largest."));
    section.table(list.limited(paramTable(*input.plan.scenario, *input.plan.index),
                               QStringLiteral("appendix-parameters"),
                               QStringLiteral("Every parameter"), kReportBodyRows));
}

void addGroupSections(const ReportInput& input, SectionList& list) {
    const Scenario& scenario = *input.plan.scenario;
    const Plan& plan = *input.plan.plan;
    const PlanIndex& index = *input.plan.index;
    ReportSection& top = list.add(QStringLiteral("groups"), QStringLiteral("HSDP groups"));
    if (plan.groups.empty()) {
        top.paragraph(QStringLiteral("The plan has no HSDP group."));
        return;
    }
    top.paragraph(QStringLiteral(
        "Parameters with the same mesh and layout share a group; a group's params are batched, "
        "each batch gathered or updated together; an owner (a replicate coordinate) runs the "
        "optimizer for a param. Load: numel a coordinate owns in a batch; imbalance: the "
        "heaviest coordinate over the mean."));
    for (size_t i = 0; i < plan.groups.size(); ++i) {
        const Group& g = plan.groups[i];
        const QString anchor = QStringLiteral("group-%1").arg(i);
        ReportSection& section = list.add(anchor, groupTitle(g, int(i)), 2);
        section.factList(
            {{QStringLiteral("Mesh ranks"), listText(g.meshRanks, 32)},
             {QStringLiteral("Replicate mesh dims"), dimsText(g, g.replicateMeshDims, scenario)},
             {QStringLiteral("Shard mesh dims"), dimsText(g, g.shardMeshDims, scenario)},
             {QStringLiteral("Layout"), layoutText(g.layout)},
             {QStringLiteral("Batches"), number(qint64(g.batches.size()))}});
        section.paragraph(QStringLiteral("Batches, the worst imbalance first:"));
        section.table(list.limited(batchTable(g), anchor + QStringLiteral("-batches"),
                                   QStringLiteral("Batches of group %1").arg(i), kReportBodyRows));
        section.paragraph(QStringLiteral("Owners, the largest parameters first:"));
        section.table(list.limited(ownerTable(scenario, index, g),
                                   anchor + QStringLiteral("-owners"),
                                   QStringLiteral("Owners of group %1").arg(i), kReportBodyRows));
        section.paragraph(QStringLiteral("Loads per replicate coordinate, the heaviest first:"));
        section.table(list.limited(loadTable(plan, g), anchor + QStringLiteral("-loads"),
                                   QStringLiteral("Loads of group %1").arg(i), kReportBodyRows));
    }
}

}  // namespace hsdp::report
