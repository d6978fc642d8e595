// SPDX-License-Identifier: Apache-2.0
#include "derived/session.h"

#include <QDateTime>
#include <QFileInfo>
#include <stdexcept>

#include "derived/plan/edit_error_text.h"
#include "derived/run/plan_prediction.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

// A reader error of an edited document, told in terms of the field edited.
struct EditError : std::runtime_error {
    EditError(const QString& message, QString field)
        : std::runtime_error(message.toStdString()), field(std::move(field)) {}
    QString field;
};

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
    predictionPool_.setMaxThreadCount(1);
    debounce_.setSingleShot(true);
    debounce_.setInterval(200);
    connect(&debounce_, &QTimer::timeout, this, &Session::onSettled);
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, [this] { debounce_.start(); });
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, &Session::onDirectoryChanged);
}

Session::~Session() {
    pool_.waitForDone();
    predictionPool_.waitForDone();
}

void Session::open(const QString& path) {
    path_ = QFileInfo(path).absoluteFilePath();
    current_ = {};
    stale_ = false;
    if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
    if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
    watch();
    startFileJob();
}

void Session::openDocument(std::shared_ptr<const Json> document) {
    path_.clear();
    current_ = {};
    stale_ = false;
    if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
    if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
    startJob([document = std::move(document),
              cluster = cluster_] { return computePlanResult(document, QString(), cluster.get()); },
             /*fromEdit=*/false);
}

void Session::reload() {
    if (!path_.isEmpty()) startFileJob();
}

void Session::planDocument(std::shared_ptr<const Json> document, const QString& edited) {
    startJob(
        [document = std::move(document), path = path_, edited, cluster = cluster_] {
            try {
                return computePlanResult(document, path, cluster.get());
            } catch (const ScenarioError& error) {
                throw EditError(editErrorText(*document, edited, QString::fromStdString(error.path),
                                              QString::fromStdString(error.problem)),
                                edited);
            }
        },
        /*fromEdit=*/true);
}

void Session::setCluster(std::shared_ptr<const Cluster> cluster) {
    cluster_ = std::move(cluster);
    if (!current_.isValid()) return;
    // "auto" weighs the strategies on the chosen cluster: plan the same document again.
    if (weighsGatherStrategies(current_) && current_.document) {
        startJob([document = current_.document, path = current_.path,
                  cluster = cluster_] { return computePlanResult(document, path, cluster.get()); },
                 /*fromEdit=*/false);
        return;
    }
    if (cluster_) {
        startPrediction();
        return;
    }
    current_.prediction = nullptr;
    emit predictionReady(current_);
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
    if (!followsFile_) {
        fingerprint_ = fileFingerprint(path_);
        emit fileChangedOnDisk();
        return;
    }
    startFileJob();
}

void Session::startFileJob() {
    fingerprint_ = fileFingerprint(path_);
    startJob([path = path_, cluster = cluster_] { return computePlanResult(path, cluster.get()); },
             /*fromEdit=*/false);
}

template <typename Compute>
void Session::startJob(Compute compute, bool fromEdit) {
    // The plan on screen is about to be replaced: its prediction would be
    // dropped, and it would hold a core the new plan needs.
    predictions_.cancel();
    bool wasBusy = jobs_.isJobRunning();
    const int serial = ++jobSerial_;
    jobs_.startJob(
        pool_,
        [compute = std::move(compute), fromEdit]() {
            Outcome outcome;
            outcome.fromEdit = fromEdit;
            try {
                outcome.result = compute();
            } catch (const EditError& error) {
                outcome.error = QString::fromStdString(error.what());
                outcome.errorPath = error.field;
            } catch (const ScenarioError& error) {
                outcome.error = QString::fromStdString(error.what());
                outcome.errorPath = QString::fromStdString(error.path);
            } catch (const std::exception& error) {
                outcome.error = QString::fromStdString(error.what());
            }
            return outcome;
        },
        [this, serial](Outcome outcome) { finishJob(std::move(outcome), serial); });
    if (!wasBusy) emit busyChanged(true);
}

void Session::finishJob(Outcome outcome, int serial) {
    if (!jobs_.isJobRunning()) emit busyChanged(false);
    if (serial <= dropped_) {
        // Its edit was taken back: the plan on screen stays, with the
        // prediction the job's start may have cancelled.
        if (current_.isValid() && !current_.prediction) startPrediction();
        return;
    }
    if (!outcome.error.isEmpty()) {
        lastError_ = outcome.error;
        lastErrorPath_ = outcome.errorPath;
        lastErrorFromEdit_ = outcome.fromEdit;
        stale_ = current_.isValid();
        emit readFailed(outcome.error);
        // The plan that stays on screen may have lost its prediction to the
        // failed job's start (startJob cancels it).
        if (current_.isValid() && !current_.prediction) startPrediction();
        return;
    }
    lastError_.clear();
    lastErrorPath_.clear();
    stale_ = false;
    current_ = std::move(outcome.result);
    emit planReady(current_);
    startPrediction();
}

// Costs the plan on screen; a newer plan or cluster drops the result.
void Session::startPrediction() {
    if (!cluster_ || !current_.isValid()) return;
    predictions_.startJob(
        predictionPool_,
        [plan = current_, cluster = cluster_](std::stop_token stop) {
            return predictPlan(plan, cluster, std::move(stop));
        },
        [this, plan = current_.plan](std::shared_ptr<const PlanPrediction> prediction) {
            if (current_.plan != plan) return;
            current_.prediction = std::move(prediction);
            emit predictionReady(current_);
        });
}

}  // namespace hsdp
