// SPDX-License-Identifier: Apache-2.0
// computePlanChange: the engine's diff, then the panel's rows and summary.
#include "plan_diff/plan_diff_table.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>

#include "derived/plan/plan_index.h"
#include "derived/run/plan_prediction.h"
#include "plan_diff/plan_diff_table_build.h"

namespace hsdp {

namespace change_detail {

Context::Context(const PlanResult& before, const PlanResult& after, CurrentSide current)
    : before(before), after(after), current(current) {
    const Scenario& scenario = *shown().scenario;
    for (const ParamSpec& p : scenario.params) paramByName.emplace(p.name, p.index);
    const Plan& plan = *shown().plan;
    for (size_t g = 0; g < plan.groups.size(); ++g)
        groupPositionById.emplace(plan.groups[g].id, static_cast<int>(g));
    for (size_t t = 0; t < scenario.tpTransitions.size(); ++t)
        transitionByName.emplace(scenario.tpTransitions[t].name, static_cast<int>(t));
}

int Context::shownGroup(const std::optional<int>& beforeId,
                        const std::optional<int>& afterId) const {
    const std::optional<int>& id = current == CurrentSide::After ? afterId : beforeId;
    if (!id) return -1;
    auto found = groupPositionById.find(*id);
    return found == groupPositionById.end() ? -1 : found->second;
}

int Context::paramNamed(const std::string& name) const {
    auto found = paramByName.find(name);
    return found == paramByName.end() ? -1 : found->second;
}

void Context::placeParam(PlanDiffRow& row, int index) const {
    const PlanIndex& lookup = *shown().index;
    if (index < 0 || static_cast<size_t>(index) >= lookup.params.size()) return;
    row.param = index;
    row.group = lookup.params[static_cast<size_t>(index)].group;
    row.batch = lookup.params[static_cast<size_t>(index)].batch;
}

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

QString coordText(const Coord& coord) {
    QStringList parts;
    for (int64_t c : coord) parts << QString::number(c);
    return QLatin1Char('(') + parts.join(QLatin1Char(',')) + QLatin1Char(')');
}

QString numberText(int64_t value) {
    static const QLocale english(QLocale::English);  // 2,113,929,216 whatever the desktop's locale
    return english.toString(static_cast<qlonglong>(value));
}

QString optionalNumberText(const std::optional<int64_t>& value) {
    return value ? numberText(*value) : kAbsent;
}

QString signedText(int64_t delta) {
    if (delta == 0) return QStringLiteral("0");
    return (delta > 0 ? QStringLiteral("+") : QStringLiteral("−")) +
           numberText(delta > 0 ? delta : -delta);
}

PlanDiffRow textRow(const QString& item, const QString& what, const QString& before,
                    const QString& after, const QString& delta) {
    PlanDiffRow row;
    row.item = item;
    row.what = what;
    row.before = before;
    row.after = after;
    row.delta = delta;
    return row;
}

QString signedRatioText(double delta) {
    QString magnitude = QString::number(delta < 0 ? -delta : delta, 'f', 2);
    if (magnitude == QStringLiteral("0.00")) return magnitude;
    return (delta > 0 ? QStringLiteral("+") : QStringLiteral("−")) + magnitude;
}

}  // namespace change_detail

using namespace change_detail;

QString ratioText(std::optional<double> ratio) {
    return ratio ? QString::number(*ratio, 'f', 2) : kAbsent;
}

namespace {

QString counted(size_t count, const char* noun) {
    return QStringLiteral("%1 %2%3").arg(count).arg(QLatin1String(noun),
                                                    count == 1 ? QString() : QStringLiteral("s"));
}

}  // namespace

QString paramCountsText(const PlanDiff& diff) {
    const std::pair<size_t, const char*> counts[] = {{diff.changedParams.size(), "moved"},
                                                     {diff.addedParams.size(), "added"},
                                                     {diff.removedParams.size(), "removed"}};
    QStringList parts;
    for (const auto& [count, what] : counts) {
        if (count == 0) continue;
        // The noun once, on the first count: "1 param moved · 14 added".
        parts << (parts.isEmpty() ? counted(count, "param") : QString::number(count)) +
                     QLatin1Char(' ') + QLatin1String(what);
    }
    return parts.join(QStringLiteral(" · "));
}

namespace {

// "12 params moved · worst imbalance 1.31 → 1.05 · +2 −1 diagnostics", most important first.
QString summaryText(const PlanDiffTable& change) {
    const PlanDiff& diff = *change.diff;
    if (diff.same()) return QObject::tr("Same plan");
    QStringList parts;
    if (const QString params = paramCountsText(diff); !params.isEmpty()) parts << params;
    if (ratioText(change.worstBefore) != ratioText(change.worstAfter))
        parts << QStringLiteral("worst imbalance %1 → %2")
                     .arg(ratioText(change.worstBefore), ratioText(change.worstAfter));
    // Counted as the plans list them: one warning naming 240 params is one.
    const size_t appeared = groupDiagnostics(diff.appearedDiagnostics).size();
    const size_t disappeared = groupDiagnostics(diff.disappearedDiagnostics).size();
    if (appeared + disappeared > 0) {
        QStringList counts;
        if (appeared) counts << QStringLiteral("+%1").arg(appeared);
        if (disappeared) counts << QStringLiteral("−%1").arg(disappeared);
        parts << counts.join(QLatin1Char(' ')) + (appeared + disappeared == 1
                                                      ? QStringLiteral(" diagnostic")
                                                      : QStringLiteral(" diagnostics"));
    }
    if (parts.isEmpty()) parts << QObject::tr("no param moved; other changes below");
    return parts.join(QStringLiteral(" · "));
}

// The diagnostics of the step on the cluster (out of memory, tight memory)
// that one side's prediction has and the other's not, by severity and code:
// the plan diff compares plans, and these come with their predictions. Only
// when both sides are predicted (a pending prediction is no disappearance).
std::pair<std::vector<DiagnosticItem>, std::vector<DiagnosticItem>> predictedDiagnosticChange(
    const PlanResult& before, const PlanResult& after) {
    if (!before.prediction || !after.prediction) return {};
    auto items = [](const PlanResult& side) {
        std::vector<DiagnosticItem> out;
        for (const Diagnostic& d : side.prediction->diagnostics)
            out.push_back(
                {d.severity, d.code,
                 "the step on " + (side.prediction->cluster ? side.prediction->cluster->name
                                                            : std::string("the cluster")),
                 d.message});
        return out;
    };
    auto missingFrom = [](const std::vector<DiagnosticItem>& from,
                          const std::vector<DiagnosticItem>& other) {
        std::vector<DiagnosticItem> out;
        for (const DiagnosticItem& d : from)
            if (std::none_of(other.begin(), other.end(), [&](const DiagnosticItem& o) {
                    return o.severity == d.severity && o.code == d.code;
                }))
                out.push_back(d);
        return out;
    };
    const auto was = items(before), is = items(after);
    return {missingFrom(is, was), missingFrom(was, is)};
}

}  // namespace

PlanDiffTable computePlanChange(const PlanResult& before, const PlanResult& after,
                                CurrentSide current, const QString& beforeLabel,
                                const QString& afterLabel, std::stop_token stop) {
    PlanDiffTable change;
    // The table shows group loads and batch imbalances, never a batch's
    // per-coordinate loads: those are left out.
    auto diff = freedOffGuiThread(diffPlans(*before.scenario, *before.plan, *after.scenario,
                                            *after.plan, DiffOptions{false, std::move(stop)}));
    change.current = current;
    change.currentPlan = current == CurrentSide::After ? after.plan : before.plan;
    change.beforeLabel = beforeLabel;
    change.afterLabel = afterLabel;
    change.worstBefore = before.index->worstImbalance;
    change.worstAfter = after.index->worstImbalance;
    Context ctx(before, after, current);
    auto& sections = change.sections;
    addParamRows(ctx, *diff, sections[static_cast<size_t>(PlanDiffSection::Params)]);
    addLoadRows(ctx, *diff, sections[static_cast<size_t>(PlanDiffSection::Loads)]);
    auto& imbalance = sections[static_cast<size_t>(PlanDiffSection::Imbalance)];
    if (ratioText(change.worstBefore) != ratioText(change.worstAfter)) {
        PlanDiffRow worst = textRow(QObject::tr("worst imbalance"),
                                    QObject::tr("max over the judged batches and groups"),
                                    ratioText(change.worstBefore), ratioText(change.worstAfter),
                                    signedRatioText(change.worstAfter - change.worstBefore));
        worst.trend =
            change.worstAfter < change.worstBefore ? PlanDiffTrend::Better : PlanDiffTrend::Worse;
        worst.toolTip = QObject::tr(
                            "The plan's worst max/mean owner load where the owner-imbalance "
                            "rule judges it (the status bar's worst imbalance): before %1, "
                            "after %2")
                            .arg(worstImbalanceText(*before.plan, *before.index),
                                 worstImbalanceText(*after.plan, *after.index));
        imbalance.push_back(std::move(worst));
    }
    addImbalanceRows(ctx, *diff, imbalance);
    addDiagnosticRows(ctx, diff->appearedDiagnostics, true,
                      sections[static_cast<size_t>(PlanDiffSection::DiagnosticsAppeared)]);
    addDiagnosticRows(ctx, diff->disappearedDiagnostics, false,
                      sections[static_cast<size_t>(PlanDiffSection::DiagnosticsDisappeared)]);
    const auto [appeared, disappeared] = predictedDiagnosticChange(before, after);
    addDiagnosticRows(ctx, appeared, true,
                      sections[static_cast<size_t>(PlanDiffSection::DiagnosticsAppeared)]);
    addDiagnosticRows(ctx, disappeared, false,
                      sections[static_cast<size_t>(PlanDiffSection::DiagnosticsDisappeared)]);
    addOtherRows(*diff, sections[static_cast<size_t>(PlanDiffSection::Other)]);
    const std::optional<CostDiff> cost = costChange(before, after);
    if (cost) addCostRows(*cost, imbalance);
    change.diff = std::move(diff);
    change.summary = summaryText(change);
    if (const QString words = cost ? costSummaryText(*cost) : QString(); !words.isEmpty())
        change.summary += QStringLiteral(" · ") + words;
    return change;
}

}  // namespace hsdp
