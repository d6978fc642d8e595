// SPDX-License-Identifier: Apache-2.0
// What changed in the prediction: when both plans are costed on the same
// cluster, the predicted step and the worst rank's peak before and after
// (core/cost/cost_diff.h), as rows and as the summary's last words.
#include "cost/cost_diff.h"
#include "derived/run/plan_prediction.h"
#include "export/cost_diff_text.h"
#include "plan_diff/plan_diff_table_build.h"
#include "types/figures.h"

namespace hsdp::change_detail {

namespace {

PlanDiffTrend trendOf(Better better) {
    return better == Better::After    ? PlanDiffTrend::Better
           : better == Better::Before ? PlanDiffTrend::Worse
                                      : PlanDiffTrend::Neutral;
}

QString duration(double seconds) {
    return QString::fromStdString(durationText(seconds));
}

QString bytes(int64_t value) {
    return QString::fromStdString(humanBytes(double(value)));
}

QString signedDuration(double seconds) {
    return (seconds < 0 ? QStringLiteral("−") : QStringLiteral("+")) + duration(std::abs(seconds));
}

QString signedBytes(int64_t value) {
    return (value < 0 ? QStringLiteral("−") : QStringLiteral("+")) + bytes(std::abs(value));
}

}  // namespace

std::optional<CostDiff> costChange(const PlanResult& before, const PlanResult& after) {
    const PlanPrediction* a = before.prediction.get();
    const PlanPrediction* b = after.prediction.get();
    if (!a || !b || !a->cost || !b->cost || a->cost->cluster.name != b->cost->cluster.name)
        return std::nullopt;
    return diffCosts(*a->cost, *b->cost);
}

void addCostRows(const CostDiff& cost, std::vector<PlanDiffRow>& rows) {
    const QString where = QObject::tr("on %1").arg(QString::fromStdString(cost.cluster));
    if (cost.stepSecondsChange() != 0) {
        // Every predicted time says how far to trust it, here too.
        PlanDiffRow step =
            textRow(QObject::tr("predicted step"),
                    QObject::tr("%1, %2").arg(where, QString::fromStdString(cost.trust)),
                    duration(cost.before.stepSeconds), duration(cost.after.stepSeconds),
                    signedDuration(cost.stepSecondsChange()));
        step.trend = trendOf(cost.faster());
        rows.push_back(std::move(step));
    }
    if (cost.peakBytesChange() != 0 || cost.before.fits() != cost.after.fits()) {
        // Each side says when it is over the device's memory.
        auto side = [](const CostSide& s) {
            QString text = QObject::tr("%1 (rank %2)").arg(bytes(s.peakBytes)).arg(s.peakRank);
            if (!s.fits()) text += QObject::tr(", %1 over the device").arg(bytes(s.overBytes()));
            return text;
        };
        PlanDiffRow peak = textRow(QObject::tr("peak memory"), where, side(cost.before),
                                   side(cost.after), signedBytes(cost.peakBytesChange()));
        peak.trend = trendOf(cost.lighter());
        peak.toolTip = QString::fromStdString(fitVerdict(cost));
        rows.push_back(std::move(peak));
    }
}

QString costSummaryText(const CostDiff& cost) {
    QStringList parts;
    if (cost.stepSecondsChange() != 0)
        parts << QObject::tr("predicted step %1 → %2 %3")
                     .arg(duration(cost.before.stepSeconds), duration(cost.after.stepSeconds),
                          QString::fromStdString(cost.trust));
    if (cost.peakBytesChange() != 0)
        parts << QObject::tr("peak %1 → %2")
                     .arg(bytes(cost.before.peakBytes), bytes(cost.after.peakBytes));
    return parts.join(QStringLiteral(" · "));
}

}  // namespace hsdp::change_detail
