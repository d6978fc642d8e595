// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QKeySequence>
#include <QMainWindow>
#include <QTimer>
#include <optional>

#include "derived/plan/plan_selection.h"
#include "derived/run/run_data.h"
#include "derived/run/run_session.h"
#include "derived/session.h"
#include "view/studio_view.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QHBoxLayout;
class QLabel;
class QMenu;
class QProgressBar;
class QToolBar;
class QToolButton;

namespace hsdp {

class ActiveViewTracker;
class Autosaver;
class EditWidget;
class ExportViewDialog;
class JobSession;
class PlanDiffTracker;
class RecentFiles;
class ScenarioDocument;
class StaleBanner;
struct ViewExportRequest;
struct ViewPicture;
struct RestoreOffer;
struct ViewRegistration;

// Whether dropped `paths` are a job's record (a folder, Flight Recorder
// dumps, Kineto traces) rather than a scenario; a checkpoint (a folder too)
// is to be told apart first (looksLikeCheckpoint).
bool looksLikeJobRecord(const QStringList& paths);

// The studio window: the session, the one selection, and the views around
// them, one of each registered in studioViews() (the mesh in the centre,
// the others docked), each given every plan and run shown. Layout,
// geometry and recent files persist in QSettings. A scenario that stops
// reading never clears the views: the banner shows the reader's message
// over the last good plan, marked stale.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Whether opened files join File ▸ Open Recent: not for --screenshot,
    // whose files are no choice of the user's.
    void setRemembersFiles(bool remembers) { remembersFiles_ = remembers; }
    void openScenario(const QString& path);

    Session* session() const { return session_; }
    PlanSelection* selection() const { return selection_; }
    // The window's view of type View (one of studioViews()), null if none is.
    template <typename View>
    View* view() const {
        for (StudioView* each : views_)
            if (auto* wanted = dynamic_cast<View*>(each)) return wanted;
        return nullptr;
    }
    const std::vector<StudioView*>& views() const { return views_; }
    // What the GUI thread spent on the last plan shown (onPlanReady), each
    // view's showPlan by its id, then "selection": the views following the
    // selection carried to it. hsdp-bench views names the slowest.
    struct ShowTime {
        const char* what;
        double ms;
    };
    const std::vector<ShowTime>& lastShowTimes() const { return lastShowTimes_; }
    StaleBanner* banner() const { return banner_; }
    ScenarioDocument* document() const { return document_; }
    // Writes the edited scenario to `path` atomically (QSaveFile) and makes it
    // the open file; false (with a message box unless quiet) on failure. A
    // document the reader rejects is written only if the user says so
    // (never when quiet).
    bool saveTo(const QString& path, bool quiet = false);
    bool save();
    bool saveAs();
    // Compares every new plan of the open document with the one it replaces
    // (Session::planReady feeds it); a plan made elsewhere, e.g. by an
    // in-memory edit, goes to its planArrived() slot.
    PlanDiffTracker* planDiffTracker() const { return planDiffTracker_; }
    // File ▸ Compare with…: the current plan (before) against `path` (after).
    void compareWith(const QString& path);
    QString statusText() const;
    // "2 errors · 8 warnings ·": left of the status line, never cut.
    QString diagnosticCountsText() const;
    // Cluster ▸ (main_window_cluster.cpp): costs every plan on a preset's name
    // or a cluster file's path ("none": no prediction), kept for the next
    // start unless `remember` is false (a command line's choice); false (with a
    // message box unless quiet) for one that does not read.
    bool chooseCluster(const QString& nameOrPath, bool quiet = false, bool remember = true);
    static QString defaultCluster();  // h100-dgx
    QString clusterChoice() const { return clusterChoice_; }

    // Runs (main_window_runs.cpp): Run ▸ Run / Run reference / Run… run the
    // plan on screen through runSession() off the GUI thread; the status
    // bar shows the progress while it runs and the run's line after it.
    RunSession* runSession() const { return runSession_; }
    // Runs the current plan; false if there is none or a run is going.
    bool startRun(const RunRequest& request);
    const RunData& lastRun() const { return lastRun_; }
    // The last corrected run shown of the plan of lastRun(), which a
    // reference run is compared with (invalid: none).
    const RunData& lastCorrectedRun() const { return lastCorrectedRun_; }
    // The status bar's run line ("" before any run): every figure (its
    // tooltip), or `brief`: the verdict's counts and the wall time (its text).
    QString runStatusText(bool brief = false) const;
    QAction* runAction() const { return runAction_; }
    QAction* runReferenceAction() const { return runReferenceAction_; }
    QAction* cancelRunAction() const { return cancelRunAction_; }
    // Saved runs (main_window_saved_runs.cpp): File ▸ Open Run… shows a
    // `hsdp-inspect run --json` result and its `--trace` file in the run
    // views without running anything; a result or trace that does not belong
    // to the scenario on screen is refused in the banner with the reason.
    // False if there is no plan or a run is going.
    bool openRun(const QString& runPath, const QString& tracePath = {});

    // Job records (main_window_jobs.cpp): File ▸ Open Job Record… (Ctrl+J)
    // or a folder of dumps dropped on the window reads a job's Flight
    // Recorder dumps and checks them against the plan on screen off the GUI
    // thread, for the Job view; a record that does not read is refused in the
    // banner with the reader's message. The record belongs to its scenario:
    // an edit or reload of the file checks it again, another file clears it.
    // False when there is no plan.
    bool openJobRecord(const QStringList& paths);
    JobSession* jobSession() const { return jobSession_; }
    const JobData& job() const;  // the last checked (invalid: none)
    QAction* openJobAction() const { return openJobAction_; }

    // File ▸ New from Model Config… (main_window_new_from_config.cpp): a
    // scenario generated from a Hugging Face config opens unsaved (Save asks
    // where), planned like a file.
    void openGeneratedScenario(std::shared_ptr<const Json> document);

    // Unsaved edits (main_window_autosave.cpp): from now on they are set
    // aside in `dir` (hsdp-studio: <AppDataLocation>/autosave), and the copies
    // of studios no longer running are offered back, soon after this call
    // and whenever their file is opened.
    void enableAutosave(const QString& dir);
    Autosaver* autosaver() const { return autosaver_; }
    // Opens the offered copy's edited scenario, unsaved, with one undo step
    // back to the file on disk; false when the user keeps the edits on screen.
    bool restore(const RestoreOffer& offer);

    // File ▸ Export Report… (main_window_report.cpp): the plan on screen and
    // its last run as HTML or PDF (by the suffix), as hsdp-inspect report
    // writes it; false (with a message box unless quiet) on failure.
    bool exportReport(const QString& path, bool quiet = false);
    QAction* reportAction() const { return reportAction_; }
    // Where Export Report… proposes to write: beside the scenario, named after it.
    QString suggestedReportPath() const;
    // Pictures out (main_window_export.cpp): File ▸ Export View… opens the
    // dialog on `viewId` ("": the view last worked in); exportView() writes
    // a request (false with `error` naming the culprit); Copy View as Image
    // puts the view as on screen on the clipboard (image and SVG). A right
    // click on any view offers both (showViewMenu).
    ExportViewDialog* openExportViewDialog(const QString& viewId = {});
    bool exportView(const ViewExportRequest& request, QString* error);
    bool copyView(const QString& viewId);
    QString activeViewId() const;
    QMenu* showViewMenu(const QString& viewId, const QPoint& at);
    // Every action with a shortcut, in menu order (Help ▸ Keyboard shortcuts).
    QList<QAction*> shortcutActions() const;

    // Gives the views the rest of a plan they are taking one a turn (see
    // planShown); nothing when none is pending.
    void completePendingPlan();

signals:
    // Every view and the selection hold the session's new plan. The views
    // take it one a turn of the event loop after Session::planReady: wait
    // for this, not that, before reading them.
    void planShown(const hsdp::PlanResult& result);
    // A run finished, failed or was cancelled (after every view took it).
    void runReady(const hsdp::RunData& run);
    // A job's record was checked (opened or re-checked) and every view holds it.
    void jobShown(const hsdp::JobData& job);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // One of each registered view, placed as it says (main_window_views.cpp).
    void buildViews();
    void placeView(const ViewRegistration& registration, StudioView* view, QWidget* central);
    QDockWidget* dock(const char* viewId) const;
    void buildMenus();
    void buildPlanDiff();  // main_window_plan_diff.cpp
    void addCompareActions(QMenu* file);
    void compareDialog();
    void buildRuns();  // main_window_runs.cpp
    void buildRunMenu();
    void runDialog();
    void addOpenRunAction(QMenu* file);
    void addNewFromConfigAction(QMenu* file);
    void addNewFromCheckpointAction(QMenu* file);
    void newFromCheckpoint(const QString& path);  // the dialog, PATH filled in
    void openRunDialog();
    void buildJobs();  // main_window_jobs.cpp
    void addOpenJobAction(QMenu* file);
    void openJobDialog();
    void onJobChecked(const JobData& job);
    void onJobFailed(const QString& reason);
    void activateDivergence(int row);
    // Another file is coming: the job's record was checked against the one that leaves.
    void forgetJob();
    static QString jobPathsText(const QStringList& paths);
    void onOpenRunFailed(const QString& reason);
    void onRunProgress(double fraction, const QString& phase, qint64 collectives);
    void onRunFinished(const RunData& run);
    // Shows `run` (invalid: none) in every view (main_window_views.cpp).
    void showRun(const RunData& run);
    // Another file is coming: its runs start from nothing, and a run still
    // going is of the file that leaves.
    void forgetRun();
    void updateRunActions();
    // The status bar's run line, its tooltip the whole line where the bar elides it.
    void updateRunStatus();
    void fitStatusLine();
    void addReportAction(QMenu* file);
    // Where a file made of the scenario goes: named after it and `ending`,
    // in exportFolder().
    QString suggestedExportPath(const QString& ending) const;
    static QString exportFolder();  // the last export's folder, else Documents
    static void rememberExportFolder(const QString& writtenPath);
    void addExportViewActions(QMenu* file);
    int viewIndex(const QString& viewId) const;
    void revealView(int index);
    QString suggestedViewPath(const ViewRegistration& registration) const;
    ViewPicture renderView(int index, const QString& part, const QSize& size, bool withSvg);
    void exportReportDialog();
    QString reportCommand(const QString& output, const RunData& run) const;
    QStringList reportPlanNotes(bool runLeftOut) const;
    void buildClusterMenu();
    void clusterFileDialog();
    void buildViewMenu();
    void buildHelpMenu();
    void buildEditing();
    void buildEditMenu(QMenu* edit);
    void onDocumentEdited(const QString& pointer);
    void showEditTextError(const QString& message);
    void adoptDocument(const PlanResult& result);
    // Whether to write a document the reader rejects: asks (Save anyway /
    // Cancel) naming the reader's error; quiet: never. True when it reads.
    bool confirmSavingUnreadable(const QString& path, bool quiet);
    // Asks what to do with unsaved edits before they would be lost; false: cancel.
    bool maybeKeepEdits();
    // Offers the orphaned copies of `file` ("" for all) once the event loop
    // runs; one offer at a time, none while one is shown.
    void scheduleRestoreOffer(const QString& file);
    void offerRestores(const QString& file);
    void applyRestoredChanges(const RestoreOffer& offer);
    QAction* addShortcutAction(QMenu* menu, const QString& text, const QKeySequence& shortcut);
    void openDialog();
    void onPlanReady(const PlanResult& result);
    void showPendingPlanStep();  // the next view takes the pending plan, or the selection
    // A plan of the very scenario document the last run ran (an edit undone,
    // a reload of an unchanged file): the runs are this plan's again, not "of
    // an earlier plan", and a report includes them. Whether any was.
    bool carryRunOver(const PlanResult& result);
    void onReadFailed(const QString& message);
    SelectionState reconciledSelection(const PlanResult& result, bool sameFile) const;
    void updateStatus();
    void updateTitle();
    void showShortcuts();
    void restoreSettings();
    QSize defaultSize() const;
    void keepOnScreen();

    Session* session_;
    PlanSelection* selection_;
    StaleBanner* banner_ = nullptr;
    PlanDiffTracker* planDiffTracker_ = nullptr;
    bool remembersFiles_ = true;
    RecentFiles* recent_ = nullptr;
    ScenarioDocument* document_ = nullptr;
    std::vector<StudioView*> views_;  // owned by their docks (the mesh: the centre)
    std::vector<ShowTime> lastShowTimes_;
    // The plan the views are taking, one a turn (onPlanReady).
    struct PendingPlan {
        PlanResult result;
        bool sameFile = false;
        size_t nextView = 0;
        bool runCarried = false;  // the last run is this plan's too (carryRunOver)
    };
    std::optional<PendingPlan> pendingPlan_;
    QTimer pendingPlanTimer_;
    EditWidget* editing_ = nullptr;  // views_'s what-if editing, which the window drives
    ActiveViewTracker* activeView_ = nullptr;
    Autosaver* autosaver_ = nullptr;
    std::optional<QString> pendingRestoreOffer_;  // the file whose copies are to be offered
    bool offeringRestores_ = false;
    QMenu* viewMenu_ = nullptr;
    QHBoxLayout* statusLine_ = nullptr;  // status_, the run's progress, runStatus_
    QLabel* status_ = nullptr;
    QLabel* diagnosticCounts_ = nullptr;  // left of status_, never cut
    RunSession* runSession_ = nullptr;
    RunData lastRun_;
    RunData lastCorrectedRun_;
    // The status line of a run cancelled while lastRun_ (the last complete
    // run, which stays) was shown; "" otherwise.
    QString cancelledLine_;
    RunRequest lastRunRequest_;  // what made lastRun_ (a saved run: the defaults)
    // Counts the files shown: a run started (or a saved run opened) for one
    // file and finishing after another opened is dropped.
    int fileEpoch_ = 0;
    int runEpoch_ = 0;
    RunRequest lastRequest_;  // what Run… starts from
    QAction* runAction_ = nullptr;
    QAction* runReferenceAction_ = nullptr;
    QAction* runDialogAction_ = nullptr;
    QAction* cancelRunAction_ = nullptr;
    QAction* reportAction_ = nullptr;
    JobSession* jobSession_ = nullptr;
    QAction* openJobAction_ = nullptr;
    QStringList jobOpening_;  // what the last Open Job Record read
    QProgressBar* runProgress_ = nullptr;
    QLabel* runPhase_ = nullptr;
    QToolButton* runCancelButton_ = nullptr;
    QLabel* runStatus_ = nullptr;
    QList<QAction*> shortcutActions_;
    QActionGroup* clusterActions_ = nullptr;
    QString clusterChoice_;
    QString shownPath_;           // the file whose plan is on screen
    bool firstRunLayout_ = true;  // no saved layout: set the docks' proportions on first show
};

}  // namespace hsdp
