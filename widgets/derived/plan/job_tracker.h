// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <atomic>
#include <cstdint>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "runtime/allocator_policy.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace hsdp {

// How a tracker's jobs share the machine with the studio's own: Background
// jobs (a prediction, a plan diff, a strategy comparison) run at nice 10, so
// that the next edit's re-plan and the GUI thread come first on a loaded
// machine (at 131,072 ranks a stale diff took half of a 2-core machine
// while the edit it preceded re-planned) and still run whenever a core is free.
enum class JobPriority { Normal, Background };

inline void lowerThisThreadsPriority() {
#ifdef __linux__
    // Per thread on Linux: the calling thread only, not the process.
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

// Runs jobs on a thread pool and hands each result back on the context's
// thread, but only if no newer job was started meanwhile: the results of a
// replaced job are dropped (hotspot's jobtracker), and a job replaced before
// it started never runs (typing in the edit panel queues one per key). A job
// that takes a std::stop_token is asked to stop once replaced or cancelled:
// at 131,072 ranks a stale prediction would otherwise hold a core for
// seconds while the next plan waits for it. The owner must wait for the pool
// before it dies (Session does, in its destructor).
class JobTracker {
public:
    explicit JobTracker(QObject* context, JobPriority priority = JobPriority::Normal)
        : context_(context), priority_(priority) {}

    bool isJobRunning() const { return running_ > 0; }

    // Drops the running job's result and asks it to stop.
    void cancel() {
        ++jobId_;
        stop_.request_stop();
    }

    template <typename Job, typename Then>
    void startJob(QThreadPool& pool, Job&& job, Then&& then) {
        stop_.request_stop();
        stop_ = std::stop_source();
        const quint64 id = ++jobId_;
        ++running_;
        pool.start([this, id, stop = stop_.get_token(), job = std::forward<Job>(job),
                    then = std::forward<Then>(then)]() mutable {
            if (id != jobId_.load()) {
                QMetaObject::invokeMethod(
                    context_, [this] { --running_; }, Qt::QueuedConnection);
                return;
            }
            if (priority_ == JobPriority::Background) lowerThisThreadsPriority();
            auto result = [&] {
                if constexpr (std::is_invocable_v<Job&, std::stop_token>)
                    return job(stop);
                else
                    return job();
            }();
            // What the job freed goes back to the system: its thread's arena
            // would keep it (GiB after a 131,072-rank prediction), and no
            // other thread's allocations reuse it.
            returnFreedMemory();
            QMetaObject::invokeMethod(
                context_,
                [this, id, result = std::move(result), then = std::move(then)]() mutable {
                    --running_;
                    if (id == jobId_) then(std::move(result));
                },
                Qt::QueuedConnection);
        });
    }

private:
    QObject* context_;
    JobPriority priority_;
    std::atomic<quint64> jobId_ = 0;  // written on the context's thread only
    std::stop_source stop_;           // the latest job's; touched on the context's thread only
    int running_ = 0;                 // touched on the context's thread only
};

}  // namespace hsdp
