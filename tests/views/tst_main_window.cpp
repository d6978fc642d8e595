// SPDX-License-Identifier: Apache-2.0
// The studio window, offscreen: a plan fills every view and the status bar
// (its line whole while the bar has the room); one selection links them
// (tree -> mesh overlay, diagnostic -> tree and mesh); a file that stops
// reading keeps the last good plan under a banner with the reader's
// message; Help ▸ Documentation shows docs/README.md, installed or from
// the source tree; the binary's --screenshot, --help, --version.
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeView>
#include <QtTest>
#include <algorithm>

#include "derived/plan/model_roles.h"
#include "derived/plan/plan_index.h"
#include "diagnostics/diagnostics_widget.h"
#include "hsdp_version.h"
#include "mesh/mesh_widget.h"
#include "painting/elided_label.h"
#include "plan/diagnostics.h"
#include "plan/hazards.h"
#include "plan_tree/plan_tree_widget.h"
#include "sample_rows.h"
#include "scenario/reader.h"
#include "studio_test_util.h"
#include "window/documentation_browser.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

using namespace hsdp;
using hsdp::testing::openAndWait;
using hsdp::testing::sample;

namespace {

// The owner-imbalance rule's places, walked here from the loads (docs/plan.md
// §6): a batch with at least as many owned params as coordinates, a group of
// two batches or more over its batches summed; the highest max/mean, the
// first on ties, as "1.71 (group 3 batch 0)" or "2.00 (group 2 over its 96
// batches)"; "none judged" when nothing is.
QString worstJudgedImbalance(const Plan& plan) {
    double worst = -1;
    QString where;
    auto judge = [&](const std::vector<int64_t>& loads, size_t owned, const QString& place) {
        int64_t sum = 0, most = 0;
        for (int64_t l : loads) {
            sum += l;
            most = std::max(most, l);
        }
        if (loads.size() < 2 || owned < loads.size() || most <= 0) return;
        const double ratio = double(most) * double(loads.size()) / double(sum);
        if (ratio > worst) {
            worst = ratio;
            where = place;
        }
    };
    for (const Group& group : plan.groups) {
        std::vector<int64_t> total;
        size_t owned = 0;
        for (size_t b = 0; b < group.batches.size(); ++b) {
            const Batch& batch = group.batches[b];
            const std::vector<int64_t> loads = batch.loads.dense();
            total.resize(std::max(total.size(), loads.size()), 0);
            for (size_t c = 0; c < loads.size(); ++c) total[c] += loads[c];
            owned += batch.owner.size();
            judge(loads, batch.owner.size(),
                  QStringLiteral("group %1 batch %2").arg(group.id).arg(b));
        }
        if (group.batches.size() >= 2)
            judge(total, owned,
                  QStringLiteral("group %1 over its %2 batches")
                      .arg(group.id)
                      .arg(group.batches.size()));
    }
    if (worst < 0) return QStringLiteral("none judged");
    if (worst < 1.005) return QStringLiteral("1.00 (even)");  // no place to name
    return QStringLiteral("%1 (%2)").arg(QString::number(worst, 'f', 2), where);
}

std::vector<int> ownersFromPlan(const Plan& plan, int param) {
    std::vector<int> ranks;
    for (const RankOwnership& rank : plan.ranks)
        if (std::binary_search(rank.owned.begin(), rank.owned.end(), param))
            ranks.push_back(rank.rank);
    return ranks;
}

QString studio() {
    return QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-studio");
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void planFillsTheViewsAndStatusBar();
    void statusBarsImbalanceIsTheDiagnosticsOne_data();
    void statusBarsImbalanceIsTheDiagnosticsOne();
    void theStatusLineIsWholeWhileThereIsRoom();
    void helpShowsTheDocumentation();
    void treeSelectionShowsTheOwnersInTheMesh();
    void diagnosticActivationSelectsEverywhere();
    void brokenFileKeepsThePlanUnderABanner();
    void shortcutsCoverTheCommonActions();
    void screenshotModeWritesEveryView();
    void helpAndVersion();
    void aRestoredWindowStaysOnScreen();
};

void TestMainWindow::planFillsTheViewsAndStatusBar() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_8b_hsdp_2x4.json")));
    const PlanResult& result = window.session()->current();
    // One group in the singular (the sample's hidden matrices share a layout).
    const size_t groups = result.plan->groups.size();
    QVERIFY2(window.statusText().startsWith(
                 groups == 1 ? QStringLiteral("8 ranks · 1 group · ")
                             : QStringLiteral("8 ranks · %1 groups").arg(groups)),
             qPrintable(window.statusText()));
    QVERIFY(window.view<PlanTreeWidget>()->model()->rowCount() > 0);
    QCOMPARE(window.view<DiagnosticsWidget>()->model()->rowCount(),
             static_cast<int>(result.plan->diagnostics.size()));
    QCOMPARE(window.view<MeshWidget>()->canvas()->meshLayout().cells().size(), size_t(8));
    QVERIFY(window.banner()->isHidden());
    // A new file starts with its most interesting param selected.
    QCOMPARE(window.selection()->focusParam(),
             mostInterestingParam(*result.scenario, *result.plan));
}

void TestMainWindow::statusBarsImbalanceIsTheDiagnosticsOne_data() {
    testing::addSampleRows();
}

// The status bar's worst imbalance is the owner-imbalance rule's, and says
// where: the teaching sample's lone params over 2 and 4 coordinates (max/mean
// 2.00 and 4.00, idle by necessity) are not it, and when the figure is over
// the rule's threshold the owner-imbalance warning gives the same figure.
void TestMainWindow::statusBarsImbalanceIsTheDiagnosticsOne() {
    QFETCH(QString, path);
    MainWindow window;
    QVERIFY(openAndWait(window, path));
    const PlanResult& result = window.session()->current();
    const QString worst = worstJudgedImbalance(*result.plan);
    const QString status = window.statusText();
    QVERIFY2(status.contains(QStringLiteral(" · owner imbalance %1").arg(worst)),
             qPrintable(worst + QStringLiteral(" vs ") + status));
    const double ratio = worst.section(QLatin1Char(' '), 0, 0).toDouble();
    if (worst == QStringLiteral("none judged") || ratio <= kImbalanceMaxOverMean) return;
    bool warned = false;
    for (const Diagnostic& d : result.plan->diagnostics)
        warned |= d.code == codes::OwnerImbalance &&
                  QString::fromStdString(d.message).contains(
                      QStringLiteral("max/mean %1").arg(worst.section(' ', 0, 0)));
    QVERIFY2(warned, qPrintable(worst));
}

// Before any run the run's line is empty: the plan's line (its predicted
// step and cluster last) is whole, not cut at half the bar beside a blank
// half; with a run's line too, each is whole while the two fit.
void TestMainWindow::theStatusLineIsWholeWhileThereIsRoom() {
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    QVERIFY(testing::predictionDone(window));
    QApplication::processEvents();
    ElidedLabel* status = nullptr;
    for (auto* label : window.statusBar()->findChildren<ElidedLabel*>())
        if (label->text() == window.statusText()) status = label;
    QVERIFY(status);
    QVERIFY2(window.statusText().contains(QStringLiteral("predicted step")),
             qPrintable(window.statusText()));
    QVERIFY2(!status->isElided(), qPrintable(QStringLiteral("'%1' cut to %2 px of %3")
                                                 .arg(status->text())
                                                 .arg(status->contentsRect().width())
                                                 .arg(window.statusBar()->width())));

    // With a run's line beside it, at widths where both fit and where they
    // do not: a line is cut only while the other has no room to spare.
    QSignalSpy ran(&window, &MainWindow::runReady);
    QVERIFY(window.startRun(RunRequest{}));
    QVERIFY(ran.wait(60000));
    ElidedLabel* run = qobject_cast<ElidedLabel*>(testing::runStatusLabel(window));
    QVERIFY(run && !run->text().isEmpty());
    // At 1600 px both are whole after a run (a new user's was cut at 1440 and
    // 1920): the run's line is the verdict's counts and the wall time, every
    // figure in its tooltip.
    window.resize(1600, 900);
    QApplication::processEvents();
    QVERIFY2(!status->isElided() && !run->isElided(),
             qPrintable(QStringLiteral("'%1' (%3 of %4 px) and '%2' (%5 of %6 px) at 1600 px")
                            .arg(status->text(), run->text())
                            .arg(status->contentsRect().width())
                            .arg(status->fontMetrics().horizontalAdvance(status->text()))
                            .arg(run->contentsRect().width())
                            .arg(run->fontMetrics().horizontalAdvance(run->text()))));
    window.resize(1440, 900);
    QCOMPARE(run->toolTip(), window.runStatusText());
    QVERIFY2(run->text().startsWith(QStringLiteral("verified: ")) &&
                 run->text().endsWith(QStringLiteral(" s wall")) &&
                 !run->text().contains(QStringLiteral("per-rank events")),
             qPrintable(run->text()));
    QVERIFY(window.runStatusText().contains(QStringLiteral("per-rank events")));
    for (int width : {1900, 1440, 1000}) {
        window.resize(width, 900);
        QApplication::processEvents();
        // The verdict stays whole while it takes at most half the bar: the
        // plan's line is cut first (a reference run's wall time was cut).
        if (run->fontMetrics().horizontalAdvance(run->text()) < window.statusBar()->width() / 2)
            QVERIFY2(!run->isElided(), qPrintable(QStringLiteral("at %1 px '%2' is cut to %3 px")
                                                      .arg(width)
                                                      .arg(run->text())
                                                      .arg(run->contentsRect().width())));
        for (auto [cut, other] : {std::pair{status, run}, std::pair{run, status}})
            QVERIFY2(
                !cut->isElided() || other->contentsRect().width() <=
                                        other->fontMetrics().horizontalAdvance(other->text()) + 8,
                qPrintable(QStringLiteral("at %1 px '%2' is cut to %3 px beside '%4' in %5")
                               .arg(width)
                               .arg(cut->text())
                               .arg(cut->contentsRect().width())
                               .arg(other->text())
                               .arg(other->contentsRect().width())));
    }
    // However long the run's line, the diagnostic counts stay whole.
    QLabel* counts = nullptr;
    for (auto* label : window.statusBar()->findChildren<QLabel*>())
        if (label->text() == window.diagnosticCountsText()) counts = label;
    QVERIFY(counts && counts->text().contains(QStringLiteral("warning")));
    for (int width : {1000, 800}) {
        window.resize(width, 900);
        QApplication::processEvents();
        QVERIFY2(counts->isVisible() && counts->contentsRect().width() >=
                                            counts->fontMetrics().horizontalAdvance(counts->text()),
                 qPrintable(QStringLiteral("at %1 px '%2' has %3 px")
                                .arg(width)
                                .arg(counts->text())
                                .arg(counts->contentsRect().width())));
    }
    // Wide enough for both lines, the diagnostic counts and both imbalances.
    window.resize(2400, 900);
    QApplication::processEvents();
    QVERIFY2(!status->isElided() && !run->isElided(),
             qPrintable(QStringLiteral("%1 px for '%2' and '%3'")
                            .arg(window.statusBar()->width())
                            .arg(status->text(), run->text())));
}

// Help ▸ Documentation: the installed pages (a package's prefix) before a
// source tree's; from the test's build folder, the source tree's
// docs/README.md, shown rendered.
void TestMainWindow::helpShowsTheDocumentation() {
    QTemporaryDir prefix;
    QVERIFY(QDir(prefix.path()).mkpath(QStringLiteral("bin")));
    QVERIFY(QDir(prefix.path()).mkpath(QStringLiteral("share/doc/hsdp-studio/docs")));
    QFile installed(prefix.filePath(QStringLiteral("share/doc/hsdp-studio/docs/README.md")));
    QVERIFY(installed.open(QIODevice::WriteOnly));
    installed.write("# Installed\n");
    installed.close();
    QCOMPARE(documentationIndex(prefix.filePath(QStringLiteral("bin"))),
             QFileInfo(installed).canonicalFilePath());
    QCOMPARE(documentationIndex(prefix.path()), QString());  // no bin folder: nothing above

    const QString index = documentationIndex(QCoreApplication::applicationDirPath());
    QCOMPARE(index,
             QFileInfo(QStringLiteral(HSDP_SOURCE_DIR "/docs/README.md")).canonicalFilePath());

    MainWindow window;
    QAction* action = window.findChild<QAction*>(QStringLiteral("documentationAction"));
    QVERIFY(action);
    QCOMPARE(action->text(), QStringLiteral("&Documentation"));
    bool inHelp = false;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&Help") && menu->menu()->actions().contains(action))
            inHelp = true;
    QVERIFY(inHelp);
    action->trigger();
    auto* shown = window.findChild<DocumentationBrowser*>();
    QVERIFY(shown && shown->isVisible());
    QCOMPARE(shown->browser()->source(), QUrl::fromLocalFile(index));
    QVERIFY(shown->browser()->document()->toPlainText().contains(
        QStringLiteral("HSDP Studio documentation")));
    // Its links lead to the other pages, rendered alike.
    shown->browser()->setSource(
        shown->browser()->source().resolved(QUrl(QStringLiteral("plan.md"))));
    QVERIFY(QFileInfo::exists(shown->browser()->source().toLocalFile()));
    QVERIFY(!shown->browser()->document()->toPlainText().contains(QStringLiteral("## ")));
    shown->close();
}

void TestMainWindow::treeSelectionShowsTheOwnersInTheMesh() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_70b_hsdp_tp_2x4x4.json")));
    const PlanResult& result = window.session()->current();
    PlanTreeWidget* tree = window.view<PlanTreeWidget>();
    QSignalSpy changed(window.selection(), &PlanSelection::changed);
    const int first = window.selection()->focusParam();
    for (int param : {first + 1, first + 5, static_cast<int>(result.scenario->params.size()) - 1}) {
        QModelIndex row = tree->proxy()->mapFromSource(tree->model()->indexOfParam(param));
        tree->treeView()->setCurrentIndex(row);
        QCOMPARE(window.selection()->params(), std::vector<int>{param});
        QCOMPARE(window.selection()->group(),
                 result.index->params[static_cast<size_t>(param)].group);
        QCOMPARE(window.view<MeshWidget>()->canvas()->overlay().ownerRanks,
                 ownersFromPlan(*result.plan, param));
        QVERIFY(!window.view<MeshWidget>()->canvas()->overlay().ownerRanks.empty());
    }
    QCOMPARE(changed.count(), 3);
}

void TestMainWindow::diagnosticActivationSelectsEverywhere() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("diagnostics_tour.json")));
    const PlanResult& result = window.session()->current();
    int checked = 0;
    for (size_t d = 0; d < result.plan->diagnostics.size(); ++d) {
        const Diagnostic& diagnostic = result.plan->diagnostics[d];
        if (diagnostic.params.empty()) continue;
        window.view<DiagnosticsWidget>()->activateRow(static_cast<int>(d));
        QCOMPARE(window.selection()->params(), diagnostic.params);
        int first = diagnostic.params.front();
        QCOMPARE(window.view<PlanTreeWidget>()->treeView()->currentIndex().data(ParamRole).toInt(),
                 first);
        QCOMPARE(window.view<MeshWidget>()->canvas()->overlay().ownerRanks,
                 ownersFromPlan(*result.plan, first));
        ++checked;
    }
    QVERIFY(checked > 0);
}

void TestMainWindow::brokenFileKeepsThePlanUnderABanner() {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("scenario.json"));
    QVERIFY(QFile::copy(sample("teaching_2x2.json"), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    MainWindow window;
    window.session()->setDebounceMilliseconds(50);
    QVERIFY(openAndWait(window, path));
    auto plan = window.session()->current().plan;
    int treeRows = window.view<PlanTreeWidget>()->model()->rowCount();
    QSignalSpy failed(window.session(), &Session::readFailed);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"format\": \"hsdp-scenario/1\",\n \"meshes\": oops}");
    }
    QVERIFY(failed.wait(20000));
    QString expected;
    try {
        readScenarioFile(path.toStdString());
    } catch (const ScenarioError& error) {
        expected = QString::fromStdString(error.what());
    }
    QVERIFY(!expected.isEmpty());
    QVERIFY(window.banner()->isVisibleTo(&window));
    QCOMPARE(window.banner()->message(), expected);
    QCOMPARE(window.session()->current().plan, plan);  // the last good plan stays on screen
    QCOMPARE(window.view<PlanTreeWidget>()->model()->rowCount(), treeRows);
    QCOMPARE(window.view<MeshWidget>()->canvas()->meshLayout().cells().size(), size_t(4));
    QVERIFY(window.statusText().contains(QStringLiteral("STALE")));
    QVERIFY(window.windowTitle().contains(QStringLiteral("[stale]")));
}

void TestMainWindow::shortcutsCoverTheCommonActions() {
    MainWindow window;
    QStringList keys;
    for (QAction* action : window.shortcutActions())
        for (const QKeySequence& key : action->shortcuts()) keys << key.toString();
    for (const char* key :
         {"Ctrl+O", "F5", "Ctrl+Q", "Ctrl+F", "Ctrl+=", "Ctrl+-", "Ctrl+0", "F1", "Esc"})
        QVERIFY2(keys.contains(QLatin1String(key)), key);
}

void TestMainWindow::screenshotModeWritesEveryView() {
    QTemporaryDir dir;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // the binary picks offscreen itself
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    process.setProcessEnvironment(env);
    process.start(studio(), {QStringLiteral("--screenshot"), dir.path(),
                             sample("mixtral_8x7b_expert_mesh.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    for (const char* name : {"mesh.png", "plan-tree.png", "diagnostics.png", "owner-balance.png",
                             "tensor-layout.png", "window.png"}) {
        QImage image(dir.filePath(QLatin1String(name)));
        QVERIFY2(!image.isNull(), name);
    }
    QCOMPARE(QImage(dir.filePath(QStringLiteral("mesh.png"))).size(), QSize(1400, 900));
    QCOMPARE(QImage(dir.filePath(QStringLiteral("window.png"))).size(), QSize(1600, 1000));
    // The file it drew is no choice of the user's: File > Open Recent stays as it was.
    QFile settings(dir.filePath(QStringLiteral("config/hsdp/hsdp-studio.conf")));
    if (settings.open(QIODevice::ReadOnly))
        QVERIFY2(!settings.readAll().contains("mixtral_8x7b_expert_mesh"),
                 "--screenshot added its file to Open Recent");
    // A past session's cluster does not change the pictures: they are on the
    // default unless --cluster says otherwise, and the choice is not kept.
    QDir().mkpath(dir.filePath(QStringLiteral("config/hsdp")));
    QFile past(dir.filePath(QStringLiteral("config/hsdp/hsdp-studio.conf")));
    QVERIFY(past.open(QIODevice::WriteOnly));
    past.write("[General]\ncluster=a100-dgx\n");
    past.close();
    process.start(studio(),
                  {QStringLiteral("--screenshot"), dir.path(), sample("teaching_2x2.json")});
    QVERIFY(process.waitForFinished(60000));
    QVERIFY(process.readAllStandardOutput().contains("cluster: h100-dgx"));
    process.start(studio(),
                  {QStringLiteral("--screenshot"), dir.path(), QStringLiteral("--cluster"),
                   QStringLiteral("loopback"), sample("teaching_2x2.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(process.readAllStandardOutput().contains("cluster: loopback"));
    QVERIFY(past.open(QIODevice::ReadOnly));
    QVERIFY(past.readAll().contains("cluster=a100-dgx"));
    past.close();
    process.start(studio(),
                  {QStringLiteral("--screenshot"), dir.path(), QStringLiteral("--cluster"),
                   QStringLiteral("no-such-cluster"), sample("teaching_2x2.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().contains("--cluster no-such-cluster"));

    process.start(studio(), {QStringLiteral("--screenshot"), dir.path(),
                             dir.filePath(QStringLiteral("missing.json"))});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);  // like hsdp-inspect: unreadable scenario
    QVERIFY(process.readAllStandardError().contains("cannot read the scenario"));
}

void TestMainWindow::helpAndVersion() {
    QProcess process;
    process.start(studio(), {QStringLiteral("--version")});
    QVERIFY(process.waitForFinished(30000));
    QVERIFY(process.readAllStandardOutput().contains(hsdp::version()));
    process.start(studio(), {QStringLiteral("--help")});
    QVERIFY(process.waitForFinished(30000));
    QVERIFY(process.readAllStandardOutput().contains("--screenshot <DIR>"));
}

// A frame saved past the screen's bottom (at y=20 on a 900 px screen, its
// status bar under the edge) comes back inside the screen's available area.
void TestMainWindow::aRestoredWindowStaysOnScreen() {
    const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
    QWidget saved;
    saved.setGeometry(available.left() + 40, available.top() + available.height() / 3,
                      available.width(), available.height());
    QSettings().setValue(QStringLiteral("window/geometry"), saved.saveGeometry());
    MainWindow window;
    QSettings().remove(QStringLiteral("window/geometry"));
    QVERIFY2(available.contains(window.frameGeometry()),
             qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                            .arg(window.frameGeometry().x())
                            .arg(window.frameGeometry().y())
                            .arg(window.frameGeometry().width())
                            .arg(window.frameGeometry().height())
                            .arg(available.width())
                            .arg(available.height())));
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
