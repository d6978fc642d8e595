// SPDX-License-Identifier: Apache-2.0
#include "trace/predicted_timeline_widget.h"

#include <QPainter>
#include <QStandardItemModel>
#include <algorithm>

#include "cost/plan_cost.h"
#include "derived/run/plan_prediction.h"
#include "trace/trace_canvas.h"
#include "trace/trace_zoom_bar.h"
#include "types/figures.h"

namespace hsdp {

namespace {

QString duration(double seconds) {
    return QString::fromStdString(durationText(seconds));
}

QLabel* titleLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setStyleSheet(QStringLiteral("font-weight: bold; padding-left: 6px;"));
    label->setWordWrap(true);  // a title cut at the dock's edge lost its last clause
    return label;
}

}  // namespace

PredictedTimelineWidget::PredictedTimelineWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      choice_(new QComboBox(this)),
      caption_(new QLabel(this)),
      measuredTitle_(titleLabel(this)),
      predictedTitle_(titleLabel(this)),
      recordedTitle_(titleLabel(this)),
      planTitle_(titleLabel(this)),
      planCanvas_(new TraceCanvas(selection, this)),
      measuredCanvas_(new TraceCanvas(selection, this)),
      runCanvas_(new TraceCanvas(selection, this)),
      recordedCanvas_(new TraceCanvas(selection, this)) {
    choice_->addItem(tr("the plan at real size"));
    choice_->addItem(tr("the last run: measured above, predicted below"));
    choice_->addItem(tr("the job's record: recorded above, predicted below"));
    caption_->setWordWrap(true);
    // A short bottom dock scrolls rather than squeezing two timelines into it.
    for (TraceCanvas* canvas : {planCanvas_, measuredCanvas_, runCanvas_, recordedCanvas_})
        canvas->setMinimumHeight(220);
    recordedCanvas_->setTimeAxisTitle(tr("time since the first enqueue"));
    // A prediction starts at its step's start, not at a run's: there may be no run.
    planCanvas_->setTimeAxisTitle(tr("predicted time since step start"));
    // Beside a run, the prediction starts where the measured step does.
    runCanvas_->setTimeAxisTitle(tr("time since run start"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 0);
    bar->addWidget(new QLabel(tr("Show"), this));
    bar->addWidget(choice_);
    bar->addStretch(1);
    zoomBar_ = new TraceZoomBar({planCanvas_, measuredCanvas_, runCanvas_, recordedCanvas_}, this);
    bar->addWidget(zoomBar_, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    // The caption on a row of its own, the view's whole width: beside the
    // combo box it wrapped to more lines than the bar's height and was cut.
    caption_->setContentsMargins(6, 0, 6, 0);
    layout->addWidget(caption_);
    layout->addWidget(recordedTitle_);
    layout->addWidget(recordedCanvas_, 1);
    layout->addWidget(planTitle_);
    layout->addWidget(planCanvas_, 2);
    layout->addWidget(measuredTitle_);
    layout->addWidget(measuredCanvas_, 1);
    layout->addWidget(predictedTitle_);
    layout->addWidget(runCanvas_, 1);
    connect(choice_, &QComboBox::activated, this, [this](int index) { setShown(Shown(index)); });
    refresh();
}

void PredictedTimelineWidget::showPlan(const PlanResult& plan) {
    plan_ = plan;
    const PlanPrediction* prediction = plan.prediction.get();
    if (prediction && prediction->timeline)
        planCanvas_->setRun(RunData{plan, prediction->timeline}, prediction->rows);
    else
        planCanvas_->setRun({});
    // A run of another plan (or of no cluster) is no longer this view's.
    if (run_.isValid() && run_.plan.plan != plan.plan) run_ = {};
    refresh();
}

void PredictedTimelineWidget::showRun(const RunData& run) {
    run_ = run;
    if (canShowRun()) {
        measuredCanvas_->setRun(run, run.prediction->measuredRows);
        runCanvas_->setRun(RunData{run.plan, run.prediction->timeline}, run.prediction->rows);
    } else {
        measuredCanvas_->setRun({});
        runCanvas_->setRun({});
    }
    if (canShowRun()) shown_ = Shown::Run;  // a new run is what the user wants to compare
    refresh();
}

// A job's record with timings: drawn above the plan's prediction, and shown
// as it opens (what the user opened it for).
void PredictedTimelineWidget::showJob(const JobData& job) {
    job_ = job;
    if (canShowJob())
        recordedCanvas_->setRun(RunData{job.plan, job.recordedRun}, job.recordedRows);
    else
        recordedCanvas_->setRun({});
    if (canShowJob() && job.opened) shown_ = Shown::Job;
    refresh();
}

// Two timelines one above the other are read against each other: they
// share one time axis (the later end), or a step 9× longer than its
// prediction would look as long as it. The plan's prediction alone fits
// its own step.
void PredictedTimelineWidget::shareTimeAxes(bool job) {
    const auto share = [](TraceCanvas* above, TraceCanvas* below, bool shown) {
        const auto [begin, end] =
            shown ? TraceCanvas::jointExtent(*above, *below) : std::pair<double, double>{0, 0};
        for (TraceCanvas* canvas : {above, below}) canvas->setCommonExtent(begin, end);
    };
    share(measuredCanvas_, runCanvas_, true);
    share(recordedCanvas_, planCanvas_, job);
}

bool PredictedTimelineWidget::canShowRun() const {
    return run_.isValid() && run_.prediction && run_.prediction->timeline;
}

bool PredictedTimelineWidget::canShowJob() const {
    return job_.isValid() && job_.recordedRun && job_.plan.plan == plan_.plan;
}

void PredictedTimelineWidget::setShown(Shown shown) {
    shown_ = shown;
    refresh();
}

void PredictedTimelineWidget::refresh() {
    if ((shown_ == Shown::Run && !canShowRun()) || (shown_ == Shown::Job && !canShowJob()))
        shown_ = Shown::Plan;
    const bool run = shown_ == Shown::Run, job = shown_ == Shown::Job;
    choice_->setCurrentIndex(int(shown_));
    if (auto* items = qobject_cast<QStandardItemModel*>(choice_->model())) {
        items->item(int(Shown::Run))->setEnabled(canShowRun());
        items->item(int(Shown::Job))->setEnabled(canShowJob());
    }
    choice_->setEnabled(canShowRun() || canShowJob());
    planCanvas_->setVisible(!run);
    for (QWidget* w :
         {static_cast<QWidget*>(measuredTitle_), static_cast<QWidget*>(measuredCanvas_),
          static_cast<QWidget*>(predictedTitle_), static_cast<QWidget*>(runCanvas_)})
        w->setVisible(run);
    for (QWidget* w : {static_cast<QWidget*>(recordedTitle_),
                       static_cast<QWidget*>(recordedCanvas_), static_cast<QWidget*>(planTitle_)})
        w->setVisible(job);
    shareTimeAxes(job);
    caption_->setText(caption());
    if (run) {
        measuredTitle_->setText(measuredTitle());
        predictedTitle_->setText(predictedTitle());
    }
    if (job) {
        recordedTitle_->setText(recordedTitle());
        planTitle_->setText(jobPredictedTitle());
    }
    fitLabels();
}

// A wrapped label's height for its width, as its minimum: in a short dock
// the scroll area gives the view its minimum height, which counted one line
// of each and cut the rest.
void PredictedTimelineWidget::fitLabels() {
    // The layout has placed the labels by the time the view's resize event
    // comes (its own handler runs first): their widths are the ones to fit.
    for (QLabel* label : {caption_, measuredTitle_, predictedTitle_, recordedTitle_, planTitle_}) {
        const int wide = label->width() > 0 ? label->width() : width();
        label->setMinimumHeight(label->text().isEmpty() ? 0 : label->heightForWidth(wide));
    }
}

void PredictedTimelineWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitLabels();
}

// "Recorded by the job: training steps 3–4, 1,234 collectives timed, from the
// first enqueue to the last end 1.23 s"
QString PredictedTimelineWidget::recordedTitle() const {
    const QString steps = job_.firstStep == job_.lastStep
                              ? tr("training step %1").arg(job_.firstStep)
                              : tr("training steps %1–%2").arg(job_.firstStep).arg(job_.lastStep);
    QString text = tr("Recorded by the job (%1, %2 per-rank entries timed, each from its "
                      "enqueue for its measured duration): %3 from the first enqueue to the "
                      "last end")
                       .arg(steps, QString::fromStdString(groupedCount(job_.timedEntries)),
                            duration(job_.recordedRun->stepSeconds));
    if (job_.openEntries > 0)
        text += tr("; %1 never completed, drawn open to the dumps' newest time")
                    .arg(QString::fromStdString(groupedCount(job_.openEntries)));
    if (job_.untimedEntries > 0)
        text += tr("; %1 without a duration, not drawn")
                    .arg(QString::fromStdString(groupedCount(job_.untimedEntries)));
    if (job_.recordedRanksDrawn < job_.ranks)
        text += tr("; rows of %1 of the %2 ranks, evenly spaced")
                    .arg(job_.recordedRanksDrawn)
                    .arg(QString::fromStdString(groupedCount(job_.ranks)));
    return text;
}

QString PredictedTimelineWidget::measuredTitle() const {
    const RunResult& measured = *run_.run;
    // The step is part of the run: "2.12 s wall" in the status bar is the
    // whole run (the single-device truth and the checks too), said beside.
    return tr("Measured on this machine (%1): the optimizer step %2 wall, of the whole run's %3")
        .arg(measured.shrink ? tr("shrunk shapes") : tr("real shapes"),
             duration(measured.stepSeconds), duration(measured.seconds));
}

QString PredictedTimelineWidget::predictedTitle() const {
    const RunPrediction& predicted = *run_.prediction->prediction;
    // A GPU cluster's step is no prediction of this machine's: said beside
    // the figure, where the eye compares it with the measured one above.
    const bool otherHardware = !run_.prediction->cluster->describesEngineRuns();
    return tr("Predicted on %1%2 at the run's %3: step %4")
        .arg(clusterText(predicted.cost),
             otherHardware ? tr(" (GPUs, not this machine: no prediction of this run)") : QString(),
             run_.run->shrink ? tr("shrunk shapes") : tr("real shapes"),
             duration(predicted.predictedSeconds));
}

QString PredictedTimelineWidget::planTitle() const {
    const PlanPrediction* prediction = plan_.prediction.get();
    if (!prediction || !prediction->cost) return {};
    const PlanCost& cost = *prediction->cost;
    // A step that cannot run says so first: its time alone read as a plan to take.
    const QString memory = outOfMemoryText(cost);
    return (memory.isEmpty() ? QString() : tr("Does not fit (%1): ").arg(memory)) +
           tr("Predicted, not measured: the step on %1 at real shapes, %2 %3 (rank %4 ends "
              "last)")
               .arg(clusterText(cost), duration(cost.stepSeconds),
                    QString::fromStdString(cost.cluster.trustText()))
               .arg(cost.lastRank);
}

QString PredictedTimelineWidget::caption() const {
    switch (shown_) {
        case Shown::Run:
            return runCaption();
        case Shown::Job:
            return jobCaption();
        case Shown::Plan:
            break;
    }
    return planCaption();
}

// Under the recorded timeline: the plan's title, or why there is no prediction.
QString PredictedTimelineWidget::jobPredictedTitle() const {
    const QString title = planTitle();
    return title.isEmpty() ? planCaption() : title;
}

QString PredictedTimelineWidget::jobCaption() const {
    const PlanPrediction* prediction = plan_.prediction.get();
    const QString record =
        tr("The job's recorded collectives (its Flight Recorder dumps, or the Kineto traces of "
           "ranks without one) as the plan's collectives (compute is not recorded)");
    if (!prediction || !prediction->cost)
        return record + tr(", above no prediction: the Cluster menu chooses the cluster to "
                           "predict the step on.");
    // The CLI prices recorded times on loopback unless told: the same cluster
    // is named so that its figures and this picture agree.
    return record +
           tr(", above the plan's predicted step on %1: %2 per step; both on one time axis. "
              "check-job --cluster %3 prices the recorded collectives on the same cluster.")
               .arg(clusterText(*prediction->cost), duration(prediction->cost->stepSeconds),
                    QString::fromStdString(prediction->cost->cluster.name));
}

QString PredictedTimelineWidget::planCaption() const {
    if (!plan_.isValid()) return tr("No plan.");
    const PlanPrediction* prediction = plan_.prediction.get();
    if (!prediction)
        return tr(
            "No prediction of this plan (yet): the Cluster menu chooses the cluster the "
            "step is predicted on.");
    if (!prediction->cost) return tr("No prediction: %1").arg(prediction->error);
    const PlanCost& cost = *prediction->cost;
    // A step that cannot run says so before its time (the picture's title did, the view did not).
    const QString memory = outOfMemoryText(cost);
    QString text =
        (memory.isEmpty() ? QString() : tr("Does not fit (%1): ").arg(memory)) +
        tr("Predicted on %1 at real shapes: step %2 %5 (makespan; rank %3 ends last), "
           "%4 collectives")
            .arg(clusterText(cost), duration(cost.stepSeconds))
            .arg(cost.lastRank)
            .arg(QString::fromStdString(groupedCount(int64_t(cost.schedule.collectives.size()))))
            .arg(QString::fromStdString(cost.cluster.trustText()));
    // The assumption that weighs most on the step: Newton-Schulz in bf16 runs
    // several times faster than in fp32 (options.newton_schulz.dtype).
    const NewtonSchulzOptions& ns = cost.schedule.newtonSchulz;
    text += tr("; Newton–Schulz in %1, %2 steps")
                .arg(ns.dtype == DType::BF16 ? QStringLiteral("bf16") : QStringLiteral("fp32"))
                .arg(ns.steps);
    const int world = int(cost.schedule.ranks.size());
    if (world > kPredictedTraceRanks)
        text += tr("; rows of %1 of the %2 ranks, evenly spaced, and the one that ends last")
                    .arg(kPredictedTraceRanks)
                    .arg(QString::fromStdString(groupedCount(world)));
    return text;
}

QString PredictedTimelineWidget::runCaption() const {
    const RunPrediction& predicted = *run_.prediction->prediction;
    const QString error =
        predicted.makespanRelError
            ? QString::number(*predicted.makespanRelError * 100, 'f', 0) + QStringLiteral(" %")
            : tr("not measured");
    const QString collectives =
        QString::number(predicted.collectiveMedianAbsRelError * 100, 'f', 0);
    // The other presets describe other hardware: the gap is the distance to
    // it, not the model's error, and says so first (a new user read "makespan
    // error 99 %" as a broken model). As a ratio: |p - m| / m stops at 100 %
    // however far below the measured time the prediction is (840x read "100 %").
    if (!run_.prediction->cluster->describesEngineRuns()) {
        const bool measured = predicted.measuredSeconds > 0 && predicted.predictedSeconds > 0;
        return tr("%1 describes GPUs, not this machine, so its prediction is not this run's: "
                  "this machine's step took %2 the predicted one, a distance to that hardware, "
                  "not the model's error (loopback or a calibrated file measures that)")
            .arg(QString::fromStdString(run_.prediction->cluster->name),
                 measured ? QString::fromStdString(
                                ratioText(predicted.measuredSeconds / predicted.predictedSeconds))
                          : tr("an unmeasured share of"));
    }
    if (predicted.collectives.empty())
        return tr("Predicted against measured, on one time axis: makespan error %1; no "
                  "collective over more than one rank to compare")
            .arg(error);
    return tr("Predicted against measured, on one time axis (the prediction starts where the "
              "measured step does): makespan error %1; "
              "per-collective median error %2 % over %3 collectives")
        .arg(error, collectives)
        .arg(predicted.collectives.size());
}

QList<ViewShot> PredictedTimelineWidget::screenshots() const {
    QList<ViewShot> shots;
    if (plan_.prediction && plan_.prediction->timeline)
        shots.append(ViewShot{{}, QSize(1600, 900), QStringLiteral("plan")});
    if (canShowRun())
        shots.append(ViewShot{QStringLiteral("predicted-vs-measured.png"), QSize(1600, 900),
                              QStringLiteral("run")});
    if (canShowJob())
        shots.append(ViewShot{QStringLiteral("recorded-vs-predicted.png"), QSize(1600, 900),
                              QStringLiteral("job")});
    return shots;
}

// A part names the timeline; none, the one shown now. The run's and the
// job's only while there is one to draw.
PredictedTimelineWidget::Shown PredictedTimelineWidget::drawn(const QString& part) const {
    const Shown wanted = part.isEmpty()                 ? shown_
                         : part == QLatin1String("run") ? Shown::Run
                         : part == QLatin1String("job") ? Shown::Job
                                                        : Shown::Plan;
    if (wanted == Shown::Run && canShowRun()) return Shown::Run;
    if (wanted == Shown::Job && canShowJob()) return Shown::Job;
    return Shown::Plan;
}

PredictedTimelineWidget::RunPicture PredictedTimelineWidget::runPicture(const QSize& size) {
    const int canvas = std::max(0, size.height() - 2 * kPictureTitleHeight) / 2;
    RunPicture picture;
    picture.measuredTitle = QRect(0, 0, size.width(), kPictureTitleHeight);
    picture.measured = QRect(0, kPictureTitleHeight, size.width(), canvas);
    picture.predictedTitle =
        QRect(0, picture.measured.bottom() + 1, size.width(), kPictureTitleHeight);
    picture.predicted = QRect(0, picture.predictedTitle.bottom() + 1, size.width(),
                              size.height() - picture.predictedTitle.bottom() - 1);
    return picture;
}

QSize PredictedTimelineWidget::fittedPictureSize(const QSize& size, const QString& part) {
    const Shown shown = drawn(part);
    if (shown == Shown::Plan)
        return {size.width(), kPictureTitleHeight + planCanvas_->fittedHeight(std::max(
                                                        0, size.height() - kPictureTitleHeight))};
    const RunPicture picture = runPicture(size);
    const bool run = shown == Shown::Run;
    // Both timelines at the row height the shorter share gives (one row per rank in each).
    const int canvas =
        std::max((run ? measuredCanvas_ : recordedCanvas_)->fittedHeight(picture.measured.height()),
                 (run ? runCanvas_ : planCanvas_)->fittedHeight(picture.predicted.height()));
    return {size.width(), 2 * (kPictureTitleHeight + canvas)};
}

QImage PredictedTimelineWidget::picture(const QSize& size, const QString& part) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    paintPicture(image, size, part);
    return image;
}

void PredictedTimelineWidget::paintPicture(QPaintDevice& target, const QSize& size,
                                           const QString& part) {
    // A canvas into `area` over the window [t0, t1] µs.
    auto paintCanvas = [](QPainter& painter, TraceCanvas& canvas, const QRect& area,
                          std::pair<double, double> window) {
        painter.save();
        painter.translate(area.topLeft());
        painter.setClipRect(QRect(QPoint(0, 0), area.size()));
        canvas.paintTimeline(painter, area.size(), window.first, window.second);
        painter.restore();
    };
    auto paintTitles = [this](QPainter& painter,
                              const std::vector<std::pair<QRect, QString>>& titles) {
        painter.save();
        QFont bold = painter.font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(palette().color(QPalette::WindowText));
        for (const auto& [area, text] : titles) {
            // A long title (the trust text of a prediction) is set smaller,
            // down to 70 %, before it is cut: a report's title lost its end.
            QFont font = bold;
            const double room = area.width() - 12;
            const double width = QFontMetricsF(bold).horizontalAdvance(text);
            if (width > room) font.setPointSizeF(bold.pointSizeF() * std::max(0.7, room / width));
            painter.setFont(font);
            painter.drawText(area.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter,
                             painter.fontMetrics().elidedText(text, Qt::ElideRight, int(room)));
        }
        painter.restore();
    };
    const Shown shown = drawn(part);
    if (shown == Shown::Plan) {
        paintOnWhite(target, size, [&](QPainter& painter) {
            paintTitles(painter, {{QRect(0, 0, size.width(), kPictureTitleHeight), planTitle()}});
            paintCanvas(painter, *planCanvas_,
                        QRect(0, kPictureTitleHeight, size.width(),
                              std::max(0, size.height() - kPictureTitleHeight)),
                        {planCanvas_->windowStart(), planCanvas_->windowEnd()});
        });
        return;
    }
    const RunPicture picture = runPicture(size);
    const bool run = shown == Shown::Run;
    TraceCanvas& above = run ? *measuredCanvas_ : *recordedCanvas_;
    TraceCanvas& below = run ? *runCanvas_ : *planCanvas_;
    // One time axis for both, whichever the view shows on screen now.
    const auto [begin, end] = TraceCanvas::jointExtent(above, below);
    const auto window = TraceCanvas::fittedWindow(begin, end);
    paintOnWhite(target, size, [&](QPainter& painter) {
        paintTitles(painter,
                    {{picture.measuredTitle, run ? measuredTitle() : recordedTitle()},
                     {picture.predictedTitle, run ? predictedTitle() : jobPredictedTitle()}});
        paintCanvas(painter, above, picture.measured, window);
        paintCanvas(painter, below, picture.predicted, window);
    });
}

}  // namespace hsdp
