#include "session.h"

#include <QDateTime>
#include <QFileInfo>

#include "scenario/reader.h"

namespace hsdp {

namespace {

qint64 fileFingerprint(const QString& path) {
    QFileInfo info(path);
    if (!info.exists()) return -1;
    // ctime changes when a rename puts a new file in place, mtime when it is written.
    return info.lastModified().toMSecsSinceEpoch() ^
           (info.metadataChangeTime().toMSecsSinceEpoch() << 8) ^ (info.size() << 40);
}

}  // namespace

Session::Session(QObject* parent) : QObject(parent) {
    qRegisterMetaType<hsdp::PlanResult>();
    pool_.setMaxThreadCount(1);
    debounce_.setSingleShot(true);
    debounce_.setInterval(200);
    connect(&debounce_, &QTimer::timeout, this, &Session::onSettled);
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, [this] { debounce_.start(); });
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, &Session::onDirectoryChanged);
}

Session::~Session() {
    pool_.waitForDone();
}

void Session::open(const QString& path) {
    path_ = QFileInfo(path).absoluteFilePath();
    current_ = {};
    stale_ = false;
    if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
    if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
    watch();
    startJob();
}

void Session::reload() {
    if (!path_.isEmpty()) startJob();
}

void Session::watch() {
    QFileInfo info(path_);
    if (info.exists() && !watcher_.files().contains(path_)) watcher_.addPath(path_);
    // The directory tells us when a rename-save puts a new file in place.
    if (!watcher_.directories().contains(info.absolutePath()))
        watcher_.addPath(info.absolutePath());
}

void Session::onDirectoryChanged() {
    if (fileFingerprint(path_) != fingerprint_) debounce_.start();
}

void Session::onSettled() {
    watch();  // a rename-save drops the old file from the watcher
    startJob();
}

void Session::startJob() {
    fingerprint_ = fileFingerprint(path_);
    bool wasBusy = jobs_.isJobRunning();
    jobs_.startJob(
        pool_,
        [path = path_]() {
            Outcome outcome;
            try {
                outcome.result = computePlanResult(path);
            } catch (const std::exception& error) {
                outcome.error = QString::fromStdString(error.what());
            }
            return outcome;
        },
        [this](Outcome outcome) { finishJob(std::move(outcome)); });
    if (!wasBusy) emit busyChanged(true);
}

void Session::finishJob(Outcome outcome) {
    if (!jobs_.isJobRunning()) emit busyChanged(false);
    if (!outcome.error.isEmpty()) {
        lastError_ = outcome.error;
        stale_ = current_.isValid();
        emit readFailed(outcome.error);
        return;
    }
    lastError_.clear();
    stale_ = false;
    current_ = std::move(outcome.result);
    emit planReady(current_);
}

}  // namespace hsdp
