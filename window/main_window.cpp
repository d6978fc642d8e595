// SPDX-License-Identifier: Apache-2.0
#include "window/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

#include "derived/job/job_session.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/scenario_document.h"
#include "derived/run/plan_prediction.h"
#include "editing/edit_widget.h"
#include "new_scenario/new_from_checkpoint_dialog.h"
#include "painting/elided_label.h"
#include "plan_diff/plan_diff_tracker.h"
#include "view_registry/studio_views.h"
#include "window/recent_files.h"
#include "window/stale_banner.h"

namespace hsdp {

namespace {

QString counted(int count, const char* noun) {
    return QStringLiteral("%1 %2%3").arg(count).arg(QLatin1String(noun),
                                                    count == 1 ? QString() : QStringLiteral("s"));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      session_(new Session(this)),
      selection_(new PlanSelection(this)),
      planDiffTracker_(new PlanDiffTracker(this)),
      document_(new ScenarioDocument(this)) {
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    buildViews();
    buildPlanDiff();
    buildEditing();  // after buildPlanDiff: edit steps pin the comparison's baseline
    // The plan's line, then the run's (and its progress): one permanent
    // widget whose layout gives each line room by its text (fitStatusLine).
    auto* statusLine = new QWidget(this);
    statusLine_ = new QHBoxLayout(statusLine);
    statusLine_->setContentsMargins(0, 0, 0, 0);
    // The diagnostic counts first and never cut: a long run line must not
    // push "2 errors · 8 warnings" out of sight.
    diagnosticCounts_ = new QLabel(statusLine);
    statusLine_->addWidget(diagnosticCounts_);
    status_ = new ElidedLabel(tr("No scenario open"), statusLine);
    statusLine_->addWidget(status_);
    statusBar()->addPermanentWidget(statusLine, 1);
    buildRuns();
    buildJobs();
    buildMenus();
    connect(session_, &Session::planReady, this, &MainWindow::onPlanReady);
    connect(session_, &Session::readFailed, this, &MainWindow::onReadFailed);
    pendingPlanTimer_.setSingleShot(true);
    pendingPlanTimer_.setInterval(0);
    connect(&pendingPlanTimer_, &QTimer::timeout, this, &MainWindow::showPendingPlanStep);
    connect(session_, &Session::predictionReady, this, [this](const PlanResult& result) {
        completePendingPlan();
        for (StudioView* view : views_) view->showPrediction(result);
        planDiffTracker_->predictionArrived(result);
        updateStatus();
    });
    connect(banner_, &StaleBanner::reloadRequested, this, [this] {
        if (maybeKeepEdits()) session_->reload();
    });
    resize(defaultSize());
    restoreSettings();
    updateTitle();
}

MainWindow::~MainWindow() = default;

// 1440x900, or the screen's available area when that is smaller: a window
// larger than a 1366x768 screen hides its docks' edges (and their content
// is laid out for space nobody sees).
QSize MainWindow::defaultSize() const {
    const QSize wanted(1440, 900);
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    return screen ? wanted.boundedTo(screen->availableSize()) : wanted;
}

void MainWindow::openScenario(const QString& path) {
    const bool otherFile = QFileInfo(path).absoluteFilePath() != session_->path();
    if (otherFile && !maybeKeepEdits()) return;
    if (otherFile) {
        forgetRun();  // a run belongs to the file it ran
        forgetJob();  // and a job's record to the plan it was checked against
    }
    session_->open(path);
    if (remembersFiles_) recent_->add(path);
    updateTitle();
    scheduleRestoreOffer(session_->path());
}

void MainWindow::openDialog() {
    QString start =
        session_->path().isEmpty() ? QString() : QFileInfo(session_->path()).absolutePath();
    QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), start,
                                                tr("Scenarios (*.json);;All files (*)"));
    if (!path.isEmpty()) openScenario(path);
}

// Each view takes a new plan in its own turn of the event loop, so that the
// GUI never stalls for all of them at once (at 131,072 ranks they took 150
// ms together, the slowest 45 alone); the selection moves to the plan after
// the last view holds it. In between, views read the selection through
// stateFor(their plan), so no view indexes one plan with another's
// positions. Anything else that reaches the views first (a prediction, a
// run) completes the pending plan, and a newer plan starts over.
void MainWindow::onPlanReady(const PlanResult& result) {
    const bool sameFile = result.path == shownPath_;
    if (!sameFile) {
        forgetRun();
        forgetJob();
    } else if (jobSession_->current().isValid() || jobSession_->isBusy()) {
        jobSession_->recheck(result);  // an edit or reload: the same record, the new plan
    }
    shownPath_ = result.path;
    banner_->hide();
    adoptDocument(result);
    editing_->clearErrors();
    showEditTextError(editing_->textError());  // still no value: still said
    lastShowTimes_.clear();
    // A plan replacing a pending one of another file is of another file too.
    const bool runCarried = sameFile && carryRunOver(result);
    pendingPlan_ =
        PendingPlan{result, sameFile && (!pendingPlan_ || pendingPlan_->sameFile), 0, runCarried};
    showPendingPlanStep();
}

void MainWindow::showPendingPlanStep() {
    if (!pendingPlan_) return;
    PendingPlan& pending = *pendingPlan_;
    QElapsedTimer clock;
    clock.start();
    if (pending.nextView < views_.size()) {
        views_[pending.nextView]->showPlan(pending.result);
        lastShowTimes_.push_back(
            {studioViews()[pending.nextView].id, double(clock.nsecsElapsed()) * 1e-6});
        ++pending.nextView;
        pendingPlanTimer_.start();
        return;
    }
    const PendingPlan done = std::move(*pendingPlan_);
    pendingPlan_.reset();
    selection_->setPlan(done.result, reconciledSelection(done.result, done.sameFile));
    lastShowTimes_.push_back({"selection", double(clock.nsecsElapsed()) * 1e-6});
    if (done.runCarried) {  // the views dropped the runs as of another plan: shown again
        if (lastCorrectedRun_.isValid() && lastCorrectedRun_.run != lastRun_.run)
            for (StudioView* view : views_) view->showRun(lastCorrectedRun_);
        if (lastRun_.isValid()) showRun(lastRun_);
        updateRunStatus();
    }
    updateStatus();
    updateTitle();
    emit planShown(done.result);
}

bool MainWindow::carryRunOver(const PlanResult& result) {
    auto sameDocument = [&](const RunData& run) {
        return run.isValid() && run.plan.plan != result.plan && run.plan.document &&
               result.document && *run.plan.document == *result.document;
    };
    bool carried = false;
    for (RunData* run : {&lastRun_, &lastCorrectedRun_})
        if (sameDocument(*run)) {
            run->plan = result;
            carried = true;
        }
    return carried;
}

void MainWindow::completePendingPlan() {
    while (pendingPlan_) showPendingPlanStep();
    pendingPlanTimer_.stop();
}

// What the selection becomes on `result`: what it picked, carried by name
// (params, transitions; groups and batches by the params they hold; ranks
// while the world has them), the rest dropped. A new file has no run, so
// no step; when nothing of the old selection is in it, it starts from its
// most interesting param.
SelectionState MainWindow::reconciledSelection(const PlanResult& result, bool sameFile) const {
    SelectionState state = selection_->stateFor(result);
    if (sameFile) return state;
    // Another file: a param is carried by name (the same model's layers),
    // but a run's collective and the ranks picked were of the file that left.
    state.collective = -1;
    state.ranks.clear();
    if (!state.params.empty() || state.group >= 0 || state.transition >= 0) return state;
    const int param = mostInterestingParam(*result.scenario, *result.plan);
    if (param < 0) return state;
    const ParamPlace& place = result.index->params[static_cast<size_t>(param)];
    state.params = {param};
    state.group = place.group;
    state.batch = place.batch;
    return state;
}

void MainWindow::onReadFailed(const QString& message) {
    bool stale = session_->hasResult() && shownPath_ == session_->path();
    const bool fromEdit = session_->lastErrorFromEdit();
    banner_->showError(message, stale, fromEdit);
    if (fromEdit) editing_->markReaderError(session_->lastErrorPath(), message);
    updateStatus();
    updateTitle();
}

void MainWindow::updateStatus() {
    status_->setText(statusText());
    diagnosticCounts_->setText(diagnosticCountsText());
    diagnosticCounts_->setVisible(!diagnosticCounts_->text().isEmpty());
    if (!runSession_->isBusy()) updateRunStatus();
    fitStatusLine();
}

// The room beyond what the progress widgets take goes to the two lines in
// proportion to their texts' widths: each is whole while both fit. When
// they do not, the run's verdict (short, and what the user just asked for)
// stays whole up to half the bar and the plan's line is cut first. (Equal
// stretches split the bar in halves: the plan's line was cut beside an
// empty run line; cutting both alike cut the verdict's wall time.)
void MainWindow::fitStatusLine() {
    for (QLabel* line : {status_, runStatus_})
        statusLine_->setStretchFactor(line, std::max(1, line->sizeHint().width()));
    const int verdict = runStatus_->text().isEmpty() ? 0 : runStatus_->sizeHint().width();
    runStatus_->setMinimumWidth(std::min(verdict, statusBar()->width() / 2));
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    fitStatusLine();
}

QString MainWindow::statusText() const {
    const PlanResult& result = session_->current();
    if (!result.isValid())
        return session_->lastError().isEmpty() ? tr("No scenario open") : tr("Scenario unreadable");
    // Most important first, as the line is cut from the right when the window
    // is narrow: a step that does not fit the device, the world, the
    // prediction with its peak, the imbalances and where (the diagnostic
    // counts have a label of their own).
    const PlanPrediction* predicted = result.prediction.get();
    QStringList parts;
    if (const QString outOfMemory = outOfMemoryStatusText(predicted); !outOfMemory.isEmpty())
        parts << outOfMemory;
    // "8 ranks · 3 groups", the meshes counted only when there are several:
    // the line must leave room for the prediction and its validated error.
    const size_t meshes = result.scenario->meshes.size();
    const size_t groupCount = result.plan->groups.size();
    const QString groups = groupCount == 1 ? tr("1 group") : tr("%1 groups").arg(groupCount);
    parts << tr("%1 ranks").arg(result.plan->worldSize) +
                 (meshes == 1 ? QString() : tr(" · %1 meshes").arg(meshes)) +
                 QStringLiteral(" · ") + groups;
    if (const QString prediction = predictionStatusText(predicted); !prediction.isEmpty())
        parts << prediction;
    parts << imbalanceStatusText(*result.plan, *result.index, predicted != nullptr);
    QString text = parts.join(QStringLiteral(" · "));
    if (!session_->isStale()) return text;
    return text + (session_->lastErrorFromEdit() ? tr(" · STALE (the edit does not read)")
                                                 : tr(" · STALE (file no longer reads)"));
}

QString MainWindow::diagnosticCountsText() const {
    const PlanResult& result = session_->current();
    if (!result.isValid()) return {};
    // The prediction's (out of memory, tight memory on the cluster) with the plan's.
    return counted(diagnosticCount(result, Severity::Error), "error") + QStringLiteral(" · ") +
           counted(diagnosticCount(result, Severity::Warning), "warning") + QStringLiteral(" ·");
}

void MainWindow::updateTitle() {
    const PlanResult& result = session_->current();
    QString name = result.isValid() ? QString::fromStdString(result.scenario->name) : QString();
    QString file = session_->path().isEmpty()
                       ? (document_ && document_->isLoaded() ? tr("untitled") : QString())
                       : QFileInfo(session_->path()).fileName();
    QStringList parts;
    if (!name.isEmpty()) parts << name;
    if (!file.isEmpty())
        parts << file + QStringLiteral("[*]") + (session_->isStale() ? tr(" [stale]") : QString());
    parts << QStringLiteral("HSDP Studio");
    setWindowTitle(parts.join(QStringLiteral(" — ")));
}

// A restored frame that reaches past the screen's available area (saved on
// a larger screen, or at y=20 over a 900 px screen without a window manager)
// hid the status bar: it is moved, then shrunk, back inside.
void MainWindow::keepOnScreen() {
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    if (!screen) return;
    const QRect available = screen->availableGeometry();
    QRect frame = frameGeometry();
    const QSize margins = frame.size() - size();
    QSize inner = size().boundedTo(available.size() - margins);
    frame.setSize(inner + margins);
    frame.moveLeft(
        std::clamp(frame.left(), available.left(), available.right() - frame.width() + 1));
    frame.moveTop(
        std::clamp(frame.top(), available.top(), available.bottom() - frame.height() + 1));
    resize(inner);
    move(frame.topLeft());
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    keepOnScreen();
    firstRunLayout_ = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

// Dock proportions only take once the window has its size (resizeDocks()
// before the first show is lost), so a first run sets them on first show:
// the plan tree 37% of the width (its name, owner, numel and placements
// columns side by side, a param's name whole at 1366 pixels) and the right
// column 27% (the owner balance's
// charts and the tensor layout's blocks need that much), the bottom row a third of the height
// (a fifth, about 100 pixels of content at 1440x900, left the Memory and Trace views a strip),
// the owner balance and the tensor layout half the right column each; the user's own layout
// wins afterwards.
void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!firstRunLayout_) return;
    firstRunLayout_ = false;
    const int w = width(), h = height();
    resizeDocks({dock("planTree"), dock("ownerBalance")}, {w * 37 / 100, w * 27 / 100},
                Qt::Horizontal);
    resizeDocks({dock("diagnostics")}, {h / 3}, Qt::Vertical);
    resizeDocks({dock("ownerBalance"), dock("tensorLayout")}, {h / 2, h / 2}, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeKeepEdits()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    const QString path = urls.front().toLocalFile();
    event->acceptProposedAction();
    // A checkpoint opens New from Checkpoint on it (after the drop returns:
    // a modal dialog inside the drag would keep its source waiting); anything
    // else is a scenario.
    if (looksLikeCheckpoint(path)) {
        QTimer::singleShot(0, this, [this, path] { newFromCheckpoint(path); });
        return;
    }
    // A folder of dumps (or dumps) is a job's record of the scenario on screen.
    QStringList paths;
    for (const QUrl& url : urls)
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (looksLikeJobRecord(paths))
        openJobRecord(paths);
    else
        openScenario(path);
}

}  // namespace hsdp
