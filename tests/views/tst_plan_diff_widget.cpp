// SPDX-License-Identifier: Apache-2.0
// The "What changed" dock in the studio window, offscreen: a scenario file
// rewritten on disk shows what moved since the previous plan; a reload of
// the same file says "Same plan"; File ▸ Compare with… compares the current
// plan (before) with another file (after); activating a moved param, a
// diagnostic or a load row selects it everywhere.
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QThread>
#include <QTreeView>
#include <QtTest>
#include <array>

#include "derived/plan/plan_index.h"
#include "plan_diff/plan_diff_model.h"
#include "plan_diff/plan_diff_tracker.h"
#include "plan_diff/plan_diff_widget.h"
#include "samples.h"
#include "studio_test_util.h"
#include "window/main_window.h"

using namespace hsdp;
using hsdp::testing::sample;
using hsdp::testing::sampleText;

namespace {

// The teaching sample with four replicas instead of two: owners spread out.
QByteArray fourReplicas() {
    return sampleText("teaching_2x2.json").replace("\"shape\": [2, 2]", "\"shape\": [4, 2]");
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return file.write(bytes) == bytes.size();
}

// Waits for the tracker's next comparison.
PlanDiffTable nextChange(MainWindow& window) {
    QSignalSpy ready(window.planDiffTracker(), &PlanDiffTracker::diffReady);
    if (!ready.wait(20000)) return {};
    return ready.last().at(0).value<PlanDiffTable>();
}

QModelIndex rowOf(PlanDiffWidget* changes, PlanDiffSection section, int row) {
    PlanDiffModel* model = changes->model();
    return model->index(row, 0, model->sectionIndex(section));
}

// The tab in front among the docks sharing the bottom area with "What changed".
QString frontTab(MainWindow& window) {
    for (QTabBar* bar : window.findChildren<QTabBar*>())
        for (int t = 0; t < bar->count(); ++t)
            if (bar->tabText(t) == QStringLiteral("What changed"))
                return bar->tabText(bar->currentIndex());
    return {};
}

}  // namespace

class TestPlanDiffWidget : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void fileChangedOnDiskShowsWhatMoved();
    void reloadOfTheSameFileIsTheSamePlan();
    void compareWithAnotherFile();
    void activatingRowsSelectsEverywhere();
    void compareShortcutIsListed();
    void aFileThatDoesNotReadIsSaid();
    void aLongSummaryWrapsInsteadOfWideningTheWindow();
    void summaryAndHeadingCountTheSame_data();
    void summaryAndHeadingCountTheSame();

private:
    bool openAndSettle(MainWindow& window);
    QTemporaryDir dir_;
    QString path_;
};

void TestPlanDiffWidget::init() {
    path_ = dir_.filePath(QStringLiteral("scenario.json"));
    QVERIFY(writeFile(path_, sampleText("teaching_2x2.json")));
}

bool TestPlanDiffWidget::openAndSettle(MainWindow& window) {
    window.session()->setDebounceMilliseconds(50);
    QSignalSpy ready(window.planDiffTracker(), &PlanDiffTracker::diffReady);
    window.openScenario(path_);
    return ready.wait(20000) && !window.planDiffTracker()->change().isValid();
}

void TestPlanDiffWidget::fileChangedOnDiskShowsWhatMoved() {
    MainWindow window;
    window.show();
    QVERIFY(openAndSettle(window));
    PlanDiffWidget* changes = window.view<PlanDiffWidget>();
    QCOMPARE(changes->summaryText(), QStringLiteral("Nothing to compare yet"));
    QCOMPARE(frontTab(window), QStringLiteral("Diagnostics"));  // nothing to show yet
    PlanResult before = window.session()->current();

    QSignalSpy planned(&window, &MainWindow::planShown);
    QSignalSpy compared(window.planDiffTracker(), &PlanDiffTracker::diffReady);
    QThread::msleep(20);
    QVERIFY(writeFile(path_, fourReplicas()));
    QVERIFY(planned.wait(20000));
    QTRY_VERIFY_WITH_TIMEOUT(window.planDiffTracker()->change().isValid(), 20000);
    PlanResult after = window.session()->current();
    QVERIFY(after.plan != before.plan);

    PlanDiff diff = diffPlans(*before.scenario, *before.plan, *after.scenario, *after.plan);
    QVERIFY(!diff.changedParams.empty());
    PlanDiffModel* model = changes->model();
    QCOMPARE(model->rowCount(model->sectionIndex(PlanDiffSection::Params)),
             static_cast<int>(diff.changedParams.size() + diff.addedParams.size() +
                              diff.removedParams.size()));
    for (size_t r = 0; r < diff.changedParams.size(); ++r)
        QCOMPARE(rowOf(changes, PlanDiffSection::Params, static_cast<int>(r)).data().toString(),
                 QString::fromStdString(diff.changedParams[r].name));
    QVERIFY2(changes->summaryText().startsWith(
                 QStringLiteral("%1 param").arg(diff.changedParams.size())),
             qPrintable(changes->summaryText()));
    QVERIFY(changes->titleText().startsWith(QStringLiteral("since the last change")));
    QCOMPARE(window.planDiffTracker()->change().currentPlan, after.plan);
    QCOMPARE(frontTab(window), QStringLiteral("What changed"));  // raised over Diagnostics
}

void TestPlanDiffWidget::reloadOfTheSameFileIsTheSamePlan() {
    MainWindow window;
    window.show();
    QVERIFY(openAndSettle(window));
    window.session()->reload();
    PlanDiffTable change = nextChange(window);
    QVERIFY(change.isValid());
    QCOMPARE(window.view<PlanDiffWidget>()->summaryText(), QStringLiteral("Same plan"));
    PlanDiffModel* model = window.view<PlanDiffWidget>()->model();
    QCOMPARE(model->rowCount(), kChangeSectionCount);
    for (int s = 0; s < kChangeSectionCount; ++s)
        QCOMPARE(model->rowCount(model->sectionIndex(static_cast<PlanDiffSection>(s))), 0);
    QCOMPARE(frontTab(window), QStringLiteral("Diagnostics"));  // nothing moved: not raised
}

void TestPlanDiffWidget::compareWithAnotherFile() {
    MainWindow window;
    QVERIFY(openAndSettle(window));
    QString other = dir_.filePath(QStringLiteral("four_replicas.json"));
    QVERIFY(writeFile(other, fourReplicas()));
    window.compareWith(other);
    PlanDiffTable change = nextChange(window);
    QVERIFY(change.isValid());
    QCOMPARE(change.current, CurrentSide::Before);
    PlanResult current = window.session()->current();
    PlanResult reference = computePlanResult(other);
    PlanDiff diff =
        diffPlans(*current.scenario, *current.plan, *reference.scenario, *reference.plan);
    QCOMPARE(change.diff->changedParams.size(), diff.changedParams.size());
    QVERIFY(
        window.view<PlanDiffWidget>()->titleText().contains(QStringLiteral("four_replicas.json")));
    QVERIFY(window.view<PlanDiffWidget>()->titleText().contains(
        QStringLiteral("before: scenario.json (open)")));
    // The current plan changing on disk is compared with the same file again.
    QThread::msleep(20);
    QVERIFY(writeFile(path_, fourReplicas()));
    QTRY_VERIFY_WITH_TIMEOUT(window.planDiffTracker()->change().same(), 20000);
    QCOMPARE(window.view<PlanDiffWidget>()->summaryText(), QStringLiteral("Same plan"));
    // Back to "since the last change".
    window.planDiffTracker()->compareSinceLastChange();
    PlanDiffTable since = nextChange(window);
    QVERIFY(since.isValid());  // the rewrite replaced the first plan
    QVERIFY(window.view<PlanDiffWidget>()->titleText().startsWith(
        QStringLiteral("since the last change")));
    // A comparison with a file is the document's that asked for it: another
    // document opening ends it (once it went on, "before: tour.json · after:
    // c_2x4x2.json, 579 params added").
    window.compareWith(other);
    QVERIFY(nextChange(window).isValid());
    QCOMPARE(window.planDiffTracker()->mode(), PlanDiffTracker::Mode::AgainstFile);
    QVERIFY(testing::openAndWait(window, sample(QStringLiteral("llama3_8b_hsdp_2x4.json"))));
    QCOMPARE(window.planDiffTracker()->mode(), PlanDiffTracker::Mode::SinceLastChange);
    QVERIFY(window.planDiffTracker()->referencePath().isEmpty());
    // The view's title follows once the new document's plan is compared (a
    // loaded machine showed the old title for a moment).
    QTRY_VERIFY_WITH_TIMEOUT(
        !window.view<PlanDiffWidget>()->titleText().contains(QStringLiteral("four_replicas")),
        20000);
}

void TestPlanDiffWidget::activatingRowsSelectsEverywhere() {
    MainWindow window;
    QVERIFY(openAndSettle(window));
    QThread::msleep(20);
    QVERIFY(writeFile(path_, fourReplicas()));
    QTRY_VERIFY_WITH_TIMEOUT(window.planDiffTracker()->change().isValid(), 20000);
    const PlanResult& current = window.session()->current();
    const PlanDiffTable& change = window.planDiffTracker()->change();
    PlanDiffWidget* changes = window.view<PlanDiffWidget>();
    int checked = 0;
    for (size_t r = 0; r < change.diff->changedParams.size(); ++r) {
        QVERIFY(changes->activate(rowOf(changes, PlanDiffSection::Params, static_cast<int>(r))));
        int param = change.diff->changedParams[r].after.index;
        const ParamPlace& place = current.index->params[static_cast<size_t>(param)];
        QCOMPARE(window.selection()->params(), std::vector<int>{param});
        QCOMPARE(window.selection()->group(), place.group);
        QCOMPARE(window.selection()->batch(), place.batch);
        ++checked;
    }
    QVERIFY(checked > 0);
    // A load row selects its group in the current plan.
    PlanDiffModel* model = changes->model();
    if (model->rowCount(model->sectionIndex(PlanDiffSection::Loads)) > 0) {
        QVERIFY(changes->activate(rowOf(changes, PlanDiffSection::Loads, 0)));
        QCOMPARE(window.selection()->group(), change.rows(PlanDiffSection::Loads)[0].group);
    }
    // Section titles select nothing.
    auto before = window.selection()->state();
    QVERIFY(!changes->activate(model->sectionIndex(PlanDiffSection::Params)));
    QCOMPARE(window.selection()->state(), before);
}

void TestPlanDiffWidget::compareShortcutIsListed() {
    MainWindow window;
    bool found = false;
    for (QAction* action : window.shortcutActions())
        found |= action->shortcut() == QKeySequence(QStringLiteral("Ctrl+Shift+D"));
    QVERIFY(found);
    QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("planDiffDock")));
}

// The panel's error line, as the user sees it ("" when hidden).
QString shownError(MainWindow& window) {
    for (QLabel* label : window.view<PlanDiffWidget>()->findChildren<QLabel*>())
        if (label->text().startsWith(QStringLiteral("Cannot compare")) &&
            label->isVisibleTo(&window))
            return label->text();
    return {};
}

// Compare with… a file that does not read says why, naming the file, and
// keeps saying it after the panel went back to "since the last change".
void TestPlanDiffWidget::aFileThatDoesNotReadIsSaid() {
    MainWindow window;
    QVERIFY(openAndSettle(window));
    const QString broken = dir_.filePath(QStringLiteral("broken.json"));
    QVERIFY(writeFile(broken, sampleText("teaching_2x2.json").left(52)));
    const QString missing = dir_.filePath(QStringLiteral("missing.json"));
    for (const QString& path : {broken, missing}) {
        QSignalSpy failed(window.planDiffTracker(), &PlanDiffTracker::compareFailed);
        window.compareWith(path);
        QVERIFY(failed.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(!window.planDiffTracker()->isBusy(), 20000);
        QCoreApplication::processEvents();
        const QString error = shownError(window);
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(path == broken ? QStringLiteral("line ")
                                               : QStringLiteral("No such file")),
                 qPrintable(error));
        QCOMPARE(window.view<PlanDiffWidget>()->errorText(), error);
    }
    // A comparison that works clears it.
    const QString other = dir_.filePath(QStringLiteral("four_replicas.json"));
    QVERIFY(writeFile(other, fourReplicas()));
    window.compareWith(other);
    QVERIFY(nextChange(window).isValid());
    QCOMPARE(shownError(window), QString());
}

void TestPlanDiffWidget::summaryAndHeadingCountTheSame_data() {
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::newRow("mixtral vs tour") << "mixtral_8x7b_expert_mesh.json"
                                     << "diagnostics_tour.json";
    QTest::newRow("tour vs mixtral") << "diagnostics_tour.json"
                                     << "mixtral_8x7b_expert_mesh.json";
    QTest::newRow("diff pair") << "diff/before.json"
                               << "diff/after.json";
    QTest::newRow("8b vs teaching") << "llama3_8b_hsdp_2x4.json"
                                    << "teaching_2x2.json";
    QTest::newRow("teaching vs 4 replicas") << "teaching_2x2.json"
                                            << "";
}

// "N moved", "A added", "R removed" as a text says them (0 when it does not).
std::array<int, 3> saidCounts(const QString& text) {
    std::array<int, 3> counts{0, 0, 0};
    const char* kinds[] = {"moved", "added", "removed"};
    for (int k = 0; k < 3; ++k) {
        const QRegularExpression said(QStringLiteral("(\\d+) (?:params? )?%1").arg(kinds[k]));
        if (auto match = said.match(text); match.hasMatch())
            counts[size_t(k)] = match.captured(1).toInt();
    }
    // The heading without a breakdown: every row moved.
    const QRegularExpression plain(QStringLiteral("^Parameters moved \\((\\d+)\\)$"));
    if (auto match = plain.match(text); match.hasMatch()) counts[0] = match.captured(1).toInt();
    return counts;
}

void TestPlanDiffWidget::summaryAndHeadingCountTheSame() {
    QFETCH(QString, before);
    QFETCH(QString, after);
    const QString samples = sample();
    QVERIFY(writeFile(path_, sampleText(qPrintable(before))));
    const QString other = dir_.filePath(QStringLiteral("other.json"));
    QVERIFY(writeFile(other, after.isEmpty() ? fourReplicas() : sampleText(qPrintable(after))));
    MainWindow window;
    QVERIFY(openAndSettle(window));
    window.compareWith(other);
    const PlanDiffTable change = nextChange(window);
    QVERIFY(change.isValid());
    const PlanDiff& diff = *change.diff;
    const std::array<int, 3> truth{int(diff.changedParams.size()), int(diff.addedParams.size()),
                                   int(diff.removedParams.size())};
    const QString summary = window.view<PlanDiffWidget>()->summaryText();
    const QModelIndex section =
        window.view<PlanDiffWidget>()->model()->sectionIndex(PlanDiffSection::Params);
    const QString heading = section.data().toString();
    QCOMPARE(saidCounts(summary), truth);
    QVERIFY2(saidCounts(heading) == truth, qPrintable(heading + QStringLiteral(" | ") + summary));
    QVERIFY2(heading.contains(QStringLiteral("(%1)").arg(truth[0] + truth[1] + truth[2])),
             qPrintable(heading));
    QCOMPARE(window.view<PlanDiffWidget>()->model()->rowCount(section),
             truth[0] + truth[1] + truth[2]);
    // Diagnostics as the summary and `diff` count them: one on many params is one.
    const QString diagnostics = window.view<PlanDiffWidget>()
                                    ->model()
                                    ->sectionIndex(PlanDiffSection::DiagnosticsAppeared)
                                    .data()
                                    .toString();
    QVERIFY2(diagnostics.startsWith(QStringLiteral("Diagnostics appeared (%1")
                                        .arg(groupDiagnostics(diff.appearedDiagnostics).size())),
             qPrintable(diagnostics));
}

// The summary with the prediction's change (on h100-dgx, the default
// cluster: "predicted step … ± 3 % on its pieces only (…)") is longer than a
// laptop's screen is wide: it wraps. A label that does not wrap made the
// window's minimum width its length, and the window grew past the screen.
void TestPlanDiffWidget::aLongSummaryWrapsInsteadOfWideningTheWindow() {
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QVERIFY(openAndSettle(window));
    const int width = window.width();
    QThread::msleep(20);
    QVERIFY(writeFile(path_, fourReplicas()));
    PlanDiffWidget* changes = window.view<PlanDiffWidget>();
    QTRY_VERIFY_WITH_TIMEOUT(changes->summaryText().contains(QStringLiteral("predicted step")),
                             20000);
    QVERIFY2(QFontMetrics(window.font()).horizontalAdvance(changes->summaryText()) > width,
             qPrintable(changes->summaryText()));  // longer than the window is wide
    QApplication::processEvents();
    QCOMPARE(window.width(), width);
    QVERIFY(window.minimumSizeHint().width() <= width);
    // Every column in view, none past the right edge (the After column was).
    for (QWidget* w = changes; w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) dock->raise();
    QApplication::processEvents();
    QTRY_VERIFY(changes->view()->isVisible());
    QTest::qWait(50);
    int columns = 0;
    for (int c = 0; c < changes->view()->model()->columnCount(); ++c)
        columns += changes->view()->columnWidth(c);
    QVERIFY2(columns <= changes->view()->viewport()->width(),
             qPrintable(QStringLiteral("%1 px of columns in %2 px")
                            .arg(columns)
                            .arg(changes->view()->viewport()->width())));
    QCOMPARE(changes->view()->horizontalScrollBar()->maximum(), 0);
    // And fitted to the room it has once shown, not while its tab was
    // hidden: the Before and After columns are not cut beside room to spare.
    QAbstractItemModel* model = changes->view()->model();
    const QFontMetrics metrics(changes->view()->font());
    int widest = 0;  // of the After column's texts, up to the 340 px it may take
    for (int section = 0; section < model->rowCount(); ++section) {
        const QModelIndex parent = model->index(section, 0);
        for (int row = 0; row < model->rowCount(parent); ++row)
            widest = std::max(
                widest,
                metrics.horizontalAdvance(
                    model->index(row, PlanDiffModel::AfterColumn, parent).data().toString()));
    }
    const int after = changes->view()->columnWidth(PlanDiffModel::AfterColumn);
    const int lastColumn = changes->view()->columnWidth(PlanDiffModel::DeltaColumn);
    QVERIFY2(after >= std::min(widest, 340 - 16) || lastColumn < 120,
             qPrintable(QStringLiteral("After is %1 px for %2 px of text, beside %3 px spare")
                            .arg(after)
                            .arg(widest)
                            .arg(lastColumn)));
}

QTEST_MAIN(TestPlanDiffWidget)
#include "tst_plan_diff_widget.moc"
