// SPDX-License-Identifier: Apache-2.0
#include "report/report_builder.h"

#include <QLocale>
#include <algorithm>

#include "derived/plan/plan_index.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/run_status_text.h"
#include "hsdp_version.h"
#include "plan/load_imbalance.h"
#include "report/report_sections.h"
#include "run/shrink.h"

namespace hsdp {

namespace report {

ReportSection& SectionList::add(const QString& anchor, const QString& title, int level) {
    ReportSection section;
    section.anchor = anchor;
    section.title = title;
    section.level = level;
    body_.push_back(std::move(section));
    return body_.back();
}

ReportTable SectionList::limited(ReportTable table, const QString& anchor, const QString& title,
                                 int limit) {
    const int total = static_cast<int>(table.rows.size());
    if (total <= limit) return table;
    ReportSection full;
    full.anchor = anchor;
    full.title = title;
    full.appendix = true;
    ReportTable shown = table;
    shown.rows.resize(static_cast<size_t>(std::max(limit, 0)));
    shown.note = QStringLiteral("%1 of %2 rows, the worst first; every row: appendix “%3”.")
                     .arg(limit)
                     .arg(number(total), title);
    shown.fullAnchor = anchor;
    shown.fullTitle = title;
    if (total > kReportAppendixRows) {
        table.rows.resize(size_t(kReportAppendixRows));
        table.note = QStringLiteral(
                         "The worst %1 of %2 rows; hsdp-inspect plan --json (and run "
                         "--json) lists every one.")
                         .arg(number(kReportAppendixRows), number(total));
    }
    full.table(std::move(table));
    appendix_.push_back(std::move(full));
    return shown;
}

std::vector<ReportSection> SectionList::take() {
    std::vector<ReportSection> all = std::move(body_);
    if (!appendix_.empty()) {
        ReportSection head;
        head.anchor = QStringLiteral("appendix");
        head.title = QStringLiteral("Appendix: full tables");
        head.paragraph(QStringLiteral(
            "The tables the body summarises, every row, in the order the body refers to them."));
        all.push_back(std::move(head));
        for (ReportSection& s : appendix_) {
            s.level = 2;
            all.push_back(std::move(s));
        }
    }
    body_.clear();
    appendix_.clear();
    return all;
}

QString number(qint64 value) {
    return groupedNumber(value);
}

QString bytesText(double bytes) {
    return QString::fromStdString(humanBytes(bytes));
}

QString ratio(double value) {
    return QString::number(value, 'f', 2);
}

QString coordText(const Coord& coord) {
    QStringList parts;
    for (int64_t c : coord) parts << QString::number(c);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString listText(const std::vector<int>& values, int limit) {
    QStringList parts;
    const size_t shown = limit > 0 ? std::min(values.size(), size_t(limit)) : values.size();
    for (size_t i = 0; i < shown; ++i) parts << QString::number(values[i]);
    if (shown < values.size())
        parts << QStringLiteral("… %1 more").arg(number(qint64(values.size() - shown)));
    return parts.join(QStringLiteral(", "));
}

QString paramLabel(const Scenario& scenario, int param) {
    if (param < 0 || size_t(param) >= scenario.params.size())
        return QStringLiteral("#%1").arg(param);
    return QStringLiteral("#%1 %2").arg(param).arg(
        QString::fromStdString(scenario.params[size_t(param)].name));
}

}  // namespace report

namespace {

using namespace report;

QString meshesText(const Scenario& scenario) {
    QStringList meshes;
    for (const Mesh& m : scenario.meshes) {
        QStringList dims;
        for (size_t d = 0; d < m.shape.size(); ++d)
            dims << QStringLiteral("%1=%2")
                        .arg(d < m.dimNames.size() ? QString::fromStdString(m.dimNames[d])
                                                   : QString::number(d))
                        .arg(m.shape[d]);
        meshes << QStringLiteral("%1 [%2]").arg(QString::fromStdString(m.name),
                                                dims.join(QStringLiteral(", ")));
    }
    return meshes.join(QStringLiteral("; "));
}

// The plan's diagnostics with the prediction's (out of memory on the
// cluster), as the studio's status bar counts them.
QString planVerdict(const PlanResult& plan) {
    const int errors = diagnosticCount(plan, Severity::Error);
    const int warnings = diagnosticCount(plan, Severity::Warning);
    if (errors > 0)
        return QStringLiteral("plan has %1 error diagnostic(s), %2 warning(s)")
            .arg(errors)
            .arg(warnings);
    return QStringLiteral("plan without errors, %1 warning(s)").arg(warnings);
}

Facts summaryFacts(const ReportInput& input) {
    const Scenario& s = *input.plan.scenario;
    const Plan& plan = *input.plan.plan;
    int64_t numel = 0;
    double bytes = 0;
    for (const ParamSpec& p : s.params) {
        numel += p.numel();
        bytes += double(p.numel()) * dtypeSize(p.dtype);
    }
    size_t batches = 0;
    for (const Group& g : plan.groups) batches += g.batches.size();
    Facts facts;
    facts.emplace_back(QStringLiteral("World size"), QString::number(plan.worldSize));
    facts.emplace_back(QStringLiteral("Meshes"), meshesText(s));
    facts.emplace_back(QStringLiteral("Parameters"),
                       QStringLiteral("%1 (%2 no-comm, %3 rejected), %4 TP transitions")
                           .arg(number(qint64(s.params.size())))
                           .arg(plan.noCommParams.size())
                           .arg(plan.rejectedParams.size())
                           .arg(s.tpTransitions.size()));
    facts.emplace_back(QStringLiteral("Total numel"), number(numel));
    facts.emplace_back(QStringLiteral("Total bytes"),
                       QStringLiteral("%1 (%2)").arg(number(qint64(bytes)), bytesText(bytes)));
    facts.emplace_back(QStringLiteral("HSDP groups"), QString::number(plan.groups.size()));
    facts.emplace_back(QStringLiteral("Batches"), number(qint64(batches)));
    facts.emplace_back(QStringLiteral("Effective replica count"),
                       plan.effectiveReplicaCount
                           ? QString::number(*plan.effectiveReplicaCount)
                           : QStringLiteral("none (every replicate coordinate owns)"));
    if (const auto compute = rankComputeImbalance(plan.ranks))
        facts.emplace_back(
            QStringLiteral("Per-rank Newton–Schulz imbalance"),
            QStringLiteral("%1: rank %2 orthogonalises %3 of %4 elements; %5 of %6 ranks compute. "
                           "The step waits for the busiest rank.")
                .arg(QString::number(compute->ratio, 'f', 2))
                .arg(compute->busiestRank)
                .arg(number(compute->busiestNumel), number(compute->totalNumel))
                .arg(compute->computingRanks)
                .arg(compute->ranks));
    facts.emplace_back(QStringLiteral("Owner imbalance"),
                       input.plan.index->worstGroup < 0
                           ? QStringLiteral("none judged (no batch or group has as many owned "
                                            "parameters as owner coordinates)")
                           : worstImbalanceText(plan, *input.plan.index) +
                                 QStringLiteral(": the highest max/mean owner load the "
                                                "owner-imbalance rule judges"));
    facts.emplace_back(QStringLiteral("Backend"), QString::fromStdString(s.options.backend));
    QString verdict = planVerdict(input.plan);
    if (input.run.isValid()) verdict += QStringLiteral("; run: ") + runSummaryLine(*input.run.run);
    // A job that diverged is a finding as much as a run that did not verify:
    // a reviewer read "VERIFIED" and missed the job check pages later.
    if (input.job.isValid()) verdict += QStringLiteral("; job: ") + input.job.summary();
    facts.emplace_back(QStringLiteral("Verdict"), verdict);
    return facts;
}

}  // namespace

ReportDocument buildReport(const ReportInput& input) {
    ReportDocument doc;
    const Scenario& s = *input.plan.scenario;
    doc.scenarioName = QString::fromStdString(s.name);
    doc.description = QString::fromStdString(s.description);
    doc.title = input.title.isEmpty() ? QStringLiteral("HSDP plan report: %1").arg(doc.scenarioName)
                                      : input.title;
    const QDateTime date = input.date.isValid() ? input.date : QDateTime::currentDateTime();
    doc.header.emplace_back(
        QStringLiteral("Scenario file"),
        input.plan.path.isEmpty() ? QStringLiteral("untitled (not saved)") : input.plan.path);
    doc.header.emplace_back(
        QStringLiteral("Date"),
        QLocale(QLocale::English).toString(date, QStringLiteral("yyyy-MM-dd HH:mm t")));
    doc.header.emplace_back(
        QStringLiteral("Tool"),
        QStringLiteral("HSDP Studio / hsdp-inspect %1").arg(QString::fromUtf8(hsdp::version())));
    doc.command = input.command;
    if (!input.commandNote.isEmpty())
        doc.header.emplace_back(QStringLiteral("Note"), input.commandNote);
    // The prediction's errors count (out of memory on the cluster), as in
    // the verdict above and in `plan --cluster`'s exit status.
    doc.findings = diagnosticCount(input.plan, Severity::Error) > 0 ||
                   (input.run.isValid() && !input.run.run->verified) ||
                   (input.job.isValid() && !input.job.rows.empty());

    SectionList list;
    ReportSection& summary = list.add(QStringLiteral("summary"), QStringLiteral("Summary"));
    summary.factList(summaryFacts(input));
    addDiagnosticSections(input, list);
    addGroupSections(input, list);
    addParamSection(input, list);
    addPictureSections(input, list);
    addTpSections(input, list);
    addCostSections(input, list);
    if (input.run.isValid()) addRunSections(input, list);
    if (input.job.isValid()) addJobSections(input, list);
    doc.sections = list.take();
    return doc;
}

}  // namespace hsdp
