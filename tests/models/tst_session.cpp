// SPDX-License-Identifier: Apache-2.0
// Session: plans off the GUI thread, re-plans when the file changes (also
// after a write-to-temp + rename save), keeps the last good plan when the
// file stops reading and reports the reader's own message, drops results of
// replaced jobs.
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <cstdio>

#include "cluster/reader.h"
#include "derived/plan/job_tracker.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/plan_result.h"
#include "derived/session.h"
#include "samples.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::sample;
using hsdp::testing::sampleText;

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

// Saves like editors that write a temporary file and rename it over the original.
void renameSave(const QString& path, const QByteArray& bytes) {
    QString temp = path + QStringLiteral(".tmp~");
    writeFile(temp, bytes);
    QVERIFY(::rename(QFile::encodeName(temp).constData(), QFile::encodeName(path).constData()) ==
            0);
}

QString readerMessage(const QString& path) {
    try {
        readScenarioFile(path.toStdString());
    } catch (const ScenarioError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

QByteArray renamed(QByteArray json, const QByteArray& name) {
    return json.replace("\"name\": \"Llama-3-8B", "\"name\": \"" + name);
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void init();
    void plansOffTheGuiThread();
    void aReplacedJobIsAskedToStop();
    void aResultLastHeldByTheGuiIsFreedOffIt();
    void replansWhenTheFileChanges();
    void replansAfterRenameSave();
    void brokenFileKeepsTheLastGoodPlan();
    void missingFileReportsTheReadersMessage();
    void replacedJobsAreDropped();
    void autoWeighsOnTheChosenCluster();

private:
    QTemporaryDir dir_;
    QString path_;
};

void TestSession::init() {
    path_ = dir_.filePath(QStringLiteral("scenario.json"));
    writeFile(path_, sampleText("llama3_8b_hsdp_2x4.json"));
}

void TestSession::plansOffTheGuiThread() {
    Session session;
    QSignalSpy ready(&session, &Session::planReady);
    session.open(path_);
    QVERIFY(session.isBusy());
    QVERIFY(!session.hasResult());  // nothing happened on this thread yet
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
    PlanResult result = ready.at(0).at(0).value<PlanResult>();
    QVERIFY(result.isValid());
    QCOMPARE(result.plan->worldSize, 8);
    QCOMPARE(result.index->params.size(), result.scenario->params.size());
    QVERIFY(!session.isBusy());
}

void TestSession::replansWhenTheFileChanges() {
    Session session;
    session.setDebounceMilliseconds(50);
    QSignalSpy ready(&session, &Session::planReady);
    session.open(path_);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
    QThread::msleep(20);
    writeFile(path_, renamed(sampleText("llama3_8b_hsdp_2x4.json"), "Edited in place"));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 20000);
    QVERIFY(QString::fromStdString(session.current().scenario->name)
                .startsWith(QStringLiteral("Edited in place")));
}

void TestSession::replansAfterRenameSave() {
    Session session;
    session.setDebounceMilliseconds(50);
    QSignalSpy ready(&session, &Session::planReady);
    session.open(path_);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
    renameSave(path_, renamed(sampleText("llama3_8b_hsdp_2x4.json"), "First rename"));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 20000);
    QVERIFY(QString::fromStdString(session.current().scenario->name)
                .startsWith(QStringLiteral("First rename")));
    // The watcher follows the new file: a second rename-save is seen too.
    renameSave(path_, renamed(sampleText("llama3_8b_hsdp_2x4.json"), "Second rename"));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 3, 20000);
    QVERIFY(QString::fromStdString(session.current().scenario->name)
                .startsWith(QStringLiteral("Second rename")));
}

void TestSession::brokenFileKeepsTheLastGoodPlan() {
    Session session;
    session.setDebounceMilliseconds(50);
    QSignalSpy ready(&session, &Session::planReady);
    QSignalSpy failed(&session, &Session::readFailed);
    session.open(path_);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
    auto good = session.current().plan;
    QByteArray broken =
        sampleText("llama3_8b_hsdp_2x4.json").replace("\"shape\": [4096]", "\"shape\": [\"4096\"]");
    QVERIFY(broken != sampleText("llama3_8b_hsdp_2x4.json"));
    writeFile(path_, broken);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
    QString expected = readerMessage(path_);
    QVERIFY(expected.contains(QStringLiteral("/params/")));
    QCOMPARE(failed.at(0).at(0).toString(), expected);  // hsdp-inspect prints the same text
    QCOMPARE(session.current().plan, good);
    QVERIFY(session.isStale());
    QCOMPARE(ready.count(), 1);
    writeFile(path_, sampleText("llama3_8b_hsdp_2x4.json"));  // fixed again: fresh, not stale
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 20000);
    QVERIFY(!session.isStale());
}

void TestSession::missingFileReportsTheReadersMessage() {
    Session session;
    QSignalSpy failed(&session, &Session::readFailed);
    QString missing = dir_.filePath(QStringLiteral("nope.json"));
    session.open(missing);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
    QCOMPARE(failed.at(0).at(0).toString(), readerMessage(missing));
    QVERIFY(!session.hasResult());
    QVERIFY(!session.isStale());  // nothing on screen to be stale
}

void TestSession::replacedJobsAreDropped() {
    QString other = dir_.filePath(QStringLiteral("teaching.json"));
    writeFile(other, sampleText("teaching_2x2.json"));
    Session session;
    QSignalSpy ready(&session, &Session::planReady);
    session.open(path_);
    session.open(other);  // replaces the first job before it could report
    QTRY_VERIFY_WITH_TIMEOUT(!session.isBusy(), 20000);
    QTest::qWait(50);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(ready.at(0).at(0).value<PlanResult>().path, QFileInfo(other).absoluteFilePath());
    QCOMPARE(session.current().plan->worldSize, 4);
}

// gather_strategy auto is weighed on the loopback preset until a cluster is
// chosen, and choosing one plans the same document again on it.
void TestSession::autoWeighsOnTheChosenCluster() {
    writeFile(path_, sampleText("llama3_8b_hsdp_2x4.json")
                         .replace("\"options\": {\"alignment_bytes\": 512}",
                                  "\"options\": {\"alignment_bytes\": 512, "
                                  "\"gather_strategy\": \"auto\"}"));
    Session session;
    QSignalSpy ready(&session, &Session::planReady);
    session.open(path_);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
    auto why = [&] {
        return QString::fromStdString(session.current().plan->groups.front().gatherStrategyWhy);
    };
    QVERIFY(weighsGatherStrategies(session.current()));
    QVERIFY2(why().startsWith("auto on loopback:"), qPrintable(why()));
    session.setCluster(std::make_shared<const Cluster>(readClusterPreset("h100-dgx")));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 20000);
    QVERIFY2(why().startsWith("auto on h100-dgx:"), qPrintable(why()));
}

// A long job that watches its token stops once a newer job replaces it,
// and only the newer one's result arrives.
void TestSession::aReplacedJobIsAskedToStop() {
    QObject context;
    QThreadPool pool;
    pool.setMaxThreadCount(2);
    JobTracker jobs(&context);
    std::atomic<bool> started = false, stopped = false;
    QList<int> results;
    jobs.startJob(
        pool,
        [&](std::stop_token stop) {
            started = true;
            QElapsedTimer clock;
            clock.start();
            while (!stop.stop_requested() && clock.elapsed() < 10000) QThread::msleep(1);
            stopped = stop.stop_requested();
            return 1;
        },
        [&](int r) { results << r; });
    QTRY_VERIFY_WITH_TIMEOUT(started.load(), 5000);
    jobs.startJob(
        pool, [] { return 2; }, [&](int r) { results << r; });
    QTRY_VERIFY_WITH_TIMEOUT(!jobs.isJobRunning(), 5000);
    QVERIFY(stopped.load());
    QCOMPARE(results, QList<int>{2});
    pool.waitForDone();
}

namespace {

// Records the thread that destroys it (a moved-from one records nothing).
struct ThreadRecorder {
    explicit ThreadRecorder(std::atomic<QThread*>* on) : freedOn(on) {}
    ThreadRecorder(ThreadRecorder&& other) noexcept
        : freedOn(std::exchange(other.freedOn, nullptr)) {}
    std::atomic<QThread*>* freedOn;
    ~ThreadRecorder() {
        if (freedOn) freedOn->store(QThread::currentThread());
    }
};

}  // namespace

// A plan's parts dropped last on the GUI thread are freed on a pool thread;
// dropped last elsewhere, where they are dropped.
void TestSession::aResultLastHeldByTheGuiIsFreedOffIt() {
    std::atomic<QThread*> freedOn = nullptr;
    auto held = freedOffGuiThread(ThreadRecorder{&freedOn});
    held.reset();
    QTRY_VERIFY_WITH_TIMEOUT(freedOn.load() != nullptr, 5000);
    QVERIFY(freedOn.load() != QThread::currentThread());
    freedOn = nullptr;
    auto elsewhere = freedOffGuiThread(ThreadRecorder{&freedOn});
    QThread* worker = QThread::create([&] { elsewhere.reset(); });
    worker->start();
    QVERIFY(worker->wait(5000));
    QCOMPARE(freedOn.load(), worker);
    delete worker;
}

QTEST_MAIN(TestSession)
#include "tst_session.moc"
