// SPDX-License-Identifier: Apache-2.0
#include "derived/run/run_session.h"

#include <QFile>
#include <algorithm>
#include <mutex>
#include <string>

#include "derived/plan/plan_result.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/run_index.h"
#include "export/run_figures.h"
#include "run/runner.h"
#include "runtime/allocator_policy.h"
#include "saved/saved_run.h"

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace hsdp {

namespace {

constexpr int kProgressIntervalMs = 50;  // at most 20 updates a second

// A run starts one thread per rank (32 on the 70B sample), all busy: at the
// same priority they crowd the GUI thread out of a small machine's cores
// for 50-100 ms at a time. On Linux the nice value is per thread and new
// threads inherit it, so lowering this pool thread's lowers every rank's.
void yieldToTheGuiThread() {
#ifdef Q_OS_LINUX
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

}  // namespace

// What the rank threads leave for the GUI thread's timer to pick up; the
// run's job keeps it alive until runPlan returns.
struct RunSession::Live {
    std::atomic<bool> cancel{false};
    TraceRecorder trace;  // thread-safe; its totals count completed collectives
    std::mutex mutex;
    double fraction = 0;  // guarded by mutex
    std::string phase;    // guarded by mutex
    // What the GUI thread last emitted (GUI thread only).
    double shownFraction = -1;
    QString shownPhase;
    qint64 shownCollectives = -1;
};

namespace {

RunOptions runOptions(const RunRequest& request) {
    RunOptions options;
    options.mode = request.mode;
    options.timeout = request.timeout;
    options.maxBytes = request.maxBytes;
    options.flopBudget = request.flopBudget;
    options.fault = request.fault;
    return options;
}

// runPlan reports failures in its result; only a plan that does not belong
// to its scenario throws, and the views still deserve a RunData saying so.
RunResult runOrExplain(const PlanResult& plan, const RunOptions& options) {
    try {
        RunResult run = runPlan(*plan.scenario, *plan.plan, options);
        noteRealSizeCollectives(*plan.scenario, *plan.plan, run);
        return run;
    } catch (const std::exception& error) {
        RunResult result;
        result.mode = options.mode;
        result.worldSize = plan.scenario->worldSize;
        result.error = error.what();
        result.cancelled = options.cancel && options.cancel->load();
        return result;
    }
}

}  // namespace

RunSession::RunSession(QObject* parent) : QObject(parent) {
    qRegisterMetaType<hsdp::RunData>();
    pool_.setMaxThreadCount(1);
    ticker_.setInterval(kProgressIntervalMs);
    connect(&ticker_, &QTimer::timeout, this, &RunSession::reportProgress);
}

RunSession::~RunSession() {
    cancel();
    pool_.waitForDone();
}

bool RunSession::start(const PlanResult& plan, const RunRequest& request) {
    if (isBusy() || !plan.isValid()) return false;
    request_ = request;
    // As hsdp-inspect run: rank threads free and re-fault whole gathered
    // tensors per batch; every munmap takes the address-space lock the GUI
    // thread's page faults need too. Only while the run lasts (finish()).
    useCachingAllocator();
    auto live = std::make_shared<Live>();
    live->phase = "preparing: shapes and single-device results";
    live_ = live;
    jobs_.startJob(
        pool_,
        [plan, request, live] {
            yieldToTheGuiThread();
            RunOptions options = runOptions(request);
            options.trace = &live->trace;
            options.cancel = &live->cancel;
            Live* shared = live.get();
            options.progress = [shared](double fraction, const std::string& phase) {
                std::lock_guard lock(shared->mutex);
                shared->fraction = std::max(shared->fraction, fraction);
                shared->phase = phase;
            };
            return preparedRun(plan, std::make_shared<const RunResult>(runOrExplain(plan, options)),
                               request.cluster);
        },
        [this](RunData data) { finish(std::move(data)); });
    ticker_.start();
    emit busyChanged(true);
    reportProgress();
    return true;
}

bool RunSession::open(const PlanResult& plan, const QString& runPath, const QString& tracePath) {
    if (isBusy() || !plan.isValid()) return false;
    using Outcome = std::pair<RunData, QString>;  // the run, or why it was refused
    jobs_.startJob(
        pool_,
        [plan, runPath, tracePath]() -> Outcome {
            try {
                RunResult run = openSavedRun(*plan.scenario, *plan.plan,
                                             QFile::encodeName(runPath).toStdString(),
                                             QFile::encodeName(tracePath).toStdString());
                return {preparedRun(plan, std::make_shared<const RunResult>(std::move(run)),
                                    plan.prediction ? plan.prediction->cluster : nullptr, runPath),
                        {}};
            } catch (const std::exception& error) {
                return {RunData{}, QString::fromStdString(error.what())};
            }
        },
        [this](Outcome outcome) {
            emit busyChanged(false);
            if (outcome.second.isEmpty())
                emit finished(outcome.first);
            else
                emit openFailed(outcome.second);
        });
    emit busyChanged(true);
    return true;
}

void RunSession::cancel() {
    if (live_) live_->cancel.store(true);
}

bool RunSession::isCancelling() const {
    return live_ && live_->cancel.load();
}

void RunSession::reportProgress() {
    if (!live_) return;
    double fraction;
    QString phase;
    {
        std::lock_guard lock(live_->mutex);
        fraction = live_->fraction;
        phase = QString::fromStdString(live_->phase);
    }
    const qint64 collectives = live_->trace.totals().collectives;
    if (fraction == live_->shownFraction && phase == live_->shownPhase &&
        collectives == live_->shownCollectives)
        return;
    live_->shownFraction = fraction;
    live_->shownPhase = phase;
    live_->shownCollectives = collectives;
    emit progress(fraction, phase, collectives);
}

void RunSession::finish(RunData data) {
    useTrimmingAllocator();
    releaseOffGuiThread(returnFreedMemory);
    ticker_.stop();
    reportProgress();  // the last word of the ranks, before the result
    live_.reset();
    emit busyChanged(false);
    emit finished(data);
}

}  // namespace hsdp
