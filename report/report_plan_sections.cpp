// SPDX-License-Identifier: Apache-2.0
// The diagnostics and the TP lowering sections of a report.
#include "derived/run/plan_prediction.h"
#include "report/report_builder.h"
#include "report/report_sections.h"

namespace hsdp::report {

namespace {

constexpr int kNamedParams = 8;  // a diagnostic's params named in the body

QString severityTitle(Severity severity) {
    switch (severity) {
        case Severity::Error:
            return QStringLiteral("Errors");
        case Severity::Warning:
            return QStringLiteral("Warnings");
        case Severity::Info:
            return QStringLiteral("Information");
    }
    return {};
}

QString namedParams(const Scenario& scenario, const std::vector<int>& params, int limit) {
    QStringList names;
    const size_t shown = limit > 0 ? std::min(params.size(), size_t(limit)) : params.size();
    for (size_t i = 0; i < shown; ++i) names << paramLabel(scenario, params[i]);
    if (shown < params.size())
        names << QStringLiteral("… %1 more (appendix “Parameters named by diagnostics”)")
                     .arg(number(qint64(params.size() - shown)));
    return names.join(QStringLiteral(", "));
}

ReportTable diagnosticTable(const Scenario& scenario, const std::vector<Diagnostic>& diagnostics,
                            Severity severity) {
    ReportTable table;
    table.header = {QStringLiteral("Code"), QStringLiteral("Message"), QStringLiteral("Parameters"),
                    QStringLiteral("TP transitions")};
    bool transitions = false;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity != severity) continue;
        transitions = transitions || !d.transitions.empty();
        table.rows.push_back({QString::fromStdString(d.code), QString::fromStdString(d.message),
                              namedParams(scenario, d.params, kNamedParams),
                              listText(d.transitions, kNamedParams)});
    }
    if (!transitions) {  // no diagnostic of this severity names one: no empty column
        table.header.removeLast();
        for (QStringList& row : table.rows) row.removeLast();
    }
    return table;
}

// Every param of every diagnostic, one row each: the lists the body cuts short.
void addDiagnosticParamsAppendix(const Scenario& scenario,
                                 const std::vector<Diagnostic>& diagnostics, SectionList& list) {
    ReportTable table;
    table.header = {QStringLiteral("Code"), QStringLiteral("Severity"), QStringLiteral("Parameter"),
                    QStringLiteral("Shape"), QStringLiteral("Placements")};
    bool cut = false;
    for (const Diagnostic& d : diagnostics) {
        cut = cut || d.params.size() > size_t(kNamedParams);
        for (int p : d.params) {
            const ParamSpec& spec = scenario.params[size_t(p)];
            QStringList shape;
            for (int64_t e : spec.shape) shape << QString::number(e);
            table.rows.push_back(
                {QString::fromStdString(d.code),
                 QString::fromLatin1(severityName(d.severity).data()), paramLabel(scenario, p),
                 QLatin1Char('[') + shape.join(QStringLiteral(", ")) + QLatin1Char(']'),
                 spec.placements ? QString::fromStdString(placementsToString(*spec.placements))
                                 : QStringLiteral("plain tensor")});
        }
    }
    if (!cut) return;
    // Always in the appendix: a limit of 0 rows moves the table there whole.
    list.limited(std::move(table), QStringLiteral("appendix-diagnostic-params"),
                 QStringLiteral("Parameters named by diagnostics"), -1);
}

QString tpGroupRanks(const TpGroupDecision& g) {
    return listText(g.meshRanks);
}

void addTransitionRows(const Scenario& scenario, const TpPlan& t, ReportTable& table) {
    const QString name = QStringLiteral("#%1 %2").arg(t.index).arg(QString::fromStdString(t.name));
    const QString mesh = QString::fromStdString(scenario.tpTransitions[size_t(t.index)].mesh);
    const QString kind = t.classification
                             ? QString::fromLatin1(tpKindName(t.classification->kind).data())
                             : QStringLiteral("unclassified");
    if (t.groups.empty()) {
        table.rows.push_back({name, mesh, kind, QStringLiteral("whole mesh"),
                              QStringLiteral("fallback"), QStringLiteral("-"),
                              QStringLiteral("no tp dim"), QStringLiteral("fallback")});
        return;
    }
    for (const TpGroupDecision& g : t.groups) {
        table.rows.push_back(
            {name, mesh, kind, tpGroupRanks(g), QString::fromLatin1(tpPathName(g.path).data()),
             g.op ? QString::fromLatin1(tpLoweredOpName(*g.op).data()) : QStringLiteral("-"),
             g.reason ? QString::fromLatin1(tpFallbackReasonName(*g.reason).data())
                      : QStringLiteral("-"),
             QString::fromLatin1(tpPathName(g.runs).data()) +
                 (t.widened(g) ? QStringLiteral(" (widened)") : QString())});
    }
}

}  // namespace

void addDiagnosticSections(const ReportInput& input, SectionList& list) {
    const Scenario& scenario = *input.plan.scenario;
    const std::vector<Diagnostic> diagnostics = planDiagnosticsWithPrediction(input.plan);
    ReportSection& top = list.add(QStringLiteral("diagnostics"), QStringLiteral("Diagnostics"));
    if (diagnostics.empty()) {
        top.paragraph(QStringLiteral("The plan has no diagnostics."));
        return;
    }
    top.paragraph(QStringLiteral(
        "By severity: errors stop a run from verifying, warnings name hazards of the reference "
        "code and probable mistakes, information says what the planner decided."));
    for (Severity severity : {Severity::Error, Severity::Warning, Severity::Info}) {
        ReportTable table = diagnosticTable(scenario, diagnostics, severity);
        if (table.rows.empty()) continue;
        const QString title = severityTitle(severity);
        ReportSection& section =
            list.add(QStringLiteral("diagnostics-") + title.toLower(),
                     QStringLiteral("%1 (%2)").arg(title).arg(table.rows.size()), 2);
        section.table(std::move(table));
    }
    addDiagnosticParamsAppendix(scenario, diagnostics, list);
}

void addTpSections(const ReportInput& input, SectionList& list) {
    const Scenario& scenario = *input.plan.scenario;
    const Plan& plan = *input.plan.plan;
    ReportSection& section = list.add(QStringLiteral("tp-lowering"), QStringLiteral("TP lowering"));
    if (plan.tpTransitions.empty()) {
        section.paragraph(QStringLiteral("The scenario has no TP transitions."));
        return;
    }
    section.paragraph(QStringLiteral(
        "Per transition and TP group (ranks along the tp mesh dim): the reference's path, the "
        "lowered collective, why a group falls back, and what the run does (a fallback that "
        "spans other mesh dims widens every group to it)."));
    ReportTable table;
    table.header = {
        QStringLiteral("Transition"),      QStringLiteral("Mesh"), QStringLiteral("Kind"),
        QStringLiteral("Group ranks"),     QStringLiteral("Path"), QStringLiteral("Op"),
        QStringLiteral("Fallback reason"), QStringLiteral("Runs")};
    for (const TpPlan& t : plan.tpTransitions) addTransitionRows(scenario, t, table);
    // Fallbacks first: they are what a reader looks for.
    std::stable_sort(
        table.rows.begin(), table.rows.end(), [](const QStringList& a, const QStringList& b) {
            return (a[4] == QLatin1String("fallback")) > (b[4] == QLatin1String("fallback"));
        });
    section.table(list.limited(std::move(table), QStringLiteral("appendix-tp-lowering"),
                               QStringLiteral("TP lowering, every group"), kReportBodyRows));
}

}  // namespace hsdp::report
