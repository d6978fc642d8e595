// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractTableModel>

#include "derived/plan/plan_result.h"

namespace hsdp {

// The plan's diagnostics as a table: severity, code, message; first those of
// its prediction on the chosen cluster (out-of-memory), then the planner's.
// ParamsRole and TransitionsRole tell a view what to select when one is activated.
class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, CodeColumn, MessageColumn, ColumnCount };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    void setResult(const PlanResult& result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant display(const Diagnostic& diagnostic, int column) const;
    const Diagnostic& diagnosticAt(int row) const;
    size_t predictedCount() const;

    std::shared_ptr<const Plan> plan_;
    std::shared_ptr<const PlanPrediction> prediction_;
};

}  // namespace hsdp
