// SPDX-License-Identifier: Apache-2.0
// The "Parameters moved" rows: what changed for each param, before → after,
// worded like `hsdp-inspect diff`.
#include <QStringList>

#include "plan_diff/plan_diff_table_build.h"

namespace hsdp::change_detail {

namespace {

QString shapeText(const std::vector<int64_t>& shape) {
    QStringList parts;
    for (int64_t d : shape) parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString groupText(const ParamInPlan& p) {
    if (!p.group) return QObject::tr("no group");
    return QObject::tr("group %1").arg(p.groupId);
}

QString groupToolTip(const ParamInPlan& p) {
    if (!p.group) return text(std::string(paramStatusName(p.status)));
    return groupText(p) + QStringLiteral(": ") + text(groupIdentityText(*p.group));
}

QString batchText(const ParamInPlan& p) {
    return p.batch ? QObject::tr("batch %1").arg(*p.batch) : QObject::tr("no batch");
}

QString ownerText(const ParamInPlan& p) {
    return p.owner ? QObject::tr("owner %1").arg(coordText(*p.owner)) : QObject::tr("no owner");
}

QString placementsText(const ParamInPlan& p) {
    return p.placements ? text(placementsToString(*p.placements)) : QObject::tr("plain tensor");
}

// One aspect that differs: its name and its text on each side.
struct Aspect {
    QString name;
    QString before;
    QString after;
};

std::vector<Aspect> aspectsOf(const ParamDiff& d) {
    const ParamInPlan &a = d.before, &b = d.after;
    std::vector<Aspect> out;
    auto add = [&](bool changed, const char* name, const QString& x, const QString& y) {
        if (changed && x != y) out.push_back({QLatin1String(name), x, y});
    };
    add(d.changes.status, "status", text(std::string(paramStatusName(a.status))),
        text(std::string(paramStatusName(b.status))));
    // Same id, other layout: the id alone would read "group 3 → group 3".
    bool sameId = a.group && b.group && a.groupId == b.groupId;
    add(d.changes.group, "group", sameId ? groupToolTip(a) : groupText(a),
        sameId ? groupToolTip(b) : groupText(b));
    add(d.changes.batch, "batch", batchText(a), batchText(b));
    add(d.changes.owner, "owner", ownerText(a), ownerText(b));
    add(d.changes.spec, "placements", placementsText(a), placementsText(b));
    add(d.changes.spec, "shape", shapeText(a.shape), shapeText(b.shape));
    add(d.changes.spec, "dtype", text(std::string(dtypeName(a.dtype))),
        text(std::string(dtypeName(b.dtype))));
    add(d.changes.spec, "mesh", QObject::tr("mesh %1").arg(text(a.mesh)),
        QObject::tr("mesh %1").arg(text(b.mesh)));
    add(d.changes.spec, "requires_grad", a.requiresGrad ? "requires_grad" : "frozen",
        b.requiresGrad ? "requires_grad" : "frozen");
    add(d.changes.index, "index", QObject::tr("index %1").arg(a.index),
        QObject::tr("index %1").arg(b.index));
    return out;
}

// Where a param stands, in full: for params only one side has.
QString placeText(const ParamInPlan& p) {
    if (!p.group) return text(std::string(paramStatusName(p.status)));
    return QStringList{groupText(p), batchText(p), ownerText(p)}.join(QStringLiteral(" · "));
}

PlanDiffRow changedRow(const Context& ctx, const ParamDiff& d) {
    QStringList names, before, after;
    for (const Aspect& aspect : aspectsOf(d)) {
        names << aspect.name;
        before << aspect.before;
        after << aspect.after;
    }
    PlanDiffRow row;
    row.item = text(d.name);
    row.what = names.join(QStringLiteral(", "));
    row.before = before.join(QStringLiteral(" · "));
    row.after = after.join(QStringLiteral(" · "));
    row.toolTip =
        QObject::tr("Before: %1\nAfter: %2").arg(groupToolTip(d.before), groupToolTip(d.after));
    ctx.placeParam(row, ctx.current == CurrentSide::After ? d.after.index : d.before.index);
    return row;
}

PlanDiffRow onOneSideRow(const Context& ctx, const ParamInPlan& p, bool added) {
    PlanDiffRow row;
    row.item = text(p.name);
    row.what = added ? QObject::tr("added") : QObject::tr("removed");
    row.before = added ? kAbsent : placeText(p);
    row.after = added ? placeText(p) : kAbsent;
    row.toolTip = groupToolTip(p);
    bool shown = added == (ctx.current == CurrentSide::After);
    if (shown) ctx.placeParam(row, p.index);
    return row;
}

}  // namespace

void addParamRows(const Context& ctx, const PlanDiff& diff, std::vector<PlanDiffRow>& rows) {
    rows.reserve(diff.changedParams.size() + diff.addedParams.size() + diff.removedParams.size());
    for (const ParamDiff& d : diff.changedParams) rows.push_back(changedRow(ctx, d));
    for (const ParamInPlan& p : diff.addedParams) rows.push_back(onOneSideRow(ctx, p, true));
    for (const ParamInPlan& p : diff.removedParams) rows.push_back(onOneSideRow(ctx, p, false));
}

}  // namespace hsdp::change_detail
