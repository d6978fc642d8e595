// SPDX-License-Identifier: Apache-2.0
// The "What changed" rows after the params: owner loads per coordinate,
// imbalance, diagnostics, and the scenario-wide rest.
#include <QStringList>
#include <algorithm>

#include "plan_diff/plan_diff_table_build.h"

namespace hsdp::change_detail {

namespace {

std::optional<int> idOf(const std::optional<GroupSummary>& side) {
    return side ? std::optional<int>(side->id) : std::nullopt;
}

// "group 3", or "group 3 → 5" when the same layout has another id after.
QString groupName(const GroupDiff& g) {
    if (g.before && g.after && g.before->id != g.after->id)
        return QObject::tr("group %1 → %2").arg(g.before->id).arg(g.after->id);
    return QObject::tr("group %1").arg(g.after ? g.after->id : g.before->id);
}

PlanDiffTrend trendOf(double before, double after) {
    return after < before ? PlanDiffTrend::Better : PlanDiffTrend::Worse;
}

PlanDiffRow imbalanceRow(const QString& item, const QString& what, std::optional<double> before,
                         std::optional<double> after) {
    PlanDiffRow row = textRow(item, what, ratioText(before), ratioText(after));
    if (before && after) {
        row.delta = signedRatioText(*after - *before);
        row.trend = trendOf(*before, *after);
    }
    return row;
}

}  // namespace

void addLoadRows(const Context& ctx, const PlanDiff& diff, std::vector<PlanDiffRow>& rows) {
    for (const GroupDiff& g : diff.groups) {
        std::map<Coord, std::pair<std::optional<int64_t>, std::optional<int64_t>>> byCoord;
        if (g.before)
            for (const CoordLoad& l : g.before->loads) byCoord[l.coord].first = l.numel;
        if (g.after)
            for (const CoordLoad& l : g.after->loads) byCoord[l.coord].second = l.numel;
        const QString name = groupName(g);
        const QString toolTip = text(groupIdentityText(g.key));
        const int group = ctx.shownGroup(idOf(g.before), idOf(g.after));
        for (const auto& [coord, loads] : byCoord) {
            if (loads.first == loads.second) continue;
            PlanDiffRow row = textRow(name, coordText(coord), optionalNumberText(loads.first),
                                      optionalNumberText(loads.second));
            if (loads.first && loads.second) row.delta = signedText(*loads.second - *loads.first);
            row.toolTip = toolTip;
            row.group = group;
            rows.push_back(std::move(row));
        }
    }
}

void addImbalanceRows(const Context& ctx, const PlanDiff& diff, std::vector<PlanDiffRow>& rows) {
    const QString maxOverMean = QObject::tr("max/mean owner load");
    for (const GroupDiff& g : diff.groups) {
        auto before = g.before ? g.before->imbalance : std::nullopt;
        auto after = g.after ? g.after->imbalance : std::nullopt;
        const int group = ctx.shownGroup(idOf(g.before), idOf(g.after));
        if (ratioText(before) != ratioText(after)) {
            PlanDiffRow row = imbalanceRow(groupName(g), maxOverMean + QObject::tr(", all batches"),
                                           before, after);
            row.toolTip = text(groupIdentityText(g.key));
            row.group = group;
            rows.push_back(std::move(row));
        }
        for (const BatchDiff& b : g.batches) {
            auto bb = b.before ? b.before->imbalance : std::nullopt;
            auto ba = b.after ? b.after->imbalance : std::nullopt;
            if (!b.before || !b.after || ratioText(bb) == ratioText(ba)) continue;
            PlanDiffRow row = imbalanceRow(groupName(g) + QObject::tr(" batch %1").arg(b.index),
                                           maxOverMean, bb, ba);
            row.group = group;
            row.batch = group >= 0 ? b.index : -1;
            rows.push_back(std::move(row));
        }
    }
}

namespace {

// "param 'w'" -> "w"; empty if the subject is not of that kind.
std::string subjectName(const std::string& subject, const std::string& kind) {
    std::string prefix = kind + " '";
    if (subject.size() < prefix.size() + 1 || subject.compare(0, prefix.size(), prefix) != 0)
        return {};
    return subject.substr(prefix.size(), subject.size() - prefix.size() - 1);
}

// The params to select for a diagnostic about `param`: those of the same
// diagnostic in the shown plan (the subject first), or the subject alone.
std::vector<int> diagnosticParams(const Context& ctx, const DiagnosticItem& item, int param) {
    for (const Diagnostic& d : ctx.shown().plan->diagnostics) {
        if (d.severity != item.severity || d.code != item.code) continue;
        auto found = std::find(d.params.begin(), d.params.end(), param);
        if (found == d.params.end()) continue;
        std::vector<int> params{param};
        for (int p : d.params)
            if (p != param) params.push_back(p);
        return params;
    }
    return {param};
}

}  // namespace

void addDiagnosticRows(const Context& ctx, const std::vector<DiagnosticItem>& items, bool appeared,
                       std::vector<PlanDiffRow>& rows) {
    for (const DiagnosticItem& item : items) {
        PlanDiffRow row;
        row.item =
            text(std::string(severityName(item.severity))) + QLatin1Char(' ') + text(item.code);
        row.what = item.subject.empty() ? QObject::tr("the scenario") : text(item.subject);
        row.before = appeared ? kAbsent : text(item.message);
        row.after = appeared ? text(item.message) : kAbsent;
        row.toolTip = text(item.message);
        if (item.severity != Severity::Info)
            row.trend = appeared ? PlanDiffTrend::Worse : PlanDiffTrend::Better;
        int param = ctx.paramNamed(subjectName(item.subject, "param"));
        if (param >= 0) {
            ctx.placeParam(row, param);
            row.params = diagnosticParams(ctx, item, param);
        }
        auto transition = ctx.transitionByName.find(subjectName(item.subject, "transition"));
        if (transition != ctx.transitionByName.end()) row.transition = transition->second;
        rows.push_back(std::move(row));
    }
}

namespace {

QString listText(const std::vector<std::string>& names) {
    QStringList parts;
    for (const auto& n : names) parts << QLatin1Char('\'') + text(n) + QLatin1Char('\'');
    return parts.join(QStringLiteral(", "));
}

QString meshText(const std::optional<MeshSummary>& m) {
    if (!m) return kAbsent;
    QStringList shape, names;
    for (int64_t d : m->shape) shape << QString::number(d);
    for (const auto& n : m->dimNames) names << text(n);
    return QStringLiteral("[%1] (%2), %3 ranks")
        .arg(shape.join(QLatin1Char('x')), names.join(QStringLiteral(", ")))
        .arg(m->ranks.size());
}

}  // namespace

void addOtherRows(const PlanDiff& diff, std::vector<PlanDiffRow>& rows) {
    auto add = [&](const QString& item, const QString& what, const QString& before,
                   const QString& after) { rows.push_back(textRow(item, what, before, after)); };
    if (diff.scenarioName)
        add(QObject::tr("scenario"), QObject::tr("name"), text(diff.scenarioName->before),
            text(diff.scenarioName->after));
    if (diff.worldSize) {
        add(QObject::tr("world"), QObject::tr("size"), numberText(diff.worldSize->before),
            numberText(diff.worldSize->after));
        rows.back().delta = signedText(diff.worldSize->after - diff.worldSize->before);
    }
    if (diff.effectiveReplicaCount)
        add(QObject::tr("replica count"), QObject::tr("effective"),
            optionalNumberText(diff.effectiveReplicaCount->before),
            optionalNumberText(diff.effectiveReplicaCount->after));
    for (const MeshDiff& m : diff.meshes)
        add(QObject::tr("mesh %1").arg(text(m.name)), QObject::tr("shape, dims, ranks"),
            meshText(m.before), meshText(m.after));
    for (const OptionChange& o : diff.options)
        add(QObject::tr("option %1").arg(text(o.name)),
            o.inPlan ? QObject::tr("in the plan") : QObject::tr("not part of the plan"),
            text(o.before), text(o.after));
    if (diff.schedule)
        add(QObject::tr("schedule"), QObject::tr("steps, order"),
            QObject::tr("%1 steps").arg(diff.schedule->before.size()),
            QObject::tr("%1 steps").arg(diff.schedule->after.size()));
    if (!diff.addedTransitions.empty())
        add(QObject::tr("TP transitions"), QObject::tr("added"), kAbsent,
            listText(diff.addedTransitions));
    if (!diff.removedTransitions.empty())
        add(QObject::tr("TP transitions"), QObject::tr("removed"),
            listText(diff.removedTransitions), kAbsent);
    if (!diff.changedTransitions.empty())
        add(QObject::tr("TP transitions"), QObject::tr("decisions changed"),
            listText(diff.changedTransitions), listText(diff.changedTransitions));
    if (diff.transitionOrderChanged)
        add(QObject::tr("TP transitions"), QObject::tr("reordered"), QString(), QString());
    for (const DiagnosticReword& r : diff.rewordedDiagnostics) {
        add(text(std::string(severityName(r.severity))) + QLatin1Char(' ') + text(r.code),
            QObject::tr("diagnostic reworded"), text(r.message.before), text(r.message.after));
        rows.back().toolTip =
            text(r.message.before) + QStringLiteral("\n→\n") + text(r.message.after);
    }
    if (!diff.ranks.empty())
        add(QObject::tr("ranks"), QObject::tr("%1 own other params").arg(diff.ranks.size()),
            QString(), QString());
}

}  // namespace hsdp::change_detail
