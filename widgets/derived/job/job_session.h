// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QStringList>
#include <QThreadPool>

#include "derived/job/job_data.h"
#include "derived/plan/job_tracker.h"

namespace hsdp {

// Reads a job's record (Flight Recorder dumps: files or folders) and checks
// it against a plan off the GUI thread, one job at a time, shaped like
// RunSession::open: checked() with the result on the GUI thread, or
// openFailed() with the reader's message (JobRecordError: the file, the
// place in it and what was expected). The record is kept: recheck() holds it
// against another plan of the same scenario (an edit) without reading it
// again. A newer open, recheck or cancel() drops a result still under way.
class JobSession : public QObject {
    Q_OBJECT
public:
    explicit JobSession(QObject* parent = nullptr);
    ~JobSession() override;  // waits for a job under way

    // Starts reading `paths` and checking them against `plan`; false (nothing
    // happens) for an invalid plan or no paths.
    bool open(const PlanResult& plan, const QStringList& paths);
    // Checks the current record against `plan`; false when there is none.
    bool recheck(const PlanResult& plan);
    // Forgets the record (another scenario opened); a job under way is dropped.
    void clear();
    void cancel();
    bool isBusy() const { return busy_; }
    const JobData& current() const { return current_; }  // last checked (invalid: none)

signals:
    void checked(const hsdp::JobData& job);
    void openFailed(const QString& reason);
    void busyChanged(bool busy);

private:
    struct Outcome {
        JobData job;
        QString error;
    };
    template <typename Compute>
    void start(Compute compute);
    void setBusy(bool busy);

    QThreadPool pool_;
    JobTracker jobs_{this};
    JobData current_;
    QStringList opening_;  // the paths being read, while an open is under way
    bool busy_ = false;
};

}  // namespace hsdp
