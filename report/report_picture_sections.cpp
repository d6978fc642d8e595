// SPDX-License-Identifier: Apache-2.0
// Which pictures a report shows: the meshes with each rank's Newton–Schulz
// work, the owner balance where the owner-imbalance rule judges it worst,
// the buffer layout of the largest gathered batch (from the run), the tensor
// layout of each parameter with a hazard.
#include <algorithm>

#include "derived/plan/plan_index.h"
#include "owner_balance/balance_data.h"
#include "plan/load_imbalance.h"
#include "report/report_builder.h"
#include "report/report_sections.h"
#include "tensor_layout/tensor_blocks.h"

namespace hsdp::report {

namespace {

constexpr int kMaxMeshes = 6;
constexpr int kMaxTensorLayouts = 12;

// `view`: the id of the studio view that draws it.
ReportPicture picture(const char* view, const QString& part, const QString& caption, QSize size,
                      BatchRef batch = {}) {
    ReportPicture p;
    p.view = QLatin1String(view);
    p.part = part;
    p.caption = caption;
    p.size = size;
    p.group = batch.group;
    p.batch = batch.batch;
    return p;
}

BatchRef largestGatheredBatch(const Plan& plan) {
    BatchRef best;
    int64_t most = -1;
    for (size_t g = 0; g < plan.groups.size(); ++g)
        for (size_t b = 0; b < plan.groups[g].batches.size(); ++b) {
            const Batch& batch = plan.groups[g].batches[b];
            if (batch.isShard && batch.numel > most) {
                most = batch.numel;
                best = {int(g), int(b)};
            }
        }
    return best;
}

void addMeshes(const Scenario& scenario, ReportSection& section) {
    for (size_t m = 0; m < scenario.meshes.size() && m < size_t(kMaxMeshes); ++m)
        section.picture(
            picture("mesh", QString::number(m),
                    QStringLiteral("Mesh “%1”: each rank coloured by the Newton–Schulz numel it "
                                   "computes (all batches).")
                        .arg(QString::fromStdString(scenario.meshes[m].name)),
                    QSize(1100, 640)));
    if (scenario.meshes.size() > size_t(kMaxMeshes))
        section.paragraph(QStringLiteral("%1 more meshes are not drawn.")
                              .arg(scenario.meshes.size() - size_t(kMaxMeshes)));
}

// The owner balance where the owner-imbalance rule judges the plan worst
// (worstOwnerImbalance: the summary's and the studio status bar's figure): a
// batch, or a group over its batches summed per coordinate; with nothing
// judged, the first batch, and the caption says so.
void addBalance(const Plan& plan, ReportSection& section) {
    const std::optional<OwnerImbalance> worst = worstOwnerImbalance(plan.groups);
    const bool overGroup = worst && worst->overGroup();
    // Drawn for the group's (or the batch's) selection; a group alone shows its batches.
    const BatchRef place = worst ? BatchRef{worst->group, worst->batch} : worstBatch(plan);
    if (place.group < 0) return;
    const Group& group = plan.groups[size_t(place.group)];
    QString what, judged;
    if (worst)
        judged = QStringLiteral(
                     ": the worst owner imbalance the owner-imbalance rule judges "
                     "(max/mean %1)")
                     .arg(worst->ratio, 0, 'f', 2);
    if (overGroup)
        what = QStringLiteral("group %1 over its %2 batches, summed per replicate coordinate")
                   .arg(group.id)
                   .arg(group.batches.size());
    else
        what = QStringLiteral("group %1, batch %2, per replicate coordinate")
                   .arg(group.id)
                   .arg(place.batch);
    QString caption = QStringLiteral("Owner loads of %1, against the mean and the lower bound%2.")
                          .arg(what, judged);
    if (!worst)
        caption = QStringLiteral(
                      "No batch or group is judged by the owner-imbalance rule (none has "
                      "as many owned parameters as owner coordinates); owner loads of "
                      "the first batch, %1, against the mean and the lower bound.")
                      .arg(what);
    // One place is drawn: the others are not left to be guessed.
    if (plan.groups.size() > 1)
        caption += QStringLiteral(
                       " The other %1 group(s) are not drawn: their loads are in the "
                       "groups' tables.")
                       .arg(plan.groups.size() - 1);
    const QString prefix = overGroup ? QStringLiteral("group-") : QString();
    section.picture(picture("ownerBalance", prefix + QStringLiteral("coord"), caption,
                            QSize(1000, 420), place));
    section.picture(picture("ownerBalance", QStringLiteral("rank"),
                            QStringLiteral("Per rank over every batch: the numel it holds (its own "
                                           "shards), gathers and runs Newton–Schulz on."),
                            QSize(1000, 420), place));
    const bool gathered = overGroup ? std::any_of(group.batches.begin(), group.batches.end(),
                                                  [](const Batch& b) { return b.isShard; })
                                    : group.batches[size_t(place.batch)].isShard;
    if (gathered)
        section.picture(picture(
            "ownerBalance", prefix + QStringLiteral("shard"),
            overGroup ? QStringLiteral("Newton–Schulz numel per shard coordinate, group %1's "
                                       "gathered batches summed.")
                            .arg(group.id)
                      : QStringLiteral("Newton–Schulz numel per shard coordinate (group %1, "
                                       "batch %2).")
                            .arg(group.id)
                            .arg(place.batch),
            QSize(1000, 420), place));
}

void addBufferLayout(const ReportInput& input, ReportSection& section) {
    const BatchRef largest = largestGatheredBatch(*input.plan.plan);
    if (!largest.isValid()) {
        section.paragraph(
            QStringLiteral("No batch is gathered, so there is no fused buffer to draw."));
        return;
    }
    const QString where =
        QStringLiteral("group %1, batch %2").arg(largest.group).arg(largest.batch);
    if (!input.run.isValid()) {
        section.paragraph(
            QStringLiteral("The buffer layout of the largest gathered batch (%1) is drawn from a "
                           "run's trace: make the report with --run to see it.")
                .arg(where));
        return;
    }
    ReportPicture buffers =
        picture("bufferLayout", {},
                QStringLiteral("Fused buffer of the largest gathered batch (%1), as "
                               "the run's first gather of it recorded it.")
                    .arg(where),
                QSize(1300, 820), largest);
    buffers.drawsRun = true;
    section.picture(std::move(buffers));
}

// Params with the same shape, placements, mesh and hazards look the same:
// one picture each, naming every param it stands for.
QString layoutSignature(const ParamSpec& spec, const std::vector<std::string>& codes) {
    QStringList parts;
    for (int64_t e : spec.shape) parts << QString::number(e);
    for (const auto& c : codes) parts << QString::fromStdString(c);
    parts << QString::fromStdString(spec.mesh)
          << QString::fromStdString(spec.placements ? placementsToString(*spec.placements) : "");
    return parts.join(QLatin1Char('|'));
}

void addTensorLayouts(const ReportInput& input, ReportSection& section) {
    const Scenario& scenario = *input.plan.scenario;
    std::vector<QString> signatures;
    std::vector<std::vector<int>> alike;  // per signature, its params
    std::vector<QString> codeText;
    for (size_t p = 0; p < scenario.params.size(); ++p) {
        const auto codes = layoutHazardCodes(*input.plan.plan, *input.plan.index, int(p));
        if (codes.empty()) continue;
        const QString signature = layoutSignature(scenario.params[p], codes);
        auto it = std::find(signatures.begin(), signatures.end(), signature);
        if (it != signatures.end()) {
            alike[size_t(it - signatures.begin())].push_back(int(p));
            continue;
        }
        QStringList names;
        for (const auto& c : codes) names << QString::fromStdString(c);
        signatures.push_back(signature);
        alike.push_back({int(p)});
        codeText.push_back(names.join(QStringLiteral(", ")));
    }
    if (alike.empty()) {
        section.paragraph(QStringLiteral("No parameter has a layout hazard."));
        return;
    }
    section.paragraph(QStringLiteral(
        "One picture per distinct layout (shape, placements, hazards); the caption names every "
        "parameter that shares it. Marked pieces land in the wrong place of the reference's "
        "gather."));
    for (size_t i = 0; i < alike.size() && i < size_t(kMaxTensorLayouts); ++i) {
        const int p = alike[i].front();
        QString caption = QStringLiteral(
                              "Tensor layout of %1 (%2): blocks of global indices and "
                              "the ranks holding them.")
                              .arg(paramLabel(scenario, p), codeText[i]);
        if (alike[i].size() > 1) {
            QStringList others;
            for (size_t k = 1; k < alike[i].size() && k <= 40; ++k)
                others << QStringLiteral("#%1").arg(alike[i][k]);
            if (alike[i].size() > 41)
                others << QStringLiteral("… %1 more").arg(alike[i].size() - 41);
            caption += QStringLiteral(" The same layout: %1 more parameters, %2.")
                           .arg(alike[i].size() - 1)
                           .arg(others.join(QStringLiteral(", ")));
        }
        ReportPicture layout = picture("tensorLayout", {}, caption, QSize(1100, 640));
        layout.param = p;
        section.picture(std::move(layout));
    }
    if (alike.size() > size_t(kMaxTensorLayouts)) {
        std::vector<int> rest;
        for (size_t i = kMaxTensorLayouts; i < alike.size(); ++i)
            rest.insert(rest.end(), alike[i].begin(), alike[i].end());
        section.paragraph(QStringLiteral("%1 more parameters with other layouts and a hazard are "
                                         "not drawn: %2.")
                              .arg(rest.size())
                              .arg(listText(rest, 40)));
    }
}

}  // namespace

void addPictureSections(const ReportInput& input, SectionList& list) {
    const Scenario& scenario = *input.plan.scenario;
    list.add(QStringLiteral("pictures"), QStringLiteral("Pictures"))
        .paragraph(QStringLiteral("The studio's views of this plan, drawn for the report."));
    addMeshes(scenario,
              list.add(QStringLiteral("pictures-mesh"), QStringLiteral("Mesh and owners"), 2));
    addBalance(*input.plan.plan,
               list.add(QStringLiteral("pictures-balance"), QStringLiteral("Owner balance"), 2));
    addBufferLayout(input,
                    list.add(QStringLiteral("pictures-buffer"),
                             QStringLiteral("Buffer layout of the largest gathered batch"), 2));
    addTensorLayouts(input,
                     list.add(QStringLiteral("pictures-tensors"),
                              QStringLiteral("Tensor layouts of parameters with a hazard"), 2));
}

}  // namespace hsdp::report
