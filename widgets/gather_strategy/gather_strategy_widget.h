// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QThreadPool>
#include <QTimer>
#include <QWidget>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "derived/plan/job_tracker.h"
#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"
#include "gather_strategy/compared_group.h"
#include "view/studio_view.h"

class QLabel;
class QTableWidget;

namespace hsdp {

// The two gather strategies side by side for the selected group (its own, or
// its focus param's, else the plan's first gathered group): what a rank
// receives, the predicted gather + update-return time on the chosen cluster
// (loopback without one), the step's peak memory, and which one the plan uses
// and why. Costing both takes two schedules and two memory replays, seconds
// on a 70B plan: it runs on a thread of the view's own, once per plan, group
// and cluster, only while the view is shown, and the view says so meanwhile.
class GatherStrategyWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit GatherStrategyWidget(PlanSelection* selection, QWidget* parent = nullptr);
    ~GatherStrategyWidget() override;

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override;
    void showPrediction(const PlanResult& plan) override { showPlan(plan); }
    QList<ViewShot> screenshots() const override;
    // Costs the shown group here if its figures are not in yet: a picture
    // cannot wait for the thread.
    QImage picture(const QSize& size, const QString& part) override;

    // The figures shown, once costed (nullopt meanwhile, or for no group).
    const std::optional<StrategyComparison>& shown() const { return shown_; }
    bool isCosting() const { return jobs_.isJobRunning() || settle_.isActive(); }
    QTableWidget* table() const { return table_; }
    QString caption() const;

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    using Key = std::tuple<const Plan*, int, std::string>;  // plan, group, cluster
    void refresh();
    Key keyFor(int group) const;
    std::shared_ptr<const Cluster> cluster() const;
    void display(const std::optional<StrategyComparison>& comparison, const QString& message);
    void fitTableHeight();

    QPointer<PlanSelection> selection_;
    PlanResult plan_;
    std::map<Key, std::shared_ptr<const StrategyComparison>> costed_;  // this plan's, by key
    std::optional<StrategyComparison> shown_;
    QLabel* title_;
    QLabel* caption_;
    QTableWidget* table_;
    JobTracker jobs_{this, JobPriority::Background};
    // Costing starts once the plan has stayed for a moment: a burst of what-if
    // edits re-plans on both cores, and costing every plan of it would slow
    // each edit's repaint (hsdp-bench views, edit_to_repaint_ms).
    QTimer settle_;
    bool settled_ = false;
    QThreadPool pool_;  // one thread; waited for in the destructor
};

}  // namespace hsdp
