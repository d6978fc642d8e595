// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointer>
#include <QWidget>

#include "derived/plan/plan_selection.h"
#include "derived/run/run_data.h"
#include "derived/run/run_index.h"
#include "derived/run/run_steps.h"
#include "derived/run/step_caption.h"
#include "derived/run/trace_grouping.h"
#include "view/studio_view.h"

class QDoubleSpinBox;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;
class QTimer;
class QToolButton;

namespace hsdp {

// The run told one collective at a time (RunStep order: when the collective
// could run). First / previous / next / last, Play at a speed in steps per
// second; Alt+Left / Alt+Right / Alt+Home / Alt+End anywhere in the window,
// PgUp / PgDn / Home / End / Space with the focus here. The current step is
// the shared selection's collective, so every view follows, and a bar picked
// in the trace moves the step. The caption says what moves and why. A step
// of more than kGroupRanksAbove participants lists them in folded groups
// (the run's default grouping: a mesh dim's index), one summary line each.
// A step whose result verification found wrong (a reference run's hazards)
// is marked: a "wrong result" badge in traceFaultColour() beside its phase,
// the caption saying so and what the checks found; "Next wrong" walks to
// the next such step.
class StepWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit StepWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showRun(const RunData& run) override { setRun(run); }
    // Its parts: "<step index>".
    QList<ViewShot> screenshots() const override;
    QImage picture(const QSize& size, const QString& part) override;

    void setRun(const RunData& run);
    const std::vector<RunStep>& steps() const { return index_->steps; }
    int stepCount() const { return static_cast<int>(steps().size()); }
    int currentStep() const { return current_; }  // -1: none
    StepCaption caption() const { return caption_; }
    // The steps whose result verification found wrong, by collective id.
    const StepFaults& faults() const { return index_->faults; }
    QString positionText() const;  // "3 of 32 collectives · all_gather #3 of group [0,1] (seq 12)"
    bool isPlaying() const;
    void setSpeed(double stepsPerSecond);
    // The widget laid out at `size` and painted, never on screen.
    QImage renderImage(QSize size);
    // How a big step's participants are grouped (None: one line each).
    void setGrouping(const RankGrouping& grouping);
    const RankGrouping& grouping() const { return grouping_; }
    // The participants: top-level lines are ranks, or groups holding them.
    QTreeWidget* participants() const { return participants_; }

public slots:
    void setStep(int step);
    void first() { setStep(0); }
    void previous() { setStep(std::max(0, current_ - 1)); }
    void next() { setStep(std::min(stepCount() - 1, current_ + 1)); }
    void last() { setStep(stepCount() - 1); }
    // The next step after the current one whose result is wrong, from the
    // first after the last; nothing without one.
    void nextWrong();
    void setPlaying(bool playing);

private:
    bool runFailed() const;  // an error, not a cancel
    void addShortcuts();
    void onSelectionChanged();
    void onTick();
    void showStep();
    void fillParticipants(const RunStep& step);
    void addParticipant(QTreeWidget* tree, QTreeWidgetItem* parent, const RunStep& step, size_t i);
    void addGroup(const RankGroup& group, const RunStep& step);

    QPointer<PlanSelection> selection_;
    RunData run_;
    RealScale real_;  // the run's scale to the real shapes (shrunk runs)
    std::shared_ptr<const RunIndex> index_ = indexRun({});  // of run_
    int current_ = -1;
    StepCaption caption_;
    QToolButton* play_;
    QDoubleSpinBox* speed_;
    QLabel* position_;
    QLabel* badge_;
    QLabel* faultBadge_;
    QLabel* headline_;
    QLabel* why_;
    QLabel* fault_;
    QToolButton* nextWrong_;
    QTreeWidget* participants_;
    RankGrouping grouping_;
    std::shared_ptr<const Mesh> mesh_;  // of the run's world, or null
    QTimer* timer_;
};

}  // namespace hsdp
