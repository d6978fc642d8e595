// SPDX-License-Identifier: Apache-2.0
// RunSession: runs a plan off the GUI thread and hands back what a direct
// runPlan of the same plan records; its progress is throttled and monotone;
// cancel stops a 32-rank run within a second or two and the RunData says
// so; an injected fault comes back as the engine's error. The verification
// model shows the run's verdicts and every mismatch with the engine's text.
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include "derived/plan/plan_index.h"
#include "derived/run/run_session.h"
#include "derived/run/run_status_text.h"
#include "run/runner.h"
#include "samples.h"
#include "sanitizers.h"
#include "verification/verification_model.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

#if HSDP_THREAD_SANITIZED || HSDP_ADDRESS_SANITIZED
constexpr int kSlowdown = 10;  // instrumented rank threads
#else
constexpr int kSlowdown = 1;
#endif

PlanResult samplePlan(const char* name) {
    return computePlanResult(sample(name));
}

RunData runThroughSession(RunSession& session, const PlanResult& plan, const RunRequest& request) {
    QSignalSpy finished(&session, &RunSession::finished);
    if (!session.start(plan, request)) return {};
    if (!finished.wait(60000 * kSlowdown)) return {};
    return finished.takeFirst().at(0).value<RunData>();
}

RunResult runDirectly(const PlanResult& plan, const RunRequest& request) {
    RunOptions options;
    options.mode = request.mode;
    options.fault = request.fault;
    return runPlan(*plan.scenario, *plan.plan, options);
}

std::vector<std::string> texts(const std::vector<Mismatch>& mismatches) {
    std::vector<std::string> out;
    for (const Mismatch& m : mismatches) out.push_back(m.text);
    return out;
}

// Verdicts, details and mismatch texts: what the views show of a run.
void compareVerdicts(const RunResult& got, const RunResult& expected) {
    QCOMPARE(got.verified, expected.verified);
    QCOMPARE(got.mode, expected.mode);
    QCOMPARE(got.collectives, expected.collectives);
    QCOMPARE(got.bytes, expected.bytes);
    QCOMPARE(got.params.size(), expected.params.size());
    for (size_t i = 0; i < got.params.size(); ++i) {
        const ParamRunResult &a = got.params[i], &b = expected.params[i];
        QCOMPARE(a.name, b.name);
        QCOMPARE(a.gather, b.gather);
        QCOMPARE(a.step, b.step);
        QCOMPARE(a.replicas, b.replicas);
        QCOMPARE(a.detail, b.detail);
        QCOMPARE(texts(a.mismatches), texts(b.mismatches));
    }
    QCOMPARE(got.tpTransitions.size(), expected.tpTransitions.size());
    for (size_t i = 0; i < got.tpTransitions.size(); ++i) {
        QCOMPARE(got.tpTransitions[i].result, expected.tpTransitions[i].result);
        QCOMPARE(got.tpTransitions[i].path, expected.tpTransitions[i].path);
        QCOMPARE(texts(got.tpTransitions[i].mismatches),
                 texts(expected.tpTransitions[i].mismatches));
    }
    QCOMPARE(got.notRun.size(), expected.notRun.size());
}

}  // namespace

class TestRunSession : public QObject {
    Q_OBJECT
private slots:
    void finishedMatchesADirectRun();
    void verificationModelShowsEveryMismatch();
    void progressIsThrottledMonotoneAndCancelStopsTheRun();
    void aCancelWhilePreparingStopsAtOnce();
    void anInjectedFaultComesBackAsTheEnginesError();
};

void TestRunSession::finishedMatchesADirectRun() {
    const PlanResult plan = samplePlan("diagnostics_tour.json");
    RunRequest request;
    request.mode = RunMode::Reference;
    RunSession session;
    QSignalSpy busy(&session, &RunSession::busyChanged);
    RunData data = runThroughSession(session, plan, request);
    QVERIFY(data.isValid());
    QCOMPARE(data.plan.plan, plan.plan);  // the plan that ran, shared, not copied
    QVERIFY(!session.isBusy());
    QCOMPARE(busy.count(), 2);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
    compareVerdicts(*data.run, runDirectly(plan, request));
    QVERIFY(!data.run->verified);  // the reference algorithms move the wrong rows here
    QVERIFY(!data.run->trace.events.empty());
}

void TestRunSession::verificationModelShowsEveryMismatch() {
    const PlanResult plan = samplePlan("diagnostics_tour.json");
    RunRequest request;
    request.mode = RunMode::Reference;
    RunSession session;
    RunData data = runThroughSession(session, plan, request);
    QVERIFY(data.isValid());
    VerificationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRun(data);
    const RunResult& run = *data.run;
    // The counts add up to a total that is said, the plan's rejected params
    // ("not run") included, in the summary and in the status bar's line.
    QVERIFY(!run.notRun.empty());
    const size_t all = run.params.size() + run.notRun.size();
    QVERIFY2(runSummaryLine(run).contains(QStringLiteral("params: %1 in all, ").arg(all)),
             qPrintable(runSummaryLine(run)));
    QVERIFY2(runStatusLine(run, true).contains(QStringLiteral("%1 not run").arg(run.notRun.size())),
             qPrintable(runStatusLine(run, true)));
    QModelIndex params = model.sectionIndex(VerificationModel::ParamsSection);
    QCOMPARE(model.rowCount(params), static_cast<int>(run.params.size()));
    size_t mismatchRows = 0, expectedRows = 0;
    for (int r = 0; r < model.rowCount(params); ++r) {
        const ParamRunResult& param = run.params[static_cast<size_t>(r)];
        QModelIndex row = model.index(r, 0, params);
        QCOMPARE(row.data().toString(), QString::fromStdString(param.name));
        QCOMPARE(row.data(ParamRole).toInt(), param.index);
        const ParamPlace& place = plan.index->params[static_cast<size_t>(param.index)];
        QCOMPARE(row.data(GroupRole).toInt(), place.group);
        QCOMPARE(row.data(BatchRole).toInt(), place.batch);
        QCOMPARE(row.data(VerificationModel::FailedRole).toBool(), paramFailed(param));
        QCOMPARE(model.rowCount(row), static_cast<int>(param.mismatches.size()));
        for (int m = 0; m < model.rowCount(row); ++m) {
            const Mismatch& mismatch = param.mismatches[static_cast<size_t>(m)];
            QModelIndex child = model.index(m, VerificationModel::DetailColumn, row);
            QCOMPARE(child.data().toString(), QString::fromStdString(mismatch.text));
            QCOMPARE(child.data(VerificationModel::RankRole).toInt(), mismatch.rank);
            QCOMPARE(child.data(ParamRole).toInt(), param.index);
            QVERIFY(child.data(Qt::BackgroundRole).isValid());  // mismatch rows are tinted
        }
        mismatchRows += static_cast<size_t>(model.rowCount(row));
        expectedRows += param.mismatches.size();
    }
    QCOMPARE(mismatchRows, expectedRows);
    QVERIFY(mismatchRows > 0);
    QModelIndex transitions = model.sectionIndex(VerificationModel::TransitionsSection);
    QCOMPARE(model.rowCount(transitions), static_cast<int>(run.tpTransitions.size()));
    for (int t = 0; t < model.rowCount(transitions); ++t)
        QCOMPARE(model.index(t, 0, transitions).data(TransitionRole).toInt(),
                 run.tpTransitions[static_cast<size_t>(t)].index);
    QModelIndex notRun = model.sectionIndex(VerificationModel::NotRunSection);
    QCOMPARE(model.rowCount(notRun), static_cast<int>(run.notRun.size()));
    QVERIFY(model.rowCount(notRun) > 0);  // the tour has parameters the planner rejects
}

void TestRunSession::progressIsThrottledMonotoneAndCancelStopsTheRun() {
    const PlanResult plan = samplePlan("llama3_70b_hsdp_tp_2x4x4.json");
    QCOMPARE(plan.plan->worldSize, 32);
    RunSession session;
    QSignalSpy progress(&session, &RunSession::progress);
    QSignalSpy finished(&session, &RunSession::finished);
    QElapsedTimer sinceStart;
    sinceStart.start();
    QVERIFY(session.start(plan));
    QVERIFY(!session.start(plan));  // one run at a time
    // Let the ranks get going: a few collectives done and reported.
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(2).toLongLong() > 100,
                             30000 * kSlowdown);
    const qint64 beforeCancel = sinceStart.elapsed();
    QVERIFY(finished.isEmpty());
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    session.cancel();
    QVERIFY(session.isCancelling());
    QVERIFY(finished.wait(30000 * kSlowdown));
    const qint64 stopMs = sinceCancel.elapsed();
    qInfo("cancel -> finished: %lld ms (cancelled after %lld ms of run)", stopMs, beforeCancel);
    QVERIFY2(stopMs < 2000 * kSlowdown, qPrintable(QString::number(stopMs)));
    // Throttled: the timer reports at most every 50 ms (and once more at the end).
    QVERIFY2(progress.count() <= sinceStart.elapsed() / 50 + 2,
             qPrintable(QString::number(progress.count())));
    double fraction = 0;
    qint64 collectives = 0;
    for (const QList<QVariant>& signal : progress) {
        QVERIFY(signal.at(0).toDouble() >= fraction);
        QVERIFY(signal.at(2).toLongLong() >= collectives);
        fraction = signal.at(0).toDouble();
        collectives = signal.at(2).toLongLong();
    }
    QVERIFY(fraction < 1.0);
    RunData data = finished.takeFirst().at(0).value<RunData>();
    QVERIFY(data.isValid());
    QVERIFY(data.run->cancelled);
    QVERIFY(!data.run->verified);
    QVERIFY(!data.run->error.empty());
    QCOMPARE(collectives, data.run->collectives);  // the last report is the run's own count
    QVERIFY(data.run->collectives > 0);
    bool notReached = false;
    for (const ParamRunResult& p : data.run->params) notReached |= paramNotReached(p);
    QVERIFY(notReached);
    QCOMPARE(runStatusLine(*data.run), QStringLiteral("run cancelled after %1 collectives")
                                           .arg(groupedNumber(data.run->collectives)));
}

// The first second of a 70B run is preparation (single-device results, the
// Gloo world): a cancel then ends it too, before any collective.
void TestRunSession::aCancelWhilePreparingStopsAtOnce() {
    const PlanResult plan = samplePlan("llama3_70b_hsdp_tp_2x4x4.json");
    RunSession session;
    QSignalSpy finished(&session, &RunSession::finished);
    QVERIFY(session.start(plan));
    QTest::qWait(100);  // well inside the preparation
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    session.cancel();
    QVERIFY(finished.wait(30000 * kSlowdown));
    const qint64 stopMs = sinceCancel.elapsed();
    qInfo("cancel while preparing -> finished: %lld ms", stopMs);
    QVERIFY2(stopMs < 1000 * kSlowdown, qPrintable(QString::number(stopMs)));
    RunData data = finished.takeFirst().at(0).value<RunData>();
    QVERIFY(data.run->cancelled);
    QCOMPARE(data.run->collectives, qint64(0));
    QCOMPARE(data.run->error, std::string("run cancelled while preparing, before any collective"));
    for (const ParamRunResult& p : data.run->params) QVERIFY(paramNotReached(p));
    QCOMPARE(runStatusLine(*data.run), QStringLiteral("run cancelled after 0 collectives"));
}

void TestRunSession::anInjectedFaultComesBackAsTheEnginesError() {
    const PlanResult plan = samplePlan("teaching_2x2.json");
    RunRequest request;
    request.fault = FaultSpec{1, 3};
    RunSession session;
    RunData data = runThroughSession(session, plan, request);
    QVERIFY(data.isValid());
    const RunResult expected = runDirectly(plan, request);
    QVERIFY(!expected.error.empty());
    // The same error: it names the collective by its group's count, the same
    // in every run (a run-wide number depended on the ranks' arrival order).
    QCOMPARE(data.run->error, expected.error);
    QVERIFY(data.run->error.find("rank 1") != std::string::npos);
    QCOMPARE(data.run->errorRank, 1);
    QVERIFY(!data.run->cancelled);
    QVERIFY(!data.run->verified);
    QCOMPARE(runErrorText(*data.run), QString::fromStdString(data.run->error));
}

QTEST_MAIN(TestRunSession)
#include "tst_run_session.moc"
