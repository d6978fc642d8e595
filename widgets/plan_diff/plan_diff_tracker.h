// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QObject>
#include <QThreadPool>
#include <stop_token>

#include "derived/plan/job_tracker.h"
#include "plan_diff/plan_diff_table.h"

namespace hsdp {

// What the "What changed" panel compares, and the comparing itself (off the
// GUI thread, like Session: a diff of thousands of params on thousands of
// ranks is not instant). Two modes:
// - since the last change (the default): every new plan of the same document
//   (a re-read after the file changed on disk, a reload, an in-memory edit)
//   is compared with the plan it replaces, the current plan being "after";
// - against a file: the current plan ("before") against another scenario
//   file ("after"), re-compared whenever the current plan changes, until
//   another document opens (back to the first mode).
// Feed it every new plan with planArrived(); it emits diffReady with the
// result (an invalid PlanDiffTable with a note when there is nothing to compare).
class PlanDiffTracker : public QObject {
    Q_OBJECT
public:
    enum class Mode { SinceLastChange, AgainstFile };

    explicit PlanDiffTracker(QObject* parent = nullptr);
    ~PlanDiffTracker() override;

    Mode mode() const { return mode_; }
    QString referencePath() const { return referencePath_; }
    const PlanResult& current() const { return current_; }
    const PlanDiffTable& change() const { return change_; }
    bool isBusy() const { return jobs_.isJobRunning(); }
    // Why the last Compare with… failed (the reader's message, which names
    // the file), until the next one or another document; "" otherwise.
    QString compareError() const { return compareError_; }

public slots:
    // A new plan for the studio's document: a plan of the same path replaces
    // the current one (and is compared with it), another path starts afresh.
    void planArrived(const hsdp::PlanResult& result);
    // The current plan's prediction came (Session::predictionReady): compared again with it.
    void predictionArrived(const hsdp::PlanResult& result);
    // Reads and plans `path` off the GUI thread and compares the current plan with it.
    void compareWith(const QString& path);
    // Back to comparing each plan with the one it replaces.
    void compareSinceLastChange();
    // Keeps the plan on screen now as "before" for the plans that follow
    // (until the next pin or unpinBaseline): one edit step re-plans on every
    // keystroke, and "what changed" means since the step began, not since the
    // last keystroke's plan.
    void pinBaseline();
    void unpinBaseline() { pinned_ = false; }
    // The next plan is of another document even if its path is the same (two
    // generated scenarios have none): it is not compared with this one.
    void startAfresh();

signals:
    void diffReady(const hsdp::PlanDiffTable& change);
    void compareFailed(const QString& message);  // the reference file does not read
    void busyChanged(bool busy);
    void modeChanged();

private:
    struct Request;
    struct Outcome;
    static Outcome run(const Request& request, const std::stop_token& stop);
    void startJob();
    void finishJob(Outcome outcome);
    void leaveFileComparison();  // back to SinceLastChange, without comparing

    Mode mode_ = Mode::SinceLastChange;
    PlanResult current_;
    PlanResult previous_;  // the plan current_ replaced (same path), or invalid
    bool pinned_ = false;  // previous_ stays until unpinned
    QDateTime previousTime_;
    QDateTime currentTime_;
    QString referencePath_;
    PlanResult reference_;  // the planned reference file, once read
    PlanDiffTable change_;
    QString compareError_;
    QThreadPool pool_;
    JobTracker jobs_{this, JobPriority::Background};
};

}  // namespace hsdp
