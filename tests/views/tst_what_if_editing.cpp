// SPDX-License-Identifier: Apache-2.0
// What-if editing, offscreen: typing in a field re-plans (one undo step per
// field edit), undo restores the plan, a text that is no value and a value the
// reader rejects mark the field and keep the last valid plan, Save / Save As
// write atomically and read back to the same scenario, a change on disk never
// replaces unsaved edits, closing with unsaved edits asks first.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QWheelEvent>
#include <QtTest>

#include "derived/plan/model_roles.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/scenario_document.h"
#include "diagnostics/diagnostics_model.h"
#include "diagnostics/diagnostics_widget.h"
#include "editing/edit_widget.h"
#include "editing/param_entries_model.h"
#include "export/plan_json.h"
#include "export/scenario_json_text.h"
#include "plan/planner.h"
#include "plan_diff/plan_diff_table.h"
#include "plan_diff/plan_diff_tracker.h"
#include "sample_rows.h"
#include "scenario/reader.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

const QString kBatchCap = QStringLiteral("/options/max_batch_numel");
const QString kShape = QStringLiteral("/mesh/shape");

// The plan JSON the engine makes of a scenario: what two scenarios are
// compared by (same meshes, params, options -> same plan document).
std::string planDocument(const Scenario& scenario) {
    return planToJson(makePlan(scenario), scenario).dump();
}

struct EditFixture {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("scenario.json"));
    MainWindow window;

    bool open(const char* sample) {
        QFile::remove(path);
        if (!QFile::copy(hsdp::testing::sample(QLatin1String(sample)), path)) return false;
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        window.session()->setDebounceMilliseconds(50);
        QSignalSpy ready(&window, &MainWindow::planShown);
        window.openScenario(path);
        return ready.wait(20000);
    }
    QLineEdit* field(const QString& pointer) {
        return qobject_cast<QLineEdit*>(window.view<EditWidget>()->fieldEditor(pointer));
    }
    // Types `text` into the field (replacing what is there) like a user.
    void type(const QString& pointer, const QString& text) {
        QLineEdit* edit = field(pointer);
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }
    bool waitPlan() {
        QSignalSpy ready(&window, &MainWindow::planShown);
        return ready.wait(20000);
    }
};

}  // namespace

class TestWhatIfEditing : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void savedTextReadsBackToTheSameScenario_data() { testing::addSampleRows(); }
    void savedTextReadsBackToTheSameScenario();
    void typingRePlansAndUndoRestores();
    void aSplitBatchFollowsTheSelectedParam();
    void aTextThatIsNoValueMarksTheFieldOnly();
    void aValueTheReaderRejectsKeepsTheLastPlan();
    void aTextTypedPastAValueLeavesTheFieldAsItWas();
    void aTableCellTypedPastAValueStaysMarked();
    void aTextTypedPastAValidEditKeepsThatPlan();
    void aReaderErrorElsewhereNamesTheFieldEdited();
    void aStaleSplitFactorShowsInTheDiagnostics();
    void whatChangedCountsFromTheStartOfTheEdit();
    void placementsEditInTheParamTable();
    void saveAsWritesAndReopens();
    void aFailedSaveKeepsTheEdits();
    void anEditThatDoesNotReadIsNotSavedQuietly();
    void aChangeOnDiskNeverReplacesUnsavedEdits();
    void closingWithUnsavedEditsAsks();
    void theWheelScrollsTheFormNotAnUnfocusedChoice();
    void longPlacementsLeaveTheNamesRoom();
};

void TestWhatIfEditing::savedTextReadsBackToTheSameScenario() {
    QFETCH(QString, path);
    Json document = parseStrictJson(readScenarioFileText(path.toStdString()));
    std::string text = scenarioJsonText(document);
    QCOMPARE(parseStrictJson(text), document);  // nothing lost, order kept
    QCOMPARE(planDocument(readScenario(text)), planDocument(readScenarioFile(path.toStdString())));
}

void TestWhatIfEditing::typingRePlansAndUndoRestores() {
    EditFixture f;
    QVERIFY(f.open("llama3_8b_hsdp_2x4.json"));
    auto original = f.window.session()->current().plan;
    const size_t batchesBefore = original->groups.front().batches.size();
    f.type(kBatchCap, QStringLiteral("300000000"));
    QVERIFY(f.window.session()->isBusy() || f.waitPlan());
    while (f.window.session()->isBusy()) QVERIFY(f.waitPlan());
    const PlanResult& edited = f.window.session()->current();
    QCOMPARE(edited.scenario->options.maxBatchNumel.value_or(-1), int64_t(300000000));
    // The studio's plan is the engine's plan of the edited document.
    QCOMPARE(planToJson(*edited.plan, *edited.scenario).dump(),
             planDocument(readScenarioJson(f.window.document()->json())));
    QVERIFY(edited.plan->groups.front().batches.size() > batchesBefore);
    QVERIFY(f.window.document()->isModified());
    QVERIFY(f.window.isWindowModified());
    QCOMPARE(f.window.document()->undoStack()->count(), 1);  // nine keys, one step

    f.window.document()->undoStack()->undo();
    QVERIFY(f.waitPlan());
    QCOMPARE(f.field(kBatchCap)->text(), QString());
    QCOMPARE(
        planToJson(*f.window.session()->current().plan, *f.window.session()->current().scenario)
            .dump(),
        planToJson(*original, *f.window.session()->current().scenario).dump());
    QVERIFY(!f.window.document()->isModified());
    f.window.document()->undoStack()->redo();
    QVERIFY(f.waitPlan());
    QCOMPARE(f.field(kBatchCap)->text(), QStringLiteral("300000000"));
}

// A selected param whose batch an edit splits: the selection's batch is
// the param's new one (the owner balance shows it), not the one its first
// param went to.
void TestWhatIfEditing::aSplitBatchFollowsTheSelectedParam() {
    EditFixture f;
    QVERIFY(f.open("llama3_8b_hsdp_2x4.json"));
    const PlanResult& before = f.window.session()->current();
    const Group& group = before.plan->groups.front();
    QCOMPARE(group.batches.size(), size_t(1));  // no cap: one batch
    const int param = group.batches.front().params.back();
    f.window.selection()->selectParam(param, 0, 0);
    f.type(kBatchCap, QStringLiteral("300000000"));
    QVERIFY(f.window.session()->isBusy() || f.waitPlan());
    while (f.window.session()->isBusy()) QVERIFY(f.waitPlan());
    const PlanResult& after = f.window.session()->current();
    const ParamPlace& place = after.index->params[size_t(param)];
    QVERIFY(place.batch > 0);  // split away from the batch of the first param
    const SelectionState state = f.window.selection()->stateFor(after);
    QCOMPARE(state.params, std::vector<int>{param});
    QCOMPARE(state.group, place.group);
    QCOMPARE(state.batch, place.batch);
}

void TestWhatIfEditing::aTextThatIsNoValueMarksTheFieldOnly() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    auto plan = f.window.session()->current().plan;
    // Pasted in one go: no intermediate text is planned.
    f.field(kShape)->setText(QStringLiteral("2, two"));
    emit f.field(kShape)->textEdited(f.field(kShape)->text());
    QCOMPARE(f.window.view<EditWidget>()->markedField(), kShape);
    QCOMPARE(f.field(kShape)->toolTip(),
             QStringLiteral("Mesh main · Shape: item 2, 'two', is not an integer"));
    QCOMPARE(f.window.banner()->message(), f.field(kShape)->toolTip());
    QVERIFY(f.window.banner()->showsTextError());
    QVERIFY(!f.window.session()->isBusy());  // nothing to plan
    QCOMPARE(f.window.session()->current().plan, plan);
    QVERIFY(!f.window.document()->isModified());
    for (int i = 0; i < 3; ++i) QTest::keyClick(f.field(kShape), Qt::Key_Backspace);
    QTest::keyClicks(f.field(kShape), QStringLiteral("4"));
    QVERIFY(f.waitPlan());  // "2, 4": a valid value, the mark is gone
    QCOMPARE(f.window.session()->current().plan->worldSize, 8);
    QCOMPARE(f.window.view<EditWidget>()->markedField(), QString());
    QVERIFY(f.window.banner()->isHidden());
}

void TestWhatIfEditing::aValueTheReaderRejectsKeepsTheLastPlan() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    auto plan = f.window.session()->current().plan;
    QSignalSpy failed(f.window.session(), &Session::readFailed);
    f.type(kShape, QStringLiteral("2, 0"));
    QVERIFY(failed.wait(20000));
    QString expected;
    try {
        readScenarioJson(f.window.document()->json());
    } catch (const ScenarioError& error) {
        // The field edited, not the JSON path and not the file on disk.
        expected =
            QStringLiteral("Mesh main · Shape item 2: ") + QString::fromStdString(error.problem);
        QCOMPARE(QString::fromStdString(error.path), kShape + QStringLiteral("/1"));
    }
    QVERIFY(!expected.isEmpty());
    QCOMPARE(f.window.view<EditWidget>()->markedField(), kShape);
    QCOMPARE(f.field(kShape)->toolTip(), expected);
    QCOMPARE(f.window.banner()->message(), expected);
    QVERIFY(f.window.banner()->isVisibleTo(&f.window));
    QCOMPARE(f.window.session()->current().plan, plan);  // the last valid plan stays
    f.window.document()->undoStack()->undo();
    QVERIFY(f.waitPlan());
    QVERIFY(f.window.banner()->isHidden());
    QCOMPARE(f.window.view<EditWidget>()->markedField(), QString());
}

// Typed key by key, "2, two, 4" passes "2" and "2," on the way: the
// document must not keep [2] (or, with lenient parsing, [2] from "2,"), and
// the message must name the field, not /mesh/dim_names of the file on disk.
void TestWhatIfEditing::aTextTypedPastAValueLeavesTheFieldAsItWas() {
    EditFixture f;
    QVERIFY(f.open("llama3_70b_hsdp_tp_2x4x4.json"));
    auto plan = f.window.session()->current().plan;
    const Json shape = *f.window.document()->value(kShape);
    f.type(kShape, QStringLiteral("2, two, 4"));
    QTRY_VERIFY_WITH_TIMEOUT(!f.window.session()->isBusy(), 20000);
    const QString message = QStringLiteral("Mesh main · Shape: item 2, 'two', is not an integer");
    QCOMPARE(f.window.view<EditWidget>()->markedField(), kShape);
    QCOMPARE(f.field(kShape)->toolTip(), message);
    QCOMPARE(f.window.banner()->message(), message);
    QVERIFY(f.window.banner()->isVisibleTo(&f.window));
    QCOMPARE(f.field(kShape)->text(), QStringLiteral("2, two, 4"));  // what was typed stays
    QCOMPARE(*f.window.document()->value(kShape), shape);
    QVERIFY(!f.window.document()->isModified());
    const PlanResult& shown = f.window.session()->current();
    QCOMPARE(planToJson(*shown.plan, *shown.scenario).dump(),
             planToJson(*plan, *shown.scenario).dump());
    QTest::keyClick(f.field(kShape), Qt::Key_Return);  // leaving the field keeps the mark
    QCOMPARE(f.window.view<EditWidget>()->markedField(), kShape);
}

// A valid edit, then a text that is no value in the same field: the plan of
// the valid edit stays on screen (marked stale by the banner), not the plan
// of the value from before the edit, which the document holds again.
void TestWhatIfEditing::aTextTypedPastAValidEditKeepsThatPlan() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    const Json shape = *f.window.document()->value(kShape);
    f.type(kShape, QStringLiteral("4, 2"));
    QTRY_VERIFY_WITH_TIMEOUT(f.window.session()->current().plan->worldSize == 8, 20000);
    auto valid = f.window.session()->current().plan;
    QTest::keyClicks(f.field(kShape), QStringLiteral("x"));
    QVERIFY(f.window.banner()->showsTextError());
    QCOMPARE(*f.window.document()->value(kShape), shape);  // the value from before the edit
    QTest::qWait(200);                                     // a plan of that value would start now
    QTRY_VERIFY_WITH_TIMEOUT(!f.window.session()->isBusy(), 20000);
    QCOMPARE(f.window.session()->current().plan, valid);
    QVERIFY(f.window.banner()->showsTextError());
}

// The issue's "8192, two" in a shape cell: typed into the table's editor
// like a user, it must neither turn every wq 1-D (groups 3 -> 4) nor lose
// its mark when the plan of the unchanged document arrives.
void TestWhatIfEditing::aTableCellTypedPastAValueStaysMarked() {
    EditFixture f;
    QVERIFY(f.open("llama3_70b_hsdp_tp_2x4x4.json"));
    f.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.window));
    const size_t groups = f.window.session()->current().plan->groups.size();
    ParamEntriesModel* model = f.window.view<EditWidget>()->paramModel();
    const std::vector<ParamEntry> entries = paramEntries(f.window.document()->json());
    int wq = -1;
    for (size_t row = 0; row < entries.size(); ++row)
        if (entries[row].name == QStringLiteral("layers.{i}.attention.wq.weight"))
            wq = static_cast<int>(row);
    QVERIFY(wq >= 0);
    const QModelIndex cell = model->index(wq, ParamEntriesModel::Shape);
    const QString pointer = model->pointerOf(cell);
    const Json shape = *f.window.document()->value(pointer);
    if (auto* dock = qobject_cast<QDockWidget*>(f.window.view<EditWidget>()->parentWidget()))
        dock->raise();
    QTableView* table = f.window.view<EditWidget>()->paramTable();
    auto* proxy = table->model();
    const QModelIndex shown = proxy->index(wq, ParamEntriesModel::Shape);
    table->scrollTo(shown);
    table->setCurrentIndex(shown);
    table->edit(shown);
    const auto editors = table->viewport()->findChildren<QLineEdit*>();
    QCOMPARE(editors.size(), 1);
    QLineEdit* editor = editors.front();
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("8192, two"));
    QTRY_VERIFY_WITH_TIMEOUT(!f.window.session()->isBusy(), 20000);
    QTest::qWait(100);  // any plan still queued arrives
    QTRY_VERIFY_WITH_TIMEOUT(!f.window.session()->isBusy(), 20000);
    QCOMPARE(*f.window.document()->value(pointer), shape);
    QCOMPARE(f.window.session()->current().plan->groups.size(), groups);
    const QString message =
        QStringLiteral("layers.{i}.attention.wq.weight · Shape: item 2, 'two', is not an integer");
    QCOMPARE(model->data(cell, Qt::ToolTipRole).toString(), message);
    QVERIFY(model->data(cell, Qt::BackgroundRole).isValid());
    QCOMPARE(f.window.banner()->message(), message);
    QTest::keyClick(editor, Qt::Key_Return);
    QCOMPARE(model->data(cell, Qt::ToolTipRole).toString(), message);  // still said
    QVERIFY(!f.window.document()->isModified());
}

// A valid text the reader refuses because of another key: the message
// starts with the field edited and says where the reader stopped, in the
// panel's words; the field edited is the one marked.
void TestWhatIfEditing::aReaderErrorElsewhereNamesTheFieldEdited() {
    EditFixture f;
    QVERIFY(f.open("llama3_70b_hsdp_tp_2x4x4.json"));
    QSignalSpy failed(f.window.session(), &Session::readFailed);
    f.type(kShape, QStringLiteral("2, 4"));  // three dim names stay
    QVERIFY(failed.wait(20000));
    QTRY_VERIFY_WITH_TIMEOUT(!f.window.session()->isBusy(), 20000);
    const QString message = f.window.banner()->message();
    QVERIFY2(message.startsWith(QStringLiteral("Mesh main · Shape: with this value, Mesh main · "
                                               "Dim names: expected 2 dim names")),
             qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("/mesh")), qPrintable(message));
    QVERIFY2(!message.contains(f.path) && !message.contains(QStringLiteral("scenario.json")),
             qPrintable(message));
    QCOMPARE(f.window.view<EditWidget>()->markedField(), kShape);
    QCOMPARE(f.field(kShape)->toolTip(), message);
}

// Editing tp to 3 leaves sf=4 behind: the Diagnostics dock says so.
void TestWhatIfEditing::aStaleSplitFactorShowsInTheDiagnostics() {
    EditFixture f;
    QVERIFY(f.open("llama3_70b_hsdp_tp_2x4x4.json"));
    auto hasRow = [&] {
        DiagnosticsModel* model = f.window.view<DiagnosticsWidget>()->model();
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, DiagnosticsModel::CodeColumn).data().toString() ==
                QStringLiteral("split-factor-mismatch"))
                return r;
        return -1;
    };
    QCOMPARE(hasRow(), -1);
    f.type(kShape, QStringLiteral("2, 4, 3"));
    QTRY_VERIFY_WITH_TIMEOUT(
        !f.window.session()->isBusy() &&
            f.window.session()->current().scenario->meshes[0].shape.back() == 3,
        20000);
    // The window hands the new plan to the docks after the session settles.
    QTRY_VERIFY_WITH_TIMEOUT(hasRow() >= 0, 20000);
    const int row = hasRow();
    DiagnosticsModel* model = f.window.view<DiagnosticsWidget>()->model();
    const QString text = model->index(row, DiagnosticsModel::MessageColumn).data().toString();
    QVERIFY2(text.contains(QStringLiteral("split factor 4")) &&
                 text.contains(QStringLiteral("mesh dim 2 'tp' (size 3)")),
             qPrintable(text));
    auto params = model->index(row, 0).data(ParamsRole).value<QList<int>>();
    QVERIFY(params.contains(1));  // layers.0.attention.wq.weight
}

// Typing "300000000" plans "3", "30", ... on the way; the panel must compare
// the final plan with the one before the edit, not with the last keystroke's.
void TestWhatIfEditing::whatChangedCountsFromTheStartOfTheEdit() {
    EditFixture f;
    QVERIFY(f.open("llama3_70b_hsdp_tp_2x4x4.json"));
    const PlanResult original = f.window.session()->current();
    f.type(kBatchCap, QStringLiteral("3"));
    for (QChar key : QStringLiteral("00000000")) {  // as slowly as a person: each plan arrives
        QTRY_VERIFY_WITH_TIMEOUT(
            !f.window.session()->isBusy() && !f.window.planDiffTracker()->isBusy(), 20000);
        QTest::keyClicks(f.field(kBatchCap), QString(key));
    }
    auto settled = [&] {
        return !f.window.session()->isBusy() && !f.window.planDiffTracker()->isBusy() &&
               f.window.session()->current().scenario->options.maxBatchNumel ==
                   std::optional<int64_t>(300000000);
    };
    QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!f.window.planDiffTracker()->isBusy(), 20000);
    const PlanDiffTable expected =
        computePlanChange(original, f.window.session()->current(), CurrentSide::After, {}, {});
    QCOMPARE(f.window.planDiffTracker()->change().summary, expected.summary);
}

// The 70B's placements ("R, _StridedShard(dim=0, sf=4), Shard(0)") took the
// table's width and left every name "…": shown as the plan writes them, the
// names keep room (a layer's number and last words are readable), the
// document's words are the tooltip and what an edit starts from.
void TestWhatIfEditing::longPlacementsLeaveTheNamesRoom() {
    QCOMPARE(compactPlacements(QStringLiteral("R, _StridedShard(dim=0, sf=4), Shard(0)")),
             QStringLiteral("R, SS(0,4), S(0)"));
    QCOMPARE(compactPlacements(QStringLiteral("Replicate(), Shard(1)")), QStringLiteral("R, S(1)"));
    EditFixture f;
    QVERIFY(f.open("llama3_70b_hsdp_tp_2x4x4.json"));
    f.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.window));
    ParamEntriesModel* model = f.window.view<EditWidget>()->paramModel();
    QTableView* table = f.window.view<EditWidget>()->paramTable();
    if (auto* dock = qobject_cast<QDockWidget*>(f.window.view<EditWidget>()->parentWidget()))
        dock->raise();
    QApplication::processEvents();
    int strided = -1;
    for (int row = 0; row < model->rowCount() && strided < 0; ++row)
        if (model->index(row, ParamEntriesModel::Placements)
                .data(Qt::EditRole)
                .toString()
                .contains(QStringLiteral("StridedShard")))
            strided = row;
    QVERIFY(strided >= 0);
    const QModelIndex cell = model->index(strided, ParamEntriesModel::Placements);
    QVERIFY(cell.data().toString().contains(QStringLiteral("SS(0,4)")));
    QVERIFY(cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("StridedShard")));
    // The name column keeps a third of the table at the studio's first layout.
    const int name = table->horizontalHeader()->sectionSize(ParamEntriesModel::Name);
    QVERIFY2(name >= table->viewport()->width() / 3,
             qPrintable(QStringLiteral("%1 of %2").arg(name).arg(table->viewport()->width())));
}

void TestWhatIfEditing::placementsEditInTheParamTable() {
    EditFixture f;
    QVERIFY(f.open("llama3_8b_hsdp_2x4.json"));
    ParamEntriesModel* model = f.window.view<EditWidget>()->paramModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const std::vector<ParamEntry> entries = paramEntries(f.window.document()->json());
    QCOMPARE(model->rowCount(), static_cast<int>(entries.size()));
    int wq = -1;
    for (size_t row = 0; row < entries.size(); ++row)
        if (entries[row].name.endsWith(QStringLiteral("wq.weight"))) wq = static_cast<int>(row);
    QVERIFY(wq >= 0);
    QVERIFY(entries[static_cast<size_t>(wq)].repetitions > 1);  // inside the repeat block
    QModelIndex cell = model->index(wq, ParamEntriesModel::Placements);
    QVERIFY(model->setData(cell, QStringLiteral("R, S(1)"), Qt::EditRole));
    QVERIFY(f.waitPlan());
    const Scenario& scenario = *f.window.session()->current().scenario;
    int changed = 0;
    for (const ParamSpec& param : scenario.params)
        if (QString::fromStdString(param.name).endsWith(QStringLiteral("wq.weight"))) {
            QCOMPARE(param.placements->at(1), *parsePlacement("S(1)"));
            ++changed;
        }
    QCOMPARE(changed, entries[static_cast<size_t>(wq)].repetitions);  // every repetition

    QSignalSpy failed(f.window.session(), &Session::readFailed);
    QVERIFY(model->setData(cell, QStringLiteral("R"), Qt::EditRole));  // 1 placement, 2-D mesh
    QVERIFY(failed.wait(20000));
    QCOMPARE(model->data(cell, Qt::ToolTipRole).toString(), f.window.banner()->message());
    QVERIFY(model->data(cell, Qt::BackgroundRole).isValid());
}

void TestWhatIfEditing::saveAsWritesAndReopens() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    f.type(kBatchCap, QStringLiteral("64"));
    QVERIFY(f.waitPlan());
    const std::string editedPlan = planDocument(readScenarioJson(f.window.document()->json()));
    QString copy = f.dir.filePath(QStringLiteral("what-if.json"));
    QVERIFY(f.window.saveTo(copy, /*quiet=*/true));
    QVERIFY(!f.window.document()->isModified());
    QCOMPARE(planDocument(readScenarioFile(copy.toStdString())), editedPlan);
    QVERIFY(f.waitPlan());  // the saved file is now the open one
    QCOMPARE(f.window.session()->path(), QFileInfo(copy).absoluteFilePath());
    QCOMPARE(f.window.document()->undoStack()->count(), 1);  // history survives the save
    QVERIFY(planDocument(readScenarioFile(f.path.toStdString())) != editedPlan);  // untouched
}

void TestWhatIfEditing::aFailedSaveKeepsTheEdits() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    f.type(kBatchCap, QStringLiteral("64"));
    QVERIFY(f.waitPlan());
    QVERIFY(!f.window.saveTo(f.dir.filePath(QStringLiteral("missing/dir/x.json")), true));
    QVERIFY(f.window.document()->isModified());
    QCOMPARE(f.window.session()->path(), QFileInfo(f.path).absoluteFilePath());
}

// Ctrl+S on an edit the reader rejects asks first (a message box naming the
// reader's error); the quiet path refuses, so the file on disk still reads.
void TestWhatIfEditing::anEditThatDoesNotReadIsNotSavedQuietly() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    const QByteArray onDisk = [&] {
        QFile file(f.path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    QSignalSpy failed(f.window.session(), &Session::readFailed);
    f.type(kShape, QStringLiteral("-2, 2"));
    QVERIFY(failed.wait(20000));
    QVERIFY(f.window.document()->isModified());
    QVERIFY(!f.window.saveTo(f.path, /*quiet=*/true));
    QVERIFY(!f.window.saveTo(f.dir.filePath(QStringLiteral("copy.json")), true));
    QVERIFY(!QFile::exists(f.dir.filePath(QStringLiteral("copy.json"))));
    QFile file(f.path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), onDisk);
    QVERIFY(f.window.document()->isModified());  // the edits stay, unsaved
    QVERIFY(!f.window.session()->isStale() || f.window.session()->lastErrorFromEdit());
    readScenarioFile(f.path.toStdString());  // still reads (throws otherwise)
}

void TestWhatIfEditing::aChangeOnDiskNeverReplacesUnsavedEdits() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    f.type(kBatchCap, QStringLiteral("64"));
    QVERIFY(f.waitPlan());
    auto edited = f.window.session()->current().plan;
    QSignalSpy onDisk(f.window.session(), &Session::fileChangedOnDisk);
    {
        QFile file(f.path);
        QVERIFY(file.open(QIODevice::Append));
        file.write("\n");
    }
    QVERIFY(onDisk.wait(20000));
    QCOMPARE(f.window.session()->current().plan, edited);
    QVERIFY(f.window.document()->isModified());
    QVERIFY(f.window.banner()->message().contains(QStringLiteral("unsaved edits are kept")));
}

void TestWhatIfEditing::closingWithUnsavedEditsAsks() {
    EditFixture f;
    QVERIFY(f.open("teaching_2x2.json"));
    f.window.show();
    f.type(kBatchCap, QStringLiteral("64"));
    QVERIFY(f.waitPlan());
    bool asked = false;
    QTimer::singleShot(0, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        asked = box != nullptr;
        if (box) box->button(QMessageBox::Cancel)->click();
    });
    QVERIFY(!f.window.close());
    QVERIFY(asked);
    QVERIFY(f.window.isVisible());
    QVERIFY(f.window.document()->isModified());
}

// Scrolling over the form must not edit it: a choice changes on the wheel
// only once the user gave it the keyboard.
void TestWhatIfEditing::theWheelScrollsTheFormNotAnUnfocusedChoice() {
    EditFixture f;
    QVERIFY(f.open("llama3_8b_hsdp_2x4.json"));
    f.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.window));
    auto* combo = qobject_cast<QComboBox*>(
        f.window.view<EditWidget>()->fieldEditor(QStringLiteral("/options/backend")));
    QVERIFY(combo);
    const QString before = combo->currentText();
    auto wheel = [&] {
        const QPointF at(combo->width() / 2.0, combo->height() / 2.0);
        QWheelEvent event(at, combo->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(combo, &event);
    };
    f.window.view<EditWidget>()->setFocus();
    QVERIFY(!combo->hasFocus());
    wheel();
    QCOMPARE(combo->currentText(), before);
    QCOMPARE(f.window.document()->undoStack()->count(), 0);
    QVERIFY(!combo->hasFocus());  // the wheel does not give it the keyboard either
    combo->setFocus(Qt::TabFocusReason);
    QVERIFY(combo->hasFocus());
    wheel();
    QVERIFY(combo->currentText() != before);  // focused, it is the user's to turn
    QCOMPARE(f.window.document()->undoStack()->count(), 1);
}

QTEST_MAIN(TestWhatIfEditing)
#include "tst_what_if_editing.moc"
