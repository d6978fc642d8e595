// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSortFilterProxyModel>
#include <optional>

namespace hsdp {

// Filters the plan tree recursively (a matching row keeps its ancestors) and
// sorts it by SortRole. The filter text matches, case-insensitively, a
// parameter's name or one of its diagnostic codes; "rank N" (or "r N") keeps
// the parameters rank N computes (runs Newton–Schulz on: Plan::ranks[N].computed),
// not every parameter its owning group holds.
class PlanFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit PlanFilterProxy(QObject* parent = nullptr);

    void setFilter(const QString& text);
    QString filter() const { return text_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString text_;
    std::optional<int> rank_;
};

}  // namespace hsdp
