// SPDX-License-Identifier: Apache-2.0
// The autosaver: an edit burst is set aside once it stops, a long one also
// on the way; the copy holds the edited document and what it began from; a
// save, edits undone back to the file, or another document remove it; a
// document never saved is set aside from the start; a failing folder is
// said once.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "autosave/autosave_store.h"
#include "autosave/autosaver.h"
#include "derived/plan/scenario_document.h"
#include "samples.h"

using namespace hsdp;

namespace {

const QString kShape = QStringLiteral("/mesh/shape");

std::shared_ptr<const Json> sampleDocument() {
    return std::make_shared<const Json>(
        parseStrictJson(hsdp::testing::sampleText("teaching_2x2.json").toStdString()));
}

QStringList copiesIn(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files);
}

struct Fixture {
    QTemporaryDir dir;
    ScenarioDocument document;
    QString file = dir.filePath(QStringLiteral("scenario.json"));
    Autosaver saver{&document, dir.filePath(QStringLiteral("autosave")), [this] { return file; }};
    QSignalSpy saved{&saver, &Autosaver::saved};

    Fixture() { document.reset(sampleDocument()); }
    QString folder() const { return dir.filePath(QStringLiteral("autosave")); }
    AutosaveCopy copy() const { return AutosaveStore::read(saver.store().ownCopyPath()); }
    void edit(int value) {
        document.setValue(kShape, Json::array({value, 2}), QStringLiteral("Shape"));
    }
};

}  // namespace

class TestAutosaver : public QObject {
    Q_OBJECT
private slots:
    void aBurstIsSetAsideOnceItStops();
    void aLongBurstIsSetAsideOnTheWay();
    void aSaveRemovesTheCopy();
    void editsUndoneRemoveTheCopy();
    void anotherDocumentRemovesTheCopy();
    void aDocumentNeverSavedIsSetAside();
    void aFailingFolderIsSaidOnce();
};

void TestAutosaver::aBurstIsSetAsideOnceItStops() {
    Fixture f;
    f.saver.setDelays(200, 60000);
    for (int value : {1, 4, 8}) f.edit(value);  // typing "1", "4", "8"
    QVERIFY(copiesIn(f.folder()).isEmpty());    // not on every keystroke
    QVERIFY(f.saved.wait(30000));
    QCOMPARE(f.saved.count(), 1);
    QCOMPARE(copiesIn(f.folder()).size(), 1);
    const AutosaveCopy copy = f.copy();
    QCOMPARE(copy.document, f.document.json());
    QCOMPARE(copy.document.at(Json::json_pointer("/mesh/shape")), Json::array({8, 2}));
    QCOMPARE(copy.base, *sampleDocument());
    QCOMPARE(copy.file, f.file);
    QTest::qWait(400);  // nothing new to write
    QCOMPARE(f.saved.count(), 1);
}

// Edits every 20 ms never leave the 5 s idle delay: only the max delay
// (300 ms) can write during the burst.
void TestAutosaver::aLongBurstIsSetAsideOnTheWay() {
    Fixture f;
    f.saver.setDelays(5000, 300);
    QElapsedTimer burst;
    burst.start();
    int value = 1;
    while (f.saved.isEmpty() && burst.elapsed() < 30000) {
        f.edit(++value);
        QTest::qWait(20);
    }
    QCOMPARE(f.saved.count(), 1);
    QVERIFY(value > 3);  // the burst went on past the first write's edits
    f.edit(++value);
    QVERIFY(f.saved.wait(30000));  // and again while it goes on
    QCOMPARE(f.copy().document, f.document.json());
}

void TestAutosaver::aSaveRemovesTheCopy() {
    Fixture f;
    f.saver.setDelays(10, 60000);
    f.edit(4);
    QVERIFY(f.saved.wait(30000));
    QCOMPARE(copiesIn(f.folder()).size(), 1);
    f.document.markSaved();
    f.saver.flush();
    QCOMPARE(QDir(f.folder()).entryList(QDir::Files), QStringList());  // the lock too
    // The next edits start from the saved document.
    f.edit(8);
    QVERIFY(f.saved.wait(30000));
    QCOMPARE(f.copy().base.at(Json::json_pointer("/mesh/shape")), Json::array({4, 2}));
}

void TestAutosaver::editsUndoneRemoveTheCopy() {
    Fixture f;
    f.saver.setDelays(10, 60000);
    f.edit(4);
    QVERIFY(f.saved.wait(30000));
    f.document.undoStack()->undo();
    QVERIFY(!f.document.isModified());
    f.saver.flush();
    QCOMPARE(copiesIn(f.folder()), QStringList());
    f.document.undoStack()->redo();
    QVERIFY(f.saved.wait(30000));
    QCOMPARE(copiesIn(f.folder()).size(), 1);
}

void TestAutosaver::anotherDocumentRemovesTheCopy() {
    Fixture f;
    f.saver.setDelays(10, 60000);
    f.edit(4);
    QVERIFY(f.saved.wait(30000));
    f.document.reset(sampleDocument());  // the window asked about the edits first
    f.saver.flush();
    QCOMPARE(copiesIn(f.folder()), QStringList());
    QTest::qWait(50);
    QCOMPARE(f.saved.count(), 1);
}

void TestAutosaver::aDocumentNeverSavedIsSetAside() {
    Fixture f;
    f.saver.setDelays(10, 60000);
    f.file.clear();
    f.document.reset(sampleDocument());
    f.document.markUnsaved();  // New from Model Config…
    QVERIFY(f.saved.wait(30000));
    const AutosaveCopy copy = f.copy();
    QCOMPARE(copy.file, QString());
    QCOMPARE(copy.document, *sampleDocument());
}

void TestAutosaver::aFailingFolderIsSaidOnce() {
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    ScenarioDocument document;
    document.reset(sampleDocument());
    Autosaver saver(&document, blocker.fileName() + QStringLiteral("/autosave"),
                    [] { return QString(); });
    saver.setDelays(10, 60000);
    QSignalSpy failed(&saver, &Autosaver::failed);
    document.setValue(kShape, Json::array({4, 2}), QStringLiteral("Shape"));
    QVERIFY(failed.wait(30000));
    QVERIFY(failed.front().front().toString().contains(blocker.fileName()));
    document.closeEditStep();
    document.setValue(kShape, Json::array({8, 2}), QStringLiteral("Shape"));
    saver.saveNow();
    saver.flush();
    QCoreApplication::processEvents();  // its report
    QCOMPARE(failed.count(), 1);
}

QTEST_MAIN(TestAutosaver)
#include "tst_autosaver.moc"
