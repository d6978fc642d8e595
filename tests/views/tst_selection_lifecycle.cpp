// SPDX-License-Identifier: Apache-2.0
// The lifecycle of the selection and of runs in the studio window, offscreen.
// Every kind of selection (a param, a group, a batch, a rank, a TP
// transition, a run's step, a mismatch) made on one scenario survives a
// smaller, a larger, a reordered and a broken scenario arriving by File ▸
// Open, by the file changing on disk (the watcher) and after a run: no view
// indexes a plan with another plan's positions, the selection is kept by
// name where the new plan has it and dropped where not, and every view
// follows it. A run belongs to the file it ran: another file never shows
// it, in the status bar, Verification or an exported report. A cancel
// keeps the last complete run, a check never reached reads "not reached"
// in every column and in the report, and the report's command repeats what
// ran.
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

#include "buffer_layout/buffer_layout_widget.h"
#include "derived/plan/model_roles.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/scenario_document.h"
#include "derived/run/run_status_text.h"
#include "hf_config/scenario_from_config.h"
#include "mesh/mesh_widget.h"
#include "owner_balance/owner_balance_widget.h"
#include "painting/word_elide_delegate.h"
#include "plan_tree/plan_tree_widget.h"
#include "scenario/reader.h"
#include "steps/step_widget.h"
#include "studio_test_util.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "trace/trace_widget.h"
#include "traffic/traffic_widget.h"
#include "verification/verification_widget.h"
#include "window/main_window.h"
#include "wrong_rows/wrong_rows_widget.h"

using namespace hsdp;
using hsdp::testing::openAndWait;
using hsdp::testing::sample;

namespace {

enum class Kind { Param, Group, Batch, Rank, Transition, Step, Mismatch };
enum class Swap { Smaller, Larger, Reordered, Broken };
enum class Route { Open, Watcher, AfterRun };

// The base every case selects on: 13 run params, 5 TP transitions, six
// ranks, and a reference run with mismatches.
constexpr const char* kBase = "diagnostics_tour.json";

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The base with its first param and first transition gone and the rest
// reversed: every name moves to another position.
QByteArray reorderedBase() {
    nlohmann::json doc = nlohmann::json::parse(readAll(sample(kBase)).toStdString());
    for (const char* key : {"params", "tp_transitions"}) {
        auto& list = doc[key];
        list.erase(list.begin());
        std::reverse(list.begin(), list.end());
    }
    doc["name"] = "diagnostics tour, reordered";
    return QByteArray::fromStdString(doc.dump(1));
}

QByteArray swapContent(Swap swap) {
    switch (swap) {
        case Swap::Smaller:
            return readAll(sample("teaching_2x2.json"));
        case Swap::Larger:
            return readAll(sample("llama3_70b_hsdp_tp_2x4x4.json"));
        case Swap::Reordered:
            return reorderedBase();
        case Swap::Broken:
            return readAll(sample(kBase)).left(300);  // cut off mid-document
    }
    return {};
}

// What a selection named, in names, so that it can be looked up in any plan.
struct Named {
    std::vector<std::string> params;
    std::vector<std::string> groupParams;  // the params of the picked group or batch
    bool batch = false;                    // a batch was picked, not only its group
    std::string transition;
    std::vector<int> ranks;
    int64_t collective = -1;
};

Named named(const SelectionState& state, const PlanResult& plan) {
    Named out;
    for (int p : state.params) out.params.push_back(plan.scenario->params[size_t(p)].name);
    if (state.group >= 0) {
        const Group& group = plan.plan->groups[size_t(state.group)];
        const auto& held =
            state.batch >= 0 ? group.batches[size_t(state.batch)].params : group.params;
        for (int p : held) out.groupParams.push_back(plan.scenario->params[size_t(p)].name);
        out.batch = state.batch >= 0;
    }
    if (state.transition >= 0)
        out.transition = plan.plan->tpTransitions[size_t(state.transition)].name;
    out.ranks = state.ranks;
    out.collective = state.collective;
    return out;
}

int paramNamed(const PlanResult& plan, const std::string& name) {
    for (size_t p = 0; p < plan.scenario->params.size(); ++p)
        if (plan.scenario->params[p].name == name) return int(p);
    return -1;
}

// What a selection naming `before` becomes on `plan`, worked out from names
// (the window carries positions; this test only knows names).
SelectionState expectedOn(const Named& before, const PlanResult& plan, bool newFile) {
    SelectionState out;
    for (const auto& name : before.params)
        if (int p = paramNamed(plan, name); p >= 0) out.params.push_back(p);
    // The selected param leads when the group or batch holds it, then the
    // group's or batch's params in order.
    std::vector<std::string> leaders = before.groupParams;
    if (!before.params.empty() &&
        std::find(leaders.begin(), leaders.end(), before.params.front()) != leaders.end())
        leaders.insert(leaders.begin(), before.params.front());
    for (const auto& name : leaders) {
        const int p = paramNamed(plan, name);
        if (p < 0) continue;
        out.group = plan.index->params[size_t(p)].group;
        if (out.group >= 0 && before.batch) out.batch = plan.index->params[size_t(p)].batch;
        break;
    }
    for (size_t t = 0; t < plan.plan->tpTransitions.size(); ++t)
        if (!before.transition.empty() && plan.plan->tpTransitions[t].name == before.transition)
            out.transition = int(t);
    // Ranks picked on one file are not the next file's (their outline was
    // drawn on the next mesh); a new plan of the same file keeps them.
    if (!newFile)
        for (int r : before.ranks)
            if (r < plan.plan->worldSize) out.ranks.push_back(r);
    out.collective = newFile ? -1 : before.collective;
    if (newFile && out.params.empty() && out.group < 0 && out.transition < 0) {
        // Nothing of it is in the new file: its first look.
        const int p = mostInterestingParam(*plan.scenario, *plan.plan);
        if (p >= 0) {
            out.params = {p};
            out.group = plan.index->params[size_t(p)].group;
            out.batch = plan.index->params[size_t(p)].batch;
        }
    }
    return out;
}

// Starts `start` and waits for the run session to finish (also when the
// window drops the run).
bool runAndWait(MainWindow& window, const std::function<void()>& start) {
    QSignalSpy finished(window.runSession(), &RunSession::finished);
    start();
    return finished.wait(120000);
}

// Paints every view, where a position of another plan would be read.
void paintEverything(MainWindow& window) {
    for (QWidget* view : std::initializer_list<QWidget*>{
             window.view<MeshWidget>(), window.view<PlanTreeWidget>(),
             window.view<OwnerBalanceWidget>(), window.view<TensorLayoutWidget>(),
             window.view<TraceWidget>(), window.view<StepWidget>(), window.view<TrafficWidget>(),
             window.view<BufferLayoutWidget>(), window.view<WrongRowsWidget>(),
             window.view<VerificationWidget>()}) {
        view->resize(900, 600);
        (void)view->grab();
    }
}

QString exportedReport(MainWindow& window, const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("report.html"));
    QFile::remove(path);
    if (!window.exportReport(path, /*quiet=*/true)) return {};
    return QString::fromUtf8(readAll(path));
}

// The command an HTML report says reproduces it.
QString reproduceCommand(const QString& html) {
    static const QRegularExpression command(
        QStringLiteral("<pre>(hsdp-inspect report [^<]*)</pre>"));
    return command.match(html).captured(1);
}

// The cells of every table row of an HTML report, unescaped enough for names.
QList<QStringList> reportRows(const QString& html) {
    QList<QStringList> rows;
    static const QRegularExpression row(QStringLiteral("<tr>(.*?)</tr>"),
                                        QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression cell(QStringLiteral("<td[^>]*>(.*?)</td>"),
                                         QRegularExpression::DotMatchesEverythingOption);
    for (auto r = row.globalMatch(html); r.hasNext();) {
        QStringList cells;
        const QString text = r.next().captured(1);
        for (auto c = cell.globalMatch(text); c.hasNext();) cells << c.next().captured(1);
        if (!cells.isEmpty()) rows << cells;
    }
    return rows;
}

}  // namespace

class TestSelectionLifecycle : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void everySelectionSurvivesEveryNextPlan_data();
    void everySelectionSurvivesEveryNextPlan();
    void anotherFilesRunIsNeverShown();
    void aRunOfAFileThatLeftIsDropped();
    void cancelKeepsTheLastCompleteRun();
    void unreachedChecksReadNotReachedEverywhere();
    void aCancelledRunsReportDoesNotClaimAFullRun();
    void viewsReadTheSelectionInTheirOwnPlan();
    void aReportHoldsOnlyARunOfItsPlan();
    void anUndoneEditGivesTheRunBack();
    void aFilterThatMatchesNothingSaysSo();
    void pickedRanksStayWithTheirFile();
    void aNarrowTreeKeepsEachParamsLayerNumber();

private:
    void select(MainWindow& window, Kind kind);
};

void TestSelectionLifecycle::everySelectionSurvivesEveryNextPlan_data() {
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<Swap>("swap");
    QTest::addColumn<Route>("route");
    const std::pair<Kind, const char*> kinds[] = {
        {Kind::Param, "param"},      {Kind::Group, "group"},           {Kind::Batch, "batch"},
        {Kind::Rank, "rank"},        {Kind::Transition, "transition"}, {Kind::Step, "step"},
        {Kind::Mismatch, "mismatch"}};
    const std::pair<Swap, const char*> swaps[] = {{Swap::Smaller, "smaller"},
                                                  {Swap::Larger, "larger"},
                                                  {Swap::Reordered, "reordered"},
                                                  {Swap::Broken, "broken"}};
    const std::pair<Route, const char*> routes[] = {
        {Route::Open, "open"}, {Route::Watcher, "watcher"}, {Route::AfterRun, "after-run"}};
    for (const auto& [kind, k] : kinds)
        for (const auto& [swap, s] : swaps)
            for (const auto& [route, r] : routes)
                QTest::addRow("%s/%s/%s", k, s, r) << kind << swap << route;
}

// Selects the last thing of `kind` there is: positions the smaller plans lack.
void TestSelectionLifecycle::select(MainWindow& window, Kind kind) {
    const PlanResult& plan = window.session()->current();
    SelectionState state;
    const int lastGroup = int(plan.plan->groups.size()) - 1;
    switch (kind) {
        case Kind::Param: {
            const int p = int(plan.scenario->params.size()) - 1;
            state.params = {p};
            state.group = plan.index->params[size_t(p)].group;
            state.batch = plan.index->params[size_t(p)].batch;
            break;
        }
        case Kind::Group:
            state.group = lastGroup;
            break;
        case Kind::Batch:
            state.group = lastGroup;
            state.batch = int(plan.plan->groups[size_t(lastGroup)].batches.size()) - 1;
            break;
        case Kind::Rank:
            state.ranks = {plan.plan->worldSize - 1};
            break;
        case Kind::Transition:
            state.transition = int(plan.plan->tpTransitions.size()) - 1;
            break;
        case Kind::Step: {
            // The step panel picks the run's last step that moved params.
            StepWidget* steps = window.view<StepWidget>();
            QVERIFY(steps->stepCount() > 0);
            for (int s = steps->stepCount() - 1; s >= 0; --s) {
                steps->setStep(s);
                if (!window.selection()->params().empty()) break;
            }
            QVERIFY(window.selection()->collective() >= 0);
            return;
        }
        case Kind::Mismatch: {
            // Activating the last param's last mismatch in Verification.
            VerificationWidget* panel = window.view<VerificationWidget>();
            const QModelIndex params =
                panel->model()->sectionIndex(VerificationModel::ParamsSection);
            QModelIndex mismatch;
            for (int r = 0; r < panel->model()->rowCount(params); ++r) {
                const QModelIndex row = panel->model()->index(r, 0, params);
                if (const int n = panel->model()->rowCount(row); n > 0)
                    mismatch = panel->model()->index(n - 1, 0, row);
            }
            QVERIFY(mismatch.isValid());
            QVERIFY(panel->activate(mismatch));
            QCOMPARE(window.selection()->ranks().size(), size_t(1));
            return;
        }
    }
    window.selection()->set(state);
    QCOMPARE(window.selection()->state(), state);
}

void TestSelectionLifecycle::everySelectionSurvivesEveryNextPlan() {
    QFETCH(Kind, kind);
    QFETCH(Swap, swap);
    QFETCH(Route, route);
    QTemporaryDir dir;
    const QString base = dir.filePath(QStringLiteral("base.json"));
    const QString next = dir.filePath(QStringLiteral("next.json"));
    QVERIFY(writeAll(base, readAll(sample(kBase))));
    QVERIFY(writeAll(next, swapContent(swap)));

    MainWindow window;
    window.session()->setDebounceMilliseconds(20);
    QVERIFY(openAndWait(window, base));
    const bool needsRun = route == Route::AfterRun || kind == Kind::Step || kind == Kind::Mismatch;
    if (needsRun)
        QVERIFY(runAndWait(window, [&] {
            (kind == Kind::Mismatch ? window.runReferenceAction() : window.runAction())->trigger();
        }));
    select(window, kind);
    if (QTest::currentTestFailed()) return;
    const PlanResult before = window.session()->current();
    const SelectionState selected = window.selection()->state();
    const Named picked = named(selected, before);
    paintEverything(window);

    QSignalSpy ready(&window, &MainWindow::planShown);
    QSignalSpy failed(window.session(), &Session::readFailed);
    if (route == Route::Watcher) {
        // As an editor's rename-save, or `mv next base`.
        QCOMPARE(
            std::rename(QFile::encodeName(next).constData(), QFile::encodeName(base).constData()),
            0);
    } else {
        window.openScenario(next);
    }
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() + failed.count() > 0, 20000);
    paintEverything(window);

    const bool newFile = route != Route::Watcher;
    if (swap == Swap::Broken) {
        // The last good plan stays on screen, and with it its selection.
        QCOMPARE(window.selection()->state(), selected);
        QCOMPARE(window.lastRun().isValid(), needsRun && !newFile);
        return;
    }
    const PlanResult& now = window.session()->current();
    const SelectionState expected = expectedOn(picked, now, newFile);
    const SelectionState got = window.selection()->state();
    QCOMPARE(got.params, expected.params);
    QCOMPARE(got.group, expected.group);
    QCOMPARE(got.batch, expected.batch);
    QCOMPARE(got.transition, expected.transition);
    QCOMPARE(got.ranks, expected.ranks);
    QCOMPARE(got.collective, expected.collective);

    // The views follow the carried selection.
    const int focus = got.params.empty() ? -1 : got.params.front();
    QCOMPARE(window.view<TensorLayoutWidget>()->blocks().param, focus);
    if (focus >= 0)
        QCOMPARE(window.view<PlanTreeWidget>()->treeView()->currentIndex().data(ParamRole).toInt(),
                 focus);
    // A run is of the file it ran: kept (as an earlier plan's) only while
    // the same file is open.
    QCOMPARE(window.lastRun().isValid(), needsRun && !newFile);
    QCOMPARE(window.view<VerificationWidget>()->model()->run().isValid(), needsRun && !newFile);
    if (newFile) QVERIFY(window.runStatusText().isEmpty());
    if (needsRun && !newFile) {
        QVERIFY(window.runStatusText().endsWith(QStringLiteral(" · a run of an earlier plan")));
        // On screen the qualifier comes first, where shortening the line keeps it.
        QLabel* label = testing::runStatusLabel(window);
        QVERIFY(label);
        QVERIFY2(label->text().startsWith(QStringLiteral("[a run of an earlier plan")),
                 qPrintable(label->text()));
    }
}

void TestSelectionLifecycle::anotherFilesRunIsNeverShown() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openAndWait(window, sample(kBase)));
    QVERIFY(runAndWait(window, [&] { window.runReferenceAction()->trigger(); }));
    const RunData tour = window.lastRun();
    QVERIFY(tour.isValid());
    QVERIFY(!tour.run->verified);
    QVERIFY(window.runStatusText().startsWith(QStringLiteral("NOT verified")));
    QVERIFY(exportedReport(window, dir).contains(QStringLiteral("colwise.strided")));

    QVERIFY(openAndWait(window, sample("mixtral_8x7b_expert_mesh.json")));
    QVERIFY(!window.lastRun().isValid());
    QCOMPARE(window.runStatusText(), QString());
    QCOMPARE(window.view<VerificationWidget>()->summaryText(), QStringLiteral("No run yet"));
    QCOMPARE(window.view<VerificationWidget>()->model()->rowCount(), 0);
    QCOMPARE(window.view<StepWidget>()->stepCount(), 0);
    QVERIFY(!window.view<WrongRowsWidget>()->correctedRun().isValid());
    const QString report = exportedReport(window, dir);
    QVERIFY(!report.isEmpty());
    QVERIFY(report.contains(QStringLiteral("Mixtral")));
    QVERIFY(!report.contains(QStringLiteral("colwise.strided")));
    QVERIFY(!report.contains(QStringLiteral("earlier plan")));
    QVERIFY(!reproduceCommand(report).isEmpty());
    QVERIFY(!reproduceCommand(report).contains(QStringLiteral("--run")));
    QVERIFY(!report.contains(QStringLiteral("NOT VERIFIED")));
}

// A run still going when another file opens is that file's: it is stopped,
// and what it delivers is shown nowhere.
void TestSelectionLifecycle::aRunOfAFileThatLeftIsDropped() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample(kBase)));
    QSignalSpy finished(window.runSession(), &RunSession::finished);
    QSignalSpy shown(&window, &MainWindow::runReady);
    QVERIFY(window.startRun({}));
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QCOMPARE(shown.count(), 0);
    QVERIFY(!window.lastRun().isValid());
    QCOMPARE(window.runStatusText(), QString());
    QVERIFY(!window.view<VerificationWidget>()->model()->run().isValid());
    QVERIFY(window.runAction()->isEnabled());
}

void TestSelectionLifecycle::cancelKeepsTheLastCompleteRun() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    QVERIFY(runAndWait(window, [&] { window.runAction()->trigger(); }));
    const RunData good = window.lastRun();
    QVERIFY(good.run->verified);

    // Cancelled at once: stopped while preparing.
    QVERIFY(runAndWait(window, [&] {
        window.runReferenceAction()->trigger();
        window.cancelRunAction()->trigger();
    }));
    QCOMPARE(window.lastRun().run, good.run);
    QCOMPARE(window.view<VerificationWidget>()->model()->run().run, good.run);
    QCOMPARE(window.view<VerificationWidget>()->summaryText(), runSummaryLine(*good.run));
    QVERIFY(window.view<StepWidget>()->stepCount() > 0);
    QVERIFY2(window.runStatusText().startsWith(QStringLiteral("run cancelled after 0 collectives")),
             qPrintable(window.runStatusText()));
    QVERIFY2(window.runStatusText().contains(runStatusLine(*good.run)),
             qPrintable(window.runStatusText()));
    const QString report = exportedReport(window, dir);
    QVERIFY(report.contains(QStringLiteral("VERIFIED")));
    QVERIFY(!report.contains(QStringLiteral("cancelled")));
    QVERIFY(reproduceCommand(report).endsWith(QStringLiteral(" --run --mode corrected")));

    // The next complete run replaces it, and the cancel's line goes.
    QVERIFY(runAndWait(window, [&] { window.runReferenceAction()->trigger(); }));
    QVERIFY(window.lastRun().run != good.run);
    QCOMPARE(window.runStatusText(), runStatusLine(*window.lastRun().run));
    QVERIFY(reproduceCommand(exportedReport(window, dir))
                .endsWith(QStringLiteral(" --run --mode reference")));
}

// A failed run stops the checks of every param after the failure: their
// replicas were never compared either.
void TestSelectionLifecycle::unreachedChecksReadNotReachedEverywhere() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    RunRequest request;
    request.fault = FaultSpec{2, 2};
    QVERIFY(runAndWait(window, [&] { QVERIFY(window.startRun(request)); }));
    const RunData run = window.lastRun();
    QVERIFY(!run.run->error.empty());
    const VerificationModel* model = window.view<VerificationWidget>()->model();
    const QModelIndex params = model->sectionIndex(VerificationModel::ParamsSection);
    const QList<QStringList> rows = reportRows(exportedReport(window, dir));
    int unreached = 0;
    for (int r = 0; r < model->rowCount(params); ++r) {
        const ParamRunResult& p = run.run->params[size_t(r)];
        if (!paramNotReached(p)) continue;
        ++unreached;
        const auto cell = [&](int column) {
            return model->index(r, column, params).data().toString();
        };
        QCOMPARE(cell(VerificationModel::VerdictColumn), QStringLiteral("not reached"));
        QCOMPARE(cell(VerificationModel::ReplicasColumn), QStringLiteral("not reached"));
        if (p.step == CheckVerdict::NotReached)
            QCOMPARE(cell(VerificationModel::StepColumn), QStringLiteral("not reached"));
        if (p.gather == GatherVerdict::NotReached)
            QCOMPARE(cell(VerificationModel::GatherColumn), QStringLiteral("not reached"));
        // The report's verification row of the param: no verdict of a check never made.
        const QString where =
            QStringLiteral("#%1 %2").arg(p.index).arg(QString::fromStdString(p.name));
        bool found = false;
        for (const QStringList& cells : rows) {
            if (cells.size() < 6 || cells[0] != where || cells[1] != QLatin1String("not reached"))
                continue;
            found = true;
            QCOMPARE(cells[4], QStringLiteral("not reached"));  // Replicas
            for (int c = 2; c <= 4; ++c)
                QVERIFY2(cells[c] != QLatin1String("not-reached"), qPrintable(cells[c]));
        }
        QVERIFY2(found, qPrintable(where));
    }
    QVERIFY(unreached > 0);
}

void TestSelectionLifecycle::aCancelledRunsReportDoesNotClaimAFullRun() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    // No complete run before it: the cancelled one is what there is to show.
    QVERIFY(runAndWait(window, [&] {
        window.runAction()->trigger();
        window.cancelRunAction()->trigger();
    }));
    QVERIFY(window.lastRun().isValid());
    QVERIFY(window.lastRun().run->cancelled);
    QCOMPARE(window.runStatusText(), QStringLiteral("run cancelled after 0 collectives"));
    const QString report = exportedReport(window, dir);
    const QString ran = reproduceCommand(report);
    QVERIFY2(!ran.isEmpty(), qPrintable(report.left(2000)));
    QVERIFY2(!ran.contains(QStringLiteral("--run")), qPrintable(ran));
    QVERIFY(report.contains(QStringLiteral("The run was cancelled")));
    for (const ParamRunResult& p : window.lastRun().run->params) QVERIFY(paramNotReached(p));
    for (const QStringList& cells : reportRows(report))
        if (cells.size() >= 6 && cells[1] == QLatin1String("not reached"))
            QCOMPARE(cells[4], QStringLiteral("not reached"));
}

// Every view validates the selection against the plan it holds: a
// selection of the 70B plan (output.weight, #722; rank 31; its last
// transition) read by views that hold the teaching plan (7 params, 4 ranks)
// or its run.
void TestSelectionLifecycle::viewsReadTheSelectionInTheirOwnPlan() {
    const PlanResult large = computePlanResult(sample("llama3_70b_hsdp_tp_2x4x4.json"));
    const PlanResult small = computePlanResult(sample("teaching_2x2.json"));
    const int last = int(large.scenario->params.size()) - 1;
    PlanSelection selection;
    SelectionState state;
    state.params = {last};
    state.group = large.index->params[size_t(last)].group;
    state.batch = large.index->params[size_t(last)].batch;
    state.ranks = {large.plan->worldSize - 1};
    state.transition = int(large.plan->tpTransitions.size()) - 1;
    selection.set(state);

    RunSession session;
    QSignalSpy finished(&session, &RunSession::finished);
    QVERIFY(session.start(small));
    QVERIFY(finished.wait(60000));
    const RunData run = finished.takeFirst().at(0).value<RunData>();

    MeshWidget mesh(&selection);
    PlanTreeWidget tree(&selection);
    OwnerBalanceWidget balance(&selection);
    TensorLayoutWidget layout(&selection);
    TraceWidget trace(&selection);
    StepWidget steps(&selection);
    TrafficWidget traffic(&selection);
    BufferLayoutWidget buffers(&selection);
    WrongRowsWidget wrongRows(&selection);
    mesh.setResult(small);
    tree.setResult(small);
    balance.setResult(small);
    layout.setResult(small);
    for (auto* view : std::initializer_list<QWidget*>{&mesh, &tree, &balance, &layout}) {
        view->resize(800, 500);
        (void)view->grab();
    }
    trace.setRun(run);
    steps.setRun(run);
    traffic.setRun(run);
    buffers.setRun(run);
    layout.setRun(run);
    wrongRows.setRun(run);
    for (auto* view :
         std::initializer_list<QWidget*>{&trace, &steps, &traffic, &buffers, &wrongRows, &layout}) {
        view->resize(800, 500);
        (void)view->grab();
    }
    QCOMPARE(layout.blocks().param, -1);  // the teaching plan has no #722
    // A change of the selection reaches them all again.
    state.ranks = {large.plan->worldSize - 2};
    selection.set(state);
    (void)mesh.grab();
    (void)buffers.grab();
    QCOMPARE(layout.blocks().param, -1);
}

// The file on screen becomes another scenario (an `mv` over it), then stops
// reading: the views keep the run marked as an earlier plan's, the report
// never holds it, says a run of an earlier plan was left out, and says the
// plan is stale.
void TestSelectionLifecycle::aReportHoldsOnlyARunOfItsPlan() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.json"));
    const QString next = dir.filePath(QStringLiteral("next.json"));
    QVERIFY(writeAll(path, readAll(sample("teaching_2x2.json"))));
    QVERIFY(writeAll(next, readAll(sample("llama3_8b_hsdp_2x4.json"))));
    MainWindow window;
    window.session()->setDebounceMilliseconds(20);
    QVERIFY(openAndWait(window, path));
    QVERIFY(runAndWait(window, [&] { window.runAction()->trigger(); }));
    QVERIFY(window.lastRun().run->verified);
    QVERIFY(exportedReport(window, dir).contains(QStringLiteral("VERIFIED")));

    QSignalSpy ready(&window, &MainWindow::planShown);
    QCOMPARE(std::rename(QFile::encodeName(next).constData(), QFile::encodeName(path).constData()),
             0);
    QVERIFY(ready.wait(20000));
    QCOMPARE(window.session()->current().plan->worldSize, 8);
    QVERIFY(window.lastRun().isValid());  // the views' design: kept, marked
    QVERIFY(window.runStatusText().endsWith(QStringLiteral(" · a run of an earlier plan")));
    QString report = exportedReport(window, dir);
    QVERIFY(report.contains(QStringLiteral("Llama")));
    QVERIFY2(!report.contains(QStringLiteral("VERIFIED")), qPrintable(report.left(3000)));
    QVERIFY(!report.contains(QStringLiteral("run: ")));
    QVERIFY(!report.contains(QStringLiteral("Run: verification")));
    QVERIFY(!report.contains(QStringLiteral("The run was made on an earlier plan")));
    QVERIFY(
        report.contains(QStringLiteral("A run of an earlier plan of this scenario exists and "
                                       "was not included")));
    QVERIFY(!reproduceCommand(report).contains(QStringLiteral("--run")));
    QVERIFY(!report.contains(QStringLiteral("no longer reads")));

    QSignalSpy failed(window.session(), &Session::readFailed);
    QVERIFY(writeAll(path, QByteArray("{\"format\": \"hsdp-scenario/1\", \"name\": ")));
    QVERIFY(failed.wait(20000));
    QVERIFY(window.session()->isStale());
    report = exportedReport(window, dir);
    QVERIFY2(report.contains(QStringLiteral("The scenario file no longer reads")),
             qPrintable(report.left(3000)));
    QVERIFY(report.contains(QStringLiteral("line 1, column")));
    QVERIFY(!report.contains(QStringLiteral("VERIFIED")));
}

// An edit makes the run an earlier plan's; undoing it gives back the very
// scenario the run ran, so the run is this plan's again: once the status bar
// kept "[a run of an earlier plan]" and the report left the run out.
void TestSelectionLifecycle::anUndoneEditGivesTheRunBack() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openAndWait(window, sample(kBase)));
    QVERIFY(runAndWait(window, [&] { window.runReferenceAction()->trigger(); }));
    const RunData ran = window.lastRun();
    QVERIFY(ran.isValid() && !ran.run->verified);

    QSignalSpy shown(&window, &MainWindow::planShown);
    window.document()->setValue(QStringLiteral("/options/max_batch_numel"), Json(64),
                                QStringLiteral("batch cap"));
    window.document()->closeEditStep();
    QVERIFY(shown.wait(20000));
    QVERIFY(window.runStatusText().endsWith(QStringLiteral(" · a run of an earlier plan")));
    QVERIFY(exportedReport(window, dir).contains(QStringLiteral("A run of an earlier plan")));

    window.document()->undoStack()->undo();
    QVERIFY(shown.wait(20000));
    QVERIFY(!window.document()->isModified());
    QCOMPARE(window.lastRun().run, ran.run);
    QCOMPARE(window.lastRun().plan.plan, window.session()->current().plan);
    QVERIFY2(!window.runStatusText().contains(QStringLiteral("earlier plan")),
             qPrintable(window.runStatusText()));
    QVERIFY(!testing::runStatusLabel(window)->text().contains(QStringLiteral("earlier plan")));
    // Every view has it again: Verification, and Wrong rows its reference run.
    QCOMPARE(window.view<VerificationWidget>()->model()->run().run, ran.run);
    QCOMPARE(window.view<WrongRowsWidget>()->referenceRun().run, ran.run);
    const QString report = exportedReport(window, dir);
    QVERIFY(!report.contains(QStringLiteral("earlier plan")));
    QVERIFY(report.contains(QStringLiteral("colwise.strided")));
    QVERIFY(reproduceCommand(report).contains(QStringLiteral("--run")));
}

QTEST_MAIN(TestSelectionLifecycle)
// The plan tree's filter stays when the next file opens; if it matches
// nothing there, the tree says so and offers to clear it rather than
// showing an empty tree.
void TestSelectionLifecycle::aFilterThatMatchesNothingSaysSo() {
    const PlanResult large = computePlanResult(sample("llama3_70b_hsdp_tp_2x4x4.json"));
    const PlanResult small = computePlanResult(sample("teaching_2x2.json"));
    PlanSelection selection;
    PlanTreeWidget tree(&selection);
    tree.setResult(large);
    const QString name = QString::fromStdString(large.scenario->params.back().name);
    tree.filterEdit()->setText(name);
    QVERIFY(tree.proxy()->rowCount() > 0);
    QVERIFY(tree.noMatchLabel()->isHidden());
    tree.setResult(small);  // the next file: no such param
    QCOMPARE(tree.proxy()->rowCount(), 0);
    QVERIFY(!tree.noMatchLabel()->isHidden());
    QVERIFY2(tree.noMatchLabel()->text().contains(QStringLiteral("No params match '%1'").arg(name)),
             qPrintable(tree.noMatchLabel()->text()));
    QVERIFY(tree.noMatchLabel()->text().contains(QStringLiteral(">Clear</a>")));
    emit tree.noMatchLabel()->linkActivated(QStringLiteral("clear"));
    QVERIFY(tree.filterEdit()->text().isEmpty());
    QVERIFY(tree.proxy()->rowCount() > 0);
    QVERIFY(tree.noMatchLabel()->isHidden());
}

// Ranks picked on one file are not the next file's: their outline went on
// being drawn on the next mesh. An edit of the same file keeps them.
void TestSelectionLifecycle::pickedRanksStayWithTheirFile() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    window.selection()->selectRanks({1, 2});
    QCOMPARE(window.view<MeshWidget>()->canvas()->overlay().pickedRanks, (std::vector<int>{1, 2}));
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));  // the same file again
    QCOMPARE(window.selection()->ranks(), (std::vector<int>{1, 2}));
    QVERIFY(openAndWait(window, sample("llama3_8b_hsdp_2x4.json")));
    QVERIFY(window.selection()->ranks().empty());
    QVERIFY(window.view<MeshWidget>()->canvas()->overlay().pickedRanks.empty());
}

// A narrow tree gives the names their share first and shortens a param
// between words, keeping its layer number and its last words
// ("model.layers.37.…q_proj.weight"): cut from the left, every layer's
// q_proj read the same.
void TestSelectionLifecycle::aNarrowTreeKeepsEachParamsLayerNumber() {
    // Llama 3 8B as its checkpoints name it ("model.layers.31.mlp.down_proj.weight").
    ConfigScenarioRequest request;
    request.config =
        readModelConfigFile(HSDP_SOURCE_DIR "/tests/data/model_configs/llama3_8b.json");
    request.layout = parseParallelLayout("dp_replicate=2,dp_shard=4");
    const PlanResult plan =
        computePlanResult(readScenario(scenarioFromModelConfig(request).dump()), QString());
    PlanSelection selection;
    PlanTreeWidget tree(&selection);
    tree.setResult(plan);
    tree.resize(420, 600);
    tree.show();
    tree.treeView()->expandAll();
    QCoreApplication::processEvents();  // the columns fitted to the narrow dock
    auto* delegate = dynamic_cast<WordElideDelegate*>(tree.treeView()->itemDelegateForColumn(0));
    if (!delegate) delegate = dynamic_cast<WordElideDelegate*>(tree.treeView()->itemDelegate());
    QVERIFY(delegate);
    QAbstractItemModel* model = tree.treeView()->model();
    int checked = 0;
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
        for (int row = 0; row < model->rowCount(parent); ++row) {
            const QModelIndex index = model->index(row, 0, parent);
            walk(index);
            if (index.data(ParamRole).toInt() < 0) continue;
            const QString full = PlanTreeWidget::shownText(index);
            const QRegularExpressionMatch layer =
                QRegularExpression(QStringLiteral("\\.(\\d+)\\.")).match(full);
            if (!layer.hasMatch()) continue;
            QStyleOptionViewItem option;
            option.initFrom(tree.treeView());
            option.rect = tree.treeView()->visualRect(index);
            option.font = tree.treeView()->font();
            const QString shown = delegate->shownText(option, index);
            if (shown == full) continue;
            ++checked;
            const QRegularExpression kept(QStringLiteral("(^|[.…])%1\\.").arg(layer.captured(1)));
            QVERIFY2(shown.contains(kept),
                     qPrintable(shown + QStringLiteral(" lost the layer of ") + full));
            QVERIFY2(shown.endsWith(full.section(QLatin1Char('.'), -1)), qPrintable(shown));
        }
    };
    walk(QModelIndex());
    QVERIFY2(checked > 100, qPrintable(QString::number(checked)));
}

#include "tst_selection_lifecycle.moc"
