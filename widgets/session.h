#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include "job_tracker.h"
#include "models/plan_result.h"

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

    QString path() const { return path_; }
    const PlanResult& current() const { return current_; }  // last good result
    bool hasResult() const { return current_.isValid(); }
    bool isStale() const { return stale_; }  // the file changed and no longer reads
    QString lastError() const { return lastError_; }
    bool isBusy() const { return jobs_.isJobRunning(); }

    void setDebounceMilliseconds(int ms) { debounce_.setInterval(ms); }

signals:
    void planReady(const hsdp::PlanResult& result);
    void readFailed(const QString& message);
    void busyChanged(bool busy);

private:
    struct Outcome {
        PlanResult result;
        QString error;
    };

    void startJob();
    void finishJob(Outcome outcome);
    void watch();
    void onDirectoryChanged();
    void onSettled();

    QString path_;
    PlanResult current_;
    bool stale_ = false;
    QString lastError_;
    qint64 fingerprint_ = 0;  // mtime ^ size of the file when last read
    QThreadPool pool_;
    JobTracker jobs_{this};
    QFileSystemWatcher watcher_;
    QTimer debounce_;
};

}  // namespace hsdp
