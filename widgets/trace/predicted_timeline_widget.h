// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "derived/job/job_data.h"
#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"
#include "derived/run/run_data.h"
#include "view/studio_view.h"

class QComboBox;
class QLabel;

namespace hsdp {

class TraceCanvas;
class TraceZoomBar;

// The predicted optimizer step on the chosen cluster, drawn by the trace
// view's canvas (same colours, level of detail, selection): the plan at its
// real shapes, or, after a run, the run as measured above the prediction of
// the same run (its shrunk shapes, on the same cluster), one row per rank
// in both, so rank r's two timelines sit one above the other; or, with a
// job's record that has timings, the job as recorded above the plan's
// prediction.
class PredictedTimelineWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    enum class Shown { Plan, Run, Job };

    explicit PredictedTimelineWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override;
    void showRun(const RunData& run) override;
    void showPrediction(const PlanResult& plan) override { showPlan(plan); }
    void showJob(const JobData& job) override;
    QList<ViewShot> screenshots() const override;
    // The parts: "plan" (the plan's predicted timeline), "run" (the run as
    // measured above its prediction, each under its title line) and "job"
    // (the job's record above the plan's prediction), "" the one
    // shown now; drawn from the canvases alone, without the Show box and the
    // caption beside it.
    QImage picture(const QSize& size, const QString& part) override;
    void paintPicture(QPaintDevice& target, const QSize& size, const QString& part) override;
    // As wide, and as tall as the timelines' rows need (a few ranks: short).
    QSize fittedPictureSize(const QSize& size, const QString& part) override;

    // Where the "run" picture of `size` puts the measured and the predicted
    // timeline, each under its title.
    struct RunPicture {
        QRect measuredTitle, measured, predictedTitle, predicted;
    };
    static RunPicture runPicture(const QSize& size);
    static constexpr int kPictureTitleHeight = 24;

    // Run: only once a run with a prediction is shown; Job: only with a
    // job's record with timings (else Plan stays).
    void setShown(Shown shown);
    Shown shown() const { return shown_; }
    bool canShowRun() const;
    bool canShowJob() const;
    TraceCanvas* recordedCanvas() const { return recordedCanvas_; }
    TraceCanvas* planCanvas() const { return planCanvas_; }
    TraceCanvas* measuredCanvas() const { return measuredCanvas_; }
    TraceCanvas* runPredictionCanvas() const { return runCanvas_; }
    TraceZoomBar* zoomBar() const { return zoomBar_; }
    QString caption() const;
    // The title line each picture draws above its timeline: the "plan"
    // picture's (cluster, step, trust: a prediction, said as one), or the
    // run picture's two.
    QString planTitle() const;
    QString measuredTitle() const;
    QString predictedTitle() const;
    QString recordedTitle() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitLabels();
    void refresh();
    void shareTimeAxes(bool job);
    QString planCaption() const;
    QString runCaption() const;
    QString jobCaption() const;
    QString jobPredictedTitle() const;
    // What `part` draws ("" the one shown now), falling back to the plan.
    Shown drawn(const QString& part) const;

    PlanResult plan_;
    RunData run_;
    JobData job_;
    Shown shown_ = Shown::Plan;
    QComboBox* choice_;
    QLabel* caption_;
    QLabel* measuredTitle_;
    QLabel* predictedTitle_;
    QLabel* recordedTitle_;
    QLabel* planTitle_;
    TraceCanvas* planCanvas_;
    TraceCanvas* measuredCanvas_;
    TraceCanvas* runCanvas_;
    TraceCanvas* recordedCanvas_;
    TraceZoomBar* zoomBar_;
};

}  // namespace hsdp
