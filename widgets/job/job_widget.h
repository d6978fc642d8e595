// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "derived/job/job_data.h"
#include "derived/plan/plan_selection.h"
#include "job/job_model.h"
#include "view/studio_view.h"

class QLabel;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;

namespace hsdp {

// A job's Flight Recorder record held against the plan (File ▸ Open Job
// Record…, docs/job-records.md "Checking a job against its plan"): a summary
// line, the divergences (kind, rank, process group, seq id, the sentence),
// the one to look at first on top, and per process group and rank the
// collectives recorded against the plan's (matched ones muted). Selecting a
// divergence selects everywhere what the plan moves there (its params, group
// and batch, or its TP transition) and its process group's ranks;
// activating it (double click, Enter) also asks for its step
// (divergenceActivated: the window moves the Steps view there).
class JobWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit JobWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showJob(const JobData& job) override { setJob(job); }
    // A picture only with a record to show.
    QList<ViewShot> screenshots() const override;

    void setJob(const JobData& job);
    const JobData& job() const { return model_->job(); }
    // While a record is read and checked: `text` and a Cancel button
    // (cancelRequested); false: the summary again.
    void setBusy(bool busy, const QString& text = {});
    // A line under the tables: why activating found no step ("" hides it).
    void setNote(const QString& text);
    QString note() const;
    QString summaryText() const;

    QTreeView* divergenceView() const { return divergences_; }
    QTreeView* cellView() const { return cells_; }
    JobDivergenceModel* model() const { return model_; }
    JobCellModel* cellModel() const { return cellModel_; }
    // The source row (of model()) that is current, or -1.
    int currentRow() const;
    // Makes `row` (of model()) current, which selects what it names.
    void setCurrentRow(int row);
    // What selecting `row` selects (also called when it becomes current).
    void selectRow(int row);

signals:
    void divergenceActivated(int row);
    void cancelRequested();

private:
    void showSummary();

    PlanSelection* selection_;
    JobDivergenceModel* model_;
    QSortFilterProxyModel* proxy_;
    JobCellModel* cellModel_;
    QSortFilterProxyModel* cellProxy_;
    QLabel* summary_;
    QToolButton* cancel_;
    QTreeView* divergences_;
    QTreeView* cells_;
    QLabel* note_;
    bool busy_ = false;
};

}  // namespace hsdp
