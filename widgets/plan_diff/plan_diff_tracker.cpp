// SPDX-License-Identifier: Apache-2.0
#include "plan_diff/plan_diff_tracker.h"

#include <QFileInfo>

#include "derived/run/plan_prediction.h"
#include "types/stopped.h"

namespace hsdp {

// Everything a job needs, copied: the job must not touch the tracker.
struct PlanDiffTracker::Request {
    Mode mode = Mode::SinceLastChange;
    PlanResult current;
    PlanResult previous;
    QString previousTime;
    QString referencePath;
    PlanResult reference;  // invalid: read and plan referencePath first
};

struct PlanDiffTracker::Outcome {
    PlanDiffTable change;
    PlanResult reference;
    QString error;
};

namespace {

QString fileName(const QString& path) {
    return documentName(path);
}

}  // namespace

PlanDiffTracker::PlanDiffTracker(QObject* parent) : QObject(parent) {
    qRegisterMetaType<hsdp::PlanDiffTable>();
    pool_.setMaxThreadCount(1);
}

PlanDiffTracker::~PlanDiffTracker() {
    pool_.waitForDone();
}

void PlanDiffTracker::planArrived(const PlanResult& result) {
    if (!result.isValid()) return;
    bool sameDocument = current_.isValid() && result.path == current_.path;
    if (!sameDocument) {
        pinned_ = false;
        compareError_.clear();  // said of the document that left
        // A comparison with a file was asked of the document that left: the
        // next one compared with it read "before: tour.json · after:
        // c_2x4x2.json, 579 params added".
        if (current_.isValid()) leaveFileComparison();
    }
    if (!pinned_) {
        previous_ = sameDocument ? current_ : PlanResult{};
        previousTime_ = sameDocument ? currentTime_ : QDateTime();
    }
    current_ = result;
    currentTime_ = QDateTime::currentDateTime();
    startJob();
}

void PlanDiffTracker::predictionArrived(const PlanResult& result) {
    if (!current_.isValid() || result.plan != current_.plan) return;
    current_ = result;
    // Compared again only where a prediction can differ: against the plan it
    // replaced, when that one was predicted too, or against a file (costed
    // on the same cluster then).
    if ((mode_ == Mode::SinceLastChange && previous_.isValid() && previous_.prediction) ||
        mode_ == Mode::AgainstFile)
        startJob();
}

void PlanDiffTracker::pinBaseline() {
    if (!current_.isValid()) return;
    previous_ = current_;
    previousTime_ = currentTime_;
    pinned_ = true;
}

void PlanDiffTracker::startAfresh() {
    current_ = {};
    previous_ = {};
    pinned_ = false;
    leaveFileComparison();
}

void PlanDiffTracker::leaveFileComparison() {
    if (mode_ != Mode::AgainstFile) return;
    mode_ = Mode::SinceLastChange;
    referencePath_.clear();
    reference_ = {};
    emit modeChanged();
}

void PlanDiffTracker::compareWith(const QString& path) {
    compareError_.clear();
    mode_ = Mode::AgainstFile;
    referencePath_ = QFileInfo(path).absoluteFilePath();
    reference_ = {};
    emit modeChanged();
    startJob();
}

void PlanDiffTracker::compareSinceLastChange() {
    if (mode_ == Mode::SinceLastChange) return;
    mode_ = Mode::SinceLastChange;
    referencePath_.clear();
    reference_ = {};
    emit modeChanged();
    startJob();
}

PlanDiffTracker::Outcome PlanDiffTracker::run(const Request& request, const std::stop_token& stop) {
    Outcome out;
    const PlanResult& current = request.current;
    const QString currentName = fileName(current.path);
    if (request.mode == Mode::AgainstFile) {
        out.reference = request.reference;
        try {
            if (!out.reference.isValid()) out.reference = computePlanResult(request.referencePath);
        } catch (const std::exception& error) {
            out.error = QString::fromStdString(error.what());
            return out;
        }
        // Costed on the cluster the open plan is, so the comparison has the
        // step time and memory of both (it had the imbalance rows only).
        const auto cluster = current.prediction ? current.prediction->cluster : nullptr;
        if (out.reference.isValid() && cluster &&
            (!out.reference.prediction || out.reference.prediction->cluster != cluster))
            out.reference.prediction = predictPlan(out.reference, cluster, stop);
        if (!current.isValid()) {
            out.change.note = QObject::tr("Open a scenario to compare it with %1")
                                  .arg(fileName(request.referencePath));
            return out;
        }
        out.change = computePlanChange(current, out.reference, CurrentSide::Before,
                                       QObject::tr("%1 (open)").arg(currentName),
                                       fileName(request.referencePath), stop);
        return out;
    }
    if (!current.isValid() || !request.previous.isValid()) {
        out.change.note =
            current.isValid()
                ? QObject::tr(
                      "No change since %1 was opened: edit or save it to see what moves, "
                      "or compare it with another file (File ▸ Compare with…).")
                      .arg(currentName)
                : QObject::tr("No scenario open.");
        return out;
    }
    out.change = computePlanChange(request.previous, current, CurrentSide::After,
                                   QObject::tr("plan of %1").arg(request.previousTime),
                                   QObject::tr("now"), stop);
    return out;
}

void PlanDiffTracker::startJob() {
    Request request{mode_,          current_,
                    previous_,      previousTime_.toString(QStringLiteral("HH:mm:ss")),
                    referencePath_, reference_};
    bool wasBusy = jobs_.isJobRunning();
    // A new job replaces any running one: JobTracker drops the older result.
    jobs_.startJob(
        pool_,
        [request = std::move(request)](std::stop_token stop) {
            try {
                return run(request, stop);
            } catch (const Stopped&) {
                return Outcome{};  // replaced by a newer job: JobTracker drops it
            }
        },
        [this](Outcome outcome) { finishJob(std::move(outcome)); });
    if (!wasBusy) emit busyChanged(true);
}

void PlanDiffTracker::finishJob(Outcome outcome) {
    if (!jobs_.isJobRunning()) emit busyChanged(false);
    if (!outcome.error.isEmpty()) {
        // Kept until the next comparison asked for: the re-comparison
        // started below must not wipe it.
        compareError_ = outcome.error;
        mode_ = Mode::SinceLastChange;
        referencePath_.clear();
        emit modeChanged();
        emit compareFailed(outcome.error);
        startJob();  // show what changed since the last change again
        return;
    }
    if (mode_ == Mode::AgainstFile) reference_ = outcome.reference;
    change_ = std::move(outcome.change);
    emit diffReady(change_);
}

}  // namespace hsdp
