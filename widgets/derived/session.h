// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include "cluster/cluster.h"
#include "derived/plan/job_tracker.h"
#include "derived/plan/plan_result.h"

namespace hsdp {

// One open scenario file, shaped like heaptrack's Parser: reads and plans it
// on a thread pool (the GUI thread never waits), emits planReady with plain
// result structs, or readFailed with the reader's message (the same text
// hsdp-inspect prints after "hsdp-inspect: "). Watches the file, including
// editors that save by writing a new file and renaming it over the old one,
// and re-plans after changes settle. A failed read keeps the last good
// result, which is then stale.
class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    void open(const QString& path);  // starts watching `path` and plans it
    void reload();                   // plans the current file again
    // Plans a document that has no file yet (a scenario generated from a
    // model config): no path, nothing watched; Save As gives it a file.
    void openDocument(std::shared_ptr<const Json> document);
    // Plans an edited document of the current file (the edit panel's), whose
    // last change was at `edited` (a JSON pointer). The file on disk is left
    // alone; results arrive as for a file, but an error names the field edited
    // (edit_error_text.h), never the file, and lastErrorPath() is `edited`.
    void planDocument(std::shared_ptr<const Json> document, const QString& edited = {});
    // The edit the plans still under way were made of was taken back (a text
    // that is no value put the field's old value back): their results are
    // dropped, and the plan on screen stays.
    void dropPendingPlans() { dropped_ = jobSerial_; }
    // While the user has unsaved edits, a change on disk must not replace
    // them: the session then only reports it (fileChangedOnDisk).
    void setFollowsFile(bool follows) { followsFile_ = follows; }

    QString path() const { return path_; }
    const PlanResult& current() const { return current_; }  // last good result
    bool hasResult() const { return current_.isValid(); }
    bool isStale() const { return stale_; }  // the file changed and no longer reads
    QString lastError() const { return lastError_; }
    // JSON pointer of the last error in the document ("" for the whole file).
    QString lastErrorPath() const { return lastErrorPath_; }
    // Whether the last error came from an edited document, not the file.
    bool lastErrorFromEdit() const { return lastErrorFromEdit_; }
    bool isBusy() const { return jobs_.isJobRunning(); }

    // Every plan from now on is costed on `cluster` (null: none), the one on
    // screen again at once. A plan is delivered first (planReady, without a
    // prediction) and costed after it off the GUI thread (predictionReady,
    // the same plan with its prediction), so that a prediction never delays
    // what the plan views show.
    void setCluster(std::shared_ptr<const Cluster> cluster);
    std::shared_ptr<const Cluster> cluster() const { return cluster_; }
    bool isPredicting() const { return predictions_.isJobRunning(); }

    void setDebounceMilliseconds(int ms) { debounce_.setInterval(ms); }

signals:
    void planReady(const hsdp::PlanResult& result);
    void readFailed(const QString& message);
    void busyChanged(bool busy);
    void fileChangedOnDisk();  // only while not following the file
    // current() now has its prediction (null: the cluster was cleared).
    void predictionReady(const hsdp::PlanResult& result);

private:
    struct Outcome {
        PlanResult result;
        QString error;
        QString errorPath;
        bool fromEdit = false;
    };

    template <typename Compute>
    void startJob(Compute compute, bool fromEdit);
    void startFileJob();
    void finishJob(Outcome outcome, int serial);
    void watch();
    void onDirectoryChanged();
    void onSettled();
    void startPrediction();

    QString path_;
    PlanResult current_;
    bool stale_ = false;
    int jobSerial_ = 0;  // counts the plans started
    int dropped_ = 0;    // plans up to this one are not shown (dropPendingPlans)
    QString lastError_;
    QString lastErrorPath_;
    bool lastErrorFromEdit_ = false;
    bool followsFile_ = true;
    std::shared_ptr<const Cluster> cluster_;
    JobTracker predictions_{this, JobPriority::Background};
    QThreadPool predictionPool_;  // its own thread: a plan never queues behind a prediction
    qint64 fingerprint_ = 0;      // mtime ^ size of the file when last read
    QThreadPool pool_;
    JobTracker jobs_{this};
    QFileSystemWatcher watcher_;
    QTimer debounce_;
};

}  // namespace hsdp
