// SPDX-License-Identifier: Apache-2.0
#include "plan_tree/plan_filter_proxy.h"

#include <QRegularExpression>

#include "derived/plan/model_roles.h"

namespace hsdp {

PlanFilterProxy::PlanFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setRecursiveFilteringEnabled(true);
    setSortRole(SortRole);
    setFilterRole(FilterRole);
}

void PlanFilterProxy::setFilter(const QString& text) {
    static const QRegularExpression rankPattern(QStringLiteral("^\\s*(?:rank|r)\\s*(\\d+)\\s*$"),
                                                QRegularExpression::CaseInsensitiveOption);
    text_ = text.trimmed().toLower();
    auto match = rankPattern.match(text);
    rank_ = match.hasMatch() ? std::optional<int>(match.captured(1).toInt()) : std::nullopt;
    invalidateFilter();
}

bool PlanFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (text_.isEmpty()) return true;
    QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (rank_) {
        // What the rank computes (Plan::ranks[r].computed), not every param
        // its replica group holds: that is what "rank 5" asks about.
        if (index.data(ParamRole).toInt() < 0) return false;
        return index.data(ComputeRanksRole).value<QList<int>>().contains(*rank_);
    }
    return index.data(FilterRole).toString().contains(text_);
}

}  // namespace hsdp
