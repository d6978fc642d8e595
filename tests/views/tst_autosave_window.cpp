// SPDX-License-Identifier: Apache-2.0
// Autosave in the window (offscreen): edits are set aside; a save, a reload
// that discards them and a clean close remove the copy; the copy of a window
// torn down with its edits is offered to the next one (file, time, process,
// disk state, every changed value), Restore gives back exactly the edited
// document, unsaved, one undo step over the file on disk; Discard removes
// the copy; Later keeps it until the file is opened again; a file changed on
// disk is said; an untitled scenario comes back untitled; a running
// window's copy is never offered; F2 puts the keyboard in the first field.
// The same with a real studio killed by SIGKILL: tst_studio_crash_restore.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>
#include <memory>

#include "autosave/autosave_store.h"
#include "autosave/autosaver.h"
#include "autosave/restore_dialog.h"
#include "derived/plan/scenario_document.h"
#include "editing/edit_widget.h"
#include "samples.h"
#include "window/main_window.h"

using namespace hsdp;

namespace {

const QString kShape = QStringLiteral("/mesh/shape");
const QString kBatchCap = QStringLiteral("/options/max_batch_numel");

Json readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return parseStrictJson(file.readAll().toStdString());
}

// Answers every restore offer that comes with `choice`, noting what it showed.
struct OfferAnswers {
    struct Seen {
        QString title;
        QString text;
        QStringList rows;  // "pointer | before | after"
    };
    explicit OfferAnswers(RestoreChoice choice) : choice(choice) {
        poll.setInterval(10);
        QObject::connect(&poll, &QTimer::timeout, [this] { answer(); });
        poll.start();
    }
    void answer() {
        auto* dialog = qobject_cast<RestoreDialog*>(QApplication::activeModalWidget());
        if (!dialog || dialog->property("answered").toBool()) return;
        dialog->setProperty("answered", true);
        Seen one{dialog->windowTitle(), dialog->text(), {}};
        QTreeWidget* table = dialog->changesTable();
        for (int row = 0; row < table->topLevelItemCount(); ++row) {
            QTreeWidgetItem* item = table->topLevelItem(row);
            one.rows << item->text(0) + " | " + item->text(1) + " | " + item->text(2);
        }
        seen.push_back(one);
        dialog->button(choice)->click();
    }
    RestoreChoice choice;
    QTimer poll;
    std::vector<Seen> seen;
};

// Answers the next message box (unsaved edits) with `button`.
void answerMessageBox(QMessageBox::StandardButton button) {
    QTimer::singleShot(0, [button] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
            box->button(button)->click();
    });
}

struct Fixture {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("scenario.json"));
    QString folder = dir.filePath(QStringLiteral("autosave"));

    Fixture() {
        QFile::copy(hsdp::testing::sample(QStringLiteral("teaching_2x2.json")), path);
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    }
    std::unique_ptr<MainWindow> window() {
        auto window = std::make_unique<MainWindow>();
        window->session()->setDebounceMilliseconds(50);
        window->enableAutosave(folder);
        window->autosaver()->setDelays(50, 1000);
        return window;
    }
    bool open(MainWindow& window, const QString& file) {
        QSignalSpy shown(&window, &MainWindow::planShown);
        window.openScenario(file);
        return shown.wait(20000);
    }
    QStringList copies() const {
        return QDir(folder).entryList({QStringLiteral("*.json")}, QDir::Files);
    }
    QStringList files() const { return QDir(folder).entryList(QDir::Files); }
    // Types into a what-if field as a user would.
    static void type(MainWindow& window, const QString& pointer, const QString& text) {
        auto* edit = qobject_cast<QLineEdit*>(window.view<EditWidget>()->fieldEditor(pointer));
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
        window.document()->closeEditStep();
    }
    // A window whose edits are set aside and which is then torn down without
    // saving or discarding them, as a crash would leave it: the edited document.
    Json leaveEditedCopy() {
        auto gone = window();
        if (!open(*gone, path)) return {};
        type(*gone, kShape, QStringLiteral("4, 1"));
        type(*gone, kBatchCap, QStringLiteral("64"));
        QSignalSpy saved(gone->autosaver(), &Autosaver::saved);
        if (!saved.wait(20000)) return {};
        const Json edited = gone->document()->json();
        if (AutosaveStore::read(gone->autosaver()->store().ownCopyPath()).document != edited)
            return {};
        return edited;
    }
};

}  // namespace

class TestAutosaveWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void editsAreSetAsideAndASaveRemovesThem();
    void aReloadThatDiscardsRemovesTheCopy();
    void aCleanCloseRemovesTheCopy();
    void theOfferShowsWhatAndRestoresExactly();
    void discardRemovesTheCopy();
    void laterKeepsItUntilTheFileIsOpenedAgain();
    void aFileChangedOnDiskIsSaid();
    void anUntitledScenarioComesBackUntitled();
    void aRunningWindowsCopyIsNeverOffered();
    void f2PutsTheKeyboardInTheFirstField();
};

void TestAutosaveWindow::editsAreSetAsideAndASaveRemovesThem() {
    Fixture f;
    auto window = f.window();
    QVERIFY(f.open(*window, f.path));
    QCOMPARE(f.files(), QStringList());  // nothing unsaved, nothing set aside
    Fixture::type(*window, kShape, QStringLiteral("4, 1"));
    QTRY_COMPARE_WITH_TIMEOUT(f.copies().size(), 1, 20000);
    const AutosaveCopy copy = AutosaveStore::read(QDir(f.folder).filePath(f.copies().front()));
    QCOMPARE(copy.file, f.path);
    QCOMPARE(copy.document, window->document()->json());
    QCOMPARE(copy.base, readJson(f.path));
    QVERIFY(window->save());
    window->autosaver()->flush();
    QCOMPARE(f.files(), QStringList());  // the lock too
}

void TestAutosaveWindow::aReloadThatDiscardsRemovesTheCopy() {
    Fixture f;
    auto window = f.window();
    QVERIFY(f.open(*window, f.path));
    Fixture::type(*window, kShape, QStringLiteral("4, 1"));
    QTRY_COMPARE_WITH_TIMEOUT(f.copies().size(), 1, 20000);
    QAction* reload = nullptr;
    for (QAction* action : window->shortcutActions())
        if (action->shortcut() == QKeySequence(Qt::Key_F5)) reload = action;
    QVERIFY(reload);
    answerMessageBox(QMessageBox::Discard);
    reload->trigger();
    QVERIFY(!window->document()->isModified());
    window->autosaver()->flush();
    QCOMPARE(f.files(), QStringList());
}

void TestAutosaveWindow::aCleanCloseRemovesTheCopy() {
    Fixture f;
    auto window = f.window();
    QVERIFY(f.open(*window, f.path));
    window->show();
    Fixture::type(*window, kShape, QStringLiteral("4, 1"));
    QTRY_COMPARE_WITH_TIMEOUT(f.copies().size(), 1, 20000);
    answerMessageBox(QMessageBox::Save);
    QVERIFY(window->close());
    window->autosaver()->flush();
    QCOMPARE(f.files(), QStringList());
    QCOMPARE(readJson(f.path).at(Json::json_pointer("/mesh/shape")), Json::array({4, 1}));
}

void TestAutosaveWindow::theOfferShowsWhatAndRestoresExactly() {
    Fixture f;
    const Json disk = readJson(f.path);
    const Json edited = f.leaveEditedCopy();
    QVERIFY(!edited.is_null());
    QCOMPARE(f.copies().size(), 1);
    const QString orphan = f.copies().front();

    OfferAnswers answers(RestoreChoice::Restore);
    auto window = f.window();
    QSignalSpy shown(window.get(), &MainWindow::planShown);
    window->openScenario(f.path);
    QTRY_COMPARE_WITH_TIMEOUT(answers.seen.size(), size_t(1), 20000);
    const OfferAnswers::Seen& offer = answers.seen.front();
    QCOMPARE(offer.title, QStringLiteral("Restore unsaved edits"));
    for (const QString& said :
         {QStringLiteral("Unsaved edits of scenario.json"), f.path,
          QStringLiteral("by studio process %1").arg(QCoreApplication::applicationPid()),
          QStringLiteral("unchanged since the edits began"),
          QStringLiteral("2 values differ from the file on disk"), QDir(f.folder).filePath(orphan)})
        QVERIFY2(offer.text.contains(said), qPrintable(said + " not in:\n" + offer.text));
    // The batch cap was the file's first option: the whole options object is new.
    QCOMPARE(offer.rows, QStringList({"/mesh/shape | [2,2] | [4,1]",
                                      "/options | (absent) | {\"max_batch_numel\":64}"}));

    // Exactly the edited document, unsaved, one undo step over the file.
    QCOMPARE(window->document()->json(), edited);
    QCOMPARE(window->document()->json().dump(), edited.dump());
    QVERIFY(window->document()->isModified());
    QVERIFY(window->isWindowModified());
    QCOMPARE(window->session()->path(), f.path);
    QTRY_VERIFY_WITH_TIMEOUT(
        window->session()->hasResult() && *window->session()->current().document == edited, 20000);
    auto text = [&](const QString& pointer) {
        return qobject_cast<QLineEdit*>(window->view<EditWidget>()->fieldEditor(pointer))->text();
    };
    QCOMPARE(text(kShape), QStringLiteral("4, 1"));  // the panel shows the restored values
    QCOMPARE(text(kBatchCap), QStringLiteral("64"));
    QUndoStack* undo = window->document()->undoStack();
    QCOMPARE(undo->count(), 1);
    undo->undo();
    QCOMPARE(window->document()->json(), disk);
    QVERIFY(!window->document()->isModified());
    window->autosaver()->flush();
    QCOMPARE(f.copies(), QStringList());  // nothing unsaved: no copy
    undo->redo();
    QCOMPARE(window->document()->json(), edited);
    // The orphan is gone; the edits are in this window's own copy.
    QVERIFY(!f.copies().contains(orphan));
    QTRY_COMPARE_WITH_TIMEOUT(f.copies().size(), 1, 20000);
    QCOMPARE(AutosaveStore::read(window->autosaver()->store().ownCopyPath()).document, edited);
    QVERIFY(window->save());
    QCOMPARE(readJson(f.path), edited);
    window->autosaver()->flush();
    QCOMPARE(f.files(), QStringList());
}

void TestAutosaveWindow::discardRemovesTheCopy() {
    Fixture f;
    const Json disk = readJson(f.path);
    QVERIFY(!f.leaveEditedCopy().is_null());
    OfferAnswers answers(RestoreChoice::Discard);
    auto window = f.window();
    QVERIFY(f.open(*window, f.path));
    QTRY_COMPARE_WITH_TIMEOUT(answers.seen.size(), size_t(1), 20000);
    QCOMPARE(f.files(), QStringList());
    QCOMPARE(window->document()->json(), disk);
    QVERIFY(!window->document()->isModified());
    QCOMPARE(readJson(f.path), disk);
}

void TestAutosaveWindow::laterKeepsItUntilTheFileIsOpenedAgain() {
    Fixture f;
    QVERIFY(!f.leaveEditedCopy().is_null());
    auto answers = std::make_unique<OfferAnswers>(RestoreChoice::Later);
    auto window = f.window();
    QVERIFY(f.open(*window, f.path));
    QTRY_COMPARE_WITH_TIMEOUT(answers->seen.size(), size_t(1), 20000);
    QCOMPARE(f.copies().size(), 1);
    QVERIFY(!window->document()->isModified());
    // Another file, then this one again: offered again.
    QVERIFY(f.open(*window, hsdp::testing::sample(QStringLiteral("llama3_8b_hsdp_2x4.json"))));
    QTest::qWait(100);
    QCOMPARE(answers->seen.size(), size_t(1));  // not this file's copy
    answers = std::make_unique<OfferAnswers>(RestoreChoice::Discard);
    QVERIFY(f.open(*window, f.path));
    QTRY_COMPARE_WITH_TIMEOUT(answers->seen.size(), size_t(1), 20000);
    QCOMPARE(f.files(), QStringList());
}

void TestAutosaveWindow::aFileChangedOnDiskIsSaid() {
    Fixture f;
    const Json edited = f.leaveEditedCopy();
    QVERIFY(!edited.is_null());
    Json written = readJson(f.path);
    written["name"] = "renamed by another program";
    QFile file(f.path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QByteArray::fromStdString(written.dump(2)));
    file.close();

    OfferAnswers answers(RestoreChoice::Restore);
    auto window = f.window();
    window->openScenario(f.path);
    QTRY_COMPARE_WITH_TIMEOUT(answers.seen.size(), size_t(1), 20000);
    QVERIFY2(answers.seen.front().text.contains("changed on disk since the edits began"),
             qPrintable(answers.seen.front().text));
    QCOMPARE(answers.seen.front().rows,
             QStringList({"/name | \"renamed by another program\" | \"teaching: 2x2 HSDP\"",
                          "/mesh/shape | [2,2] | [4,1]",
                          "/options | (absent) | {\"max_batch_numel\":64}"}));
    QCOMPARE(window->document()->json(), edited);
    window->document()->undoStack()->undo();
    QCOMPARE(window->document()->json(), written);  // Undo: the file as it is now
}

void TestAutosaveWindow::anUntitledScenarioComesBackUntitled() {
    Fixture f;
    Json generated = readJson(f.path);
    generated["name"] = "generated from a model config";
    {
        auto gone = f.window();
        QSignalSpy saved(gone->autosaver(), &Autosaver::saved);
        gone->openGeneratedScenario(std::make_shared<const Json>(generated));
        QVERIFY(saved.wait(20000));
    }
    QCOMPARE(AutosaveStore::read(QDir(f.folder).filePath(f.copies().front())).file, QString());

    OfferAnswers answers(RestoreChoice::Restore);
    auto window = f.window();
    QTRY_COMPARE_WITH_TIMEOUT(answers.seen.size(), size_t(1), 20000);
    QVERIFY2(answers.seen.front().text.contains(
                 "Unsaved edits of the untitled scenario 'generated from a model config'"),
             qPrintable(answers.seen.front().text));
    QVERIFY(answers.seen.front().text.contains("No edits since it was generated"));
    QCOMPARE(window->document()->json(), generated);
    QVERIFY(window->document()->isModified());
    QCOMPARE(window->session()->path(), QString());
    QTRY_VERIFY_WITH_TIMEOUT(window->session()->hasResult(), 20000);
    QVERIFY(window->windowTitle().contains("untitled"));
}

void TestAutosaveWindow::aRunningWindowsCopyIsNeverOffered() {
    Fixture f;
    auto running = f.window();
    QVERIFY(f.open(*running, f.path));
    Fixture::type(*running, kShape, QStringLiteral("4, 1"));
    QTRY_COMPARE_WITH_TIMEOUT(f.copies().size(), 1, 20000);

    OfferAnswers answers(RestoreChoice::Discard);
    auto other = f.window();
    QVERIFY(f.open(*other, f.path));  // the same file
    Fixture::type(*other, kShape, QStringLiteral("1, 4"));
    QTRY_COMPARE_WITH_TIMEOUT(f.copies().size(), 2, 20000);  // its own, beside the other's
    QTest::qWait(200);
    QVERIFY(answers.seen.empty());
    QCOMPARE(f.copies().size(), 2);
}

void TestAutosaveWindow::f2PutsTheKeyboardInTheFirstField() {
    Fixture f;
    auto window = f.window();
    QVERIFY(f.open(*window, f.path));
    window->show();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    QTest::keyClick(window.get(), Qt::Key_F2);
    auto* shape = window->view<EditWidget>()->fieldEditor(kShape);
    QTRY_COMPARE(QApplication::focusWidget(), shape);
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("4, 1"));  // replaces the text
    QCOMPARE(window->document()->value(kShape), std::optional<Json>(Json::array({4, 1})));
}

QTEST_MAIN(TestAutosaveWindow)
#include "tst_autosave_window.moc"
