// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "cluster/cluster.h"
#include "derived/plan/job_tracker.h"
#include "derived/run/run_data.h"
#include "runtime/world.h"
#include "verify/run_result.h"

namespace hsdp {

// What the user asks of one run: RunOptions minus what the session owns
// (progress, cancel, the trace recorder). Defaults are hsdp-inspect run's.
struct RunRequest {
    RunMode mode = RunMode::Corrected;
    std::chrono::milliseconds timeout{60000};  // every collective
    int64_t maxBytes = int64_t(2) << 30;       // larger runs shrink (docs/run.md §6)
    double flopBudget = 4e10;                  // Newton–Schulz work; larger runs shrink
    std::optional<FaultSpec> fault;            // rank R fails at its K-th collective
    // The cluster a finished run is predicted on, at its own shapes (null: none).
    std::shared_ptr<const Cluster> cluster;

    bool operator==(const RunRequest&) const = default;
};

// Runs plans for real off the GUI thread, one run at a time, shaped like
// Session: the engine's runPlan on its own thread pool, the result handed
// back as RunData on the GUI thread. While it runs, a 20 Hz timer on the GUI
// thread reports what the rank threads last said (phase, fraction) and how
// many collectives completed, so the GUI thread never waits on a rank and
// never sees more than ~20 updates a second. cancel() stops the run at the
// next collective (every rank checks before each one; measured on the 70B
// sample: 0.1-0.5 s), or while it prepares at the next parameter's
// single-device result. A cancelled or failed run still delivers what it
// recorded.
class RunSession : public QObject {
    Q_OBJECT
public:
    explicit RunSession(QObject* parent = nullptr);
    ~RunSession() override;  // cancels a running run and waits for it

    // Starts running `plan`; false (nothing happens) while a run is going or
    // for an invalid plan.
    bool start(const PlanResult& plan, const RunRequest& request = {});
    // Opens a saved run of `plan` instead: the `run --json` result at
    // `runPath` and its `--trace` file (may be empty), read and checked
    // against the plan's scenario off the GUI thread. Delivers finished() or
    // openFailed() with the reason; false while a run is going.
    bool open(const PlanResult& plan, const QString& runPath, const QString& tracePath);
    void cancel();
    bool isBusy() const { return jobs_.isJobRunning(); }
    bool isCancelling() const;
    const RunRequest& request() const { return request_; }  // of the current or last run

signals:
    // fraction 0..1 of the schedule, the phase rank 0 is in, collectives
    // completed so far (counted once per participating rank, as RunResult's).
    void progress(double fraction, const QString& phase, qint64 collectivesDone);
    void finished(const hsdp::RunData& data);
    void openFailed(const QString& reason);  // names the file and what does not belong
    void busyChanged(bool busy);

private:
    struct Live;  // shared between the GUI thread and the run's threads

    void finish(RunData data);
    void reportProgress();

    QThreadPool pool_;
    JobTracker jobs_{this};
    QTimer ticker_;
    RunRequest request_;
    std::shared_ptr<Live> live_;
};

}  // namespace hsdp
