// SPDX-License-Identifier: Apache-2.0
#include "derived/job/job_session.h"

#include <exception>

#include "job_record/job_record_error.h"

namespace hsdp {

JobSession::JobSession(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);
}

JobSession::~JobSession() {
    jobs_.cancel();
    pool_.waitForDone();
}

void JobSession::setBusy(bool busy) {
    if (busy == busy_) return;
    busy_ = busy;
    emit busyChanged(busy);
}

template <typename Compute>
void JobSession::start(Compute compute) {
    setBusy(true);
    jobs_.startJob(
        pool_,
        [compute = std::move(compute)](std::stop_token stop) mutable {
            Outcome outcome;
            try {
                outcome.job = compute(stop);
            } catch (const std::exception& error) {
                // JobRecordError's text names the file and the place in it,
                // as hsdp-inspect check-job prints it.
                outcome.error = QString::fromStdString(error.what());
            }
            return outcome;
        },
        [this](Outcome outcome) {
            opening_.clear();
            setBusy(false);
            if (!outcome.error.isEmpty()) {
                emit openFailed(outcome.error);
                return;
            }
            current_ = std::move(outcome.job);
            emit checked(current_);
        });
}

bool JobSession::open(const PlanResult& plan, const QStringList& paths) {
    if (!plan.isValid() || paths.isEmpty()) return false;
    opening_ = paths;
    // Cancel asks it to stop between files, not only drops its result.
    start([plan, paths](std::stop_token stop) { return computeJobData(plan, paths, stop); });
    return true;
}

bool JobSession::recheck(const PlanResult& plan) {
    // A record still being read is read against the new plan instead.
    if (busy_ && !opening_.isEmpty()) return open(plan, opening_);
    if (!current_.isValid() || !plan.isValid()) return false;
    start([job = current_, plan](std::stop_token) { return recheckJobData(job, plan); });
    return true;
}

void JobSession::clear() {
    cancel();
    current_ = {};
}

void JobSession::cancel() {
    jobs_.cancel();
    opening_.clear();
    setBusy(false);
}

}  // namespace hsdp
