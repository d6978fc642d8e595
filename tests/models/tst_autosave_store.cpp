// SPDX-License-Identifier: Apache-2.0
// The autosave store: a copy reads back as written, two studios keep two
// copies (also of one file), a running studio's copy is never offered, a
// killed studio's copy is offered to one studio at a time until discarded,
// copies filter by file, a copy that does not read and an unwritable folder
// are said. The JSON changes between two documents, applied through the
// document, give the second; the restore offer says how the file stands.
// This test starts itself as a studio that saves a copy and waits to be
// killed (--hold-copy DIR FILE).
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <cstdio>

#include "autosave/autosave_store.h"
#include "autosave/json_changes.h"
#include "autosave/restore_offer.h"
#include "derived/plan/scenario_document.h"
#include "samples.h"

using namespace hsdp;

namespace {

Json sampleDocument() {
    return parseStrictJson(hsdp::testing::sampleText("llama3_8b_hsdp_2x4.json").toStdString());
}

Json edited(Json document) {
    document["mesh"]["shape"] = Json::array({4, 2});
    document["options"]["max_batch_numel"] = 300000000;
    return document;
}

QStringList filesIn(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

void writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

// The studio side of aKilledStudiosCopyIsOffered: saves a copy, says where,
// and holds its lock until killed.
int holdCopy(const QString& dir, const QString& file) {
    AutosaveStore store(dir);
    QString error;
    if (!store.save(sampleDocument(), edited(sampleDocument()), file, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("saved %s\n", qPrintable(store.ownCopyPath()));
    std::fflush(stdout);
    return QCoreApplication::exec();
}

}  // namespace

class TestAutosaveStore : public QObject {
    Q_OBJECT
private slots:
    void aCopyReadsBackAsWritten();
    void twoStudiosKeepTwoCopies();
    void removingLeavesNothing();
    void aKilledStudiosCopyIsOffered();
    void copiesFilterByFileNewestFirst();
    void aCopyThatDoesNotReadIsLeftAlone();
    void anUnwritableFolderIsSaid();
    void changesNameEachValueByPointer();
    void changesThroughTheDocumentGiveTheEditedDocument();
    void theOfferSaysHowTheFileStands();
    void anEmptyObjectIsNoChangeOnDisk();
};

void TestAutosaveStore::aCopyReadsBackAsWritten() {
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("data/autosave"));  // made when needed
    AutosaveStore store(folder);
    QVERIFY(!store.hasOwnCopy());
    const QDateTime before = QDateTime::currentDateTimeUtc().addMSecs(-1);
    QString error;
    QVERIFY2(store.save(sampleDocument(), edited(sampleDocument()),
                        dir.filePath(QStringLiteral("a/../scenario.json")), &error),
             qPrintable(error));
    const QDateTime after = QDateTime::currentDateTimeUtc().addMSecs(1);
    QVERIFY(store.hasOwnCopy());
    QVERIFY(QFileInfo::exists(store.ownCopyPath()));
    const AutosaveCopy copy = AutosaveStore::read(store.ownCopyPath());
    QCOMPARE(copy.file, dir.filePath(QStringLiteral("scenario.json")));  // absolute, clean
    QCOMPARE(copy.pid, QCoreApplication::applicationPid());
    QVERIFY(copy.savedAt >= before && copy.savedAt <= after);
    QCOMPARE(copy.base, sampleDocument());
    QCOMPARE(copy.document, edited(sampleDocument()));
    QCOMPARE(copy.document.dump(), edited(sampleDocument()).dump());  // member order too

    // A later save replaces the copy in the same slot.
    const QString first = store.ownCopyPath();
    Json again = edited(sampleDocument());
    again["mesh"]["shape"] = Json::array({8, 1});
    QVERIFY(store.save(sampleDocument(), again, copy.file, &error));
    QCOMPARE(store.ownCopyPath(), first);
    QCOMPARE(AutosaveStore::read(first).document, again);
    QCOMPARE(filesIn(folder).size(), 2);  // <id>.json and <id>.lock
}

void TestAutosaveStore::twoStudiosKeepTwoCopies() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("scenario.json"));
    AutosaveStore a(dir.path()), b(dir.path());
    Json other = sampleDocument();
    other["name"] = "the other studio's edit";
    QString error;
    QVERIFY(a.save(sampleDocument(), edited(sampleDocument()), file, &error));
    QVERIFY(b.save(sampleDocument(), other, file, &error));
    QVERIFY(a.ownCopyPath() != b.ownCopyPath());
    QCOMPARE(AutosaveStore::read(a.ownCopyPath()).document, edited(sampleDocument()));
    QCOMPARE(AutosaveStore::read(b.ownCopyPath()).document, other);
    // Both studios run: a third is offered neither, nor is either the other's.
    AutosaveStore c(dir.path());
    QVERIFY(c.claimOrphans().empty());
    QVERIFY(a.claimOrphans().empty());
    QVERIFY(b.claimOrphans(file).empty());
}

void TestAutosaveStore::removingLeavesNothing() {
    QTemporaryDir dir;
    AutosaveStore store(dir.path());
    QString error;
    QVERIFY(store.save(sampleDocument(), edited(sampleDocument()), {}, &error));
    QCOMPARE(filesIn(dir.path()).size(), 2);
    store.removeOwn();
    QVERIFY(!store.hasOwnCopy());
    QCOMPARE(filesIn(dir.path()), QStringList());
    // The next edit burst locks and writes again.
    QVERIFY(store.save(sampleDocument(), edited(sampleDocument()), {}, &error));
    QVERIFY(QFileInfo::exists(store.ownCopyPath()));
    QCOMPARE(filesIn(dir.path()).size(), 2);
}

void TestAutosaveStore::aKilledStudiosCopyIsOffered() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("scenario.json"));
    QProcess studio;
    studio.start(QCoreApplication::applicationFilePath(),
                 {QStringLiteral("--hold-copy"), dir.path(), file});
    QVERIFY(studio.waitForStarted(30000));
    QVERIFY(QTest::qWaitFor([&] { return studio.canReadLine(); }, 60000));
    const QString copyPath = QString::fromUtf8(studio.readLine()).trimmed().mid(6);
    QVERIFY2(QFileInfo::exists(copyPath), qPrintable(copyPath));

    AutosaveStore here(dir.path());
    QVERIFY(here.claimOrphans().empty());  // its studio still runs

    QCOMPARE(::kill(pid_t(studio.processId()), SIGKILL), 0);
    const qint64 pid = studio.processId();
    QVERIFY(studio.waitForFinished(30000));
    QCOMPARE(studio.exitStatus(), QProcess::CrashExit);
    QCOMPARE(filesIn(dir.path()).size(), 2);  // the copy and its stale lock

    std::vector<ClaimedCopy> claims = here.claimOrphans();
    QCOMPARE(claims.size(), size_t(1));
    QCOMPARE(claims.front().path, copyPath);
    QCOMPARE(claims.front().copy.pid, pid);
    QCOMPARE(claims.front().copy.file, file);
    QCOMPARE(claims.front().copy.document, edited(sampleDocument()));

    // While this studio shows the offer, no other one is offered the copy.
    AutosaveStore other(dir.path());
    QVERIFY(other.claimOrphans().empty());
    claims.clear();  // Later: the copy stays
    QVERIFY(QFileInfo::exists(copyPath));
    claims = other.claimOrphans(file);
    QCOMPARE(claims.size(), size_t(1));
    AutosaveStore::discard(claims.front());
    QCOMPARE(filesIn(dir.path()), QStringList());
    QVERIFY(here.claimOrphans().empty());
}

void TestAutosaveStore::copiesFilterByFileNewestFirst() {
    QTemporaryDir dir;
    const QString fileA = dir.filePath(QStringLiteral("a.json"));
    const QString fileB = dir.filePath(QStringLiteral("b.json"));
    QString error;
    // A store torn down with its copy (a window closed without its edits
    // saved or discarded) leaves it for the next studio.
    for (const QString& file : {fileA, fileB}) {
        AutosaveStore gone(dir.path());
        QVERIFY(gone.save(sampleDocument(), edited(sampleDocument()), file, &error));
        QTest::qWait(5);  // distinct times
    }
    AutosaveStore here(dir.path());
    std::vector<ClaimedCopy> all = here.claimOrphans();
    QCOMPARE(all.size(), size_t(2));
    QCOMPARE(all[0].copy.file, fileB);
    QCOMPARE(all[1].copy.file, fileA);
    all.clear();
    std::vector<ClaimedCopy> a = here.claimOrphans(fileA);
    QCOMPARE(a.size(), size_t(1));
    QCOMPARE(a.front().copy.file, fileA);
    QVERIFY(here.claimOrphans(dir.filePath(QStringLiteral("c.json"))).empty());
}

void TestAutosaveStore::aCopyThatDoesNotReadIsLeftAlone() {
    QTemporaryDir dir;
    const QString broken = dir.filePath(QStringLiteral("broken.json"));
    writeText(broken, "{\"format\": \"hsdp-studio-autosave/1\", \"file\": ");
    AutosaveStore here(dir.path());
    QVERIFY(here.claimOrphans().empty());
    QVERIFY(QFileInfo::exists(broken));  // nothing the user made is deleted
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, AutosaveStore::read(broken));
    try {
        AutosaveStore::read(broken);
    } catch (const std::runtime_error& error) {
        QVERIFY2(QString::fromUtf8(error.what()).startsWith(broken), error.what());
    }
}

void TestAutosaveStore::anUnwritableFolderIsSaid() {
    QTemporaryDir dir;
    const QString notAFolder = dir.filePath(QStringLiteral("file"));
    writeText(notAFolder, "x");
    AutosaveStore store(notAFolder + QStringLiteral("/autosave"));
    QString error;
    QVERIFY(!store.save(sampleDocument(), edited(sampleDocument()), {}, &error));
    QVERIFY2(error.contains(notAFolder + QStringLiteral("/autosave")), qPrintable(error));
    QVERIFY(!store.hasOwnCopy());
}

void TestAutosaveStore::changesNameEachValueByPointer() {
    Json before = sampleDocument();
    Json after = before;
    after["mesh"]["shape"] = Json::array({4, 2});      // a list: one value
    after["options"]["max_batch_numel"] = 64;          // added
    after["options"].erase("alignment_bytes");         // removed
    after["params"][1]["params"][0]["dtype"] = "f32";  // inside a repeat block
    after["params"][0]["placements"] = Json::array({"S(0)", "R"});
    after["a/b~c"] = 1;  // escaped
    const std::vector<JsonChange> changes = jsonChanges(before, after);
    QStringList pointers;
    for (const JsonChange& change : changes) pointers << change.pointer;
    QCOMPARE(pointers,
             QStringList({"/mesh/shape", "/options/max_batch_numel", "/options/alignment_bytes",
                          "/params/0/placements", "/params/1/params/0/dtype", "/a~1b~0c"}));
    QCOMPARE(changes[0].before, std::optional<Json>(Json::array({2, 4})));
    QCOMPARE(changes[0].after, std::optional<Json>(Json::array({4, 2})));
    QVERIFY(!changes[1].before);
    QVERIFY(!changes[2].after);
    QCOMPARE(jsonChangeText(changes[0].before), QStringLiteral("[2,4]"));
    QCOMPARE(jsonChangeText(changes[1].before), QStringLiteral("(absent)"));
    QCOMPARE(jsonChangeText(Json(std::string(200, 'x')), 10).size(), 10);
    QVERIFY(jsonChanges(before, before).empty());

    // A list of objects of another length is one value.
    Json fewer = before;
    fewer["params"].erase(fewer["params"].begin());
    const std::vector<JsonChange> whole = jsonChanges(before, fewer);
    QCOMPARE(whole.size(), size_t(1));
    QCOMPARE(whole.front().pointer, QStringLiteral("/params"));
}

void TestAutosaveStore::changesThroughTheDocumentGiveTheEditedDocument() {
    Json before = sampleDocument();
    Json after = edited(before);
    after["params"][1]["repeat"] = 2;
    after["options"].erase("alignment_bytes");
    after["mesh"]["ranks"] = Json::array({7, 6, 5, 4, 3, 2, 1, 0});
    ScenarioDocument document;
    document.reset(std::make_shared<const Json>(before));
    for (const JsonChange& change : jsonChanges(before, after))
        document.setValue(change.pointer, change.after, QStringLiteral("restore"));
    QCOMPARE(document.json(), after);
    QCOMPARE(document.json().dump(), after.dump());
}

void TestAutosaveStore::theOfferSaysHowTheFileStands() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("scenario.json"));
    writeText(file, hsdp::testing::sampleText("llama3_8b_hsdp_2x4.json"));
    AutosaveCopy copy;
    copy.file = file;
    copy.base = sampleDocument();
    copy.document = edited(sampleDocument());

    RestoreOffer offer = makeRestoreOffer(copy, QStringLiteral("copy.json"));
    QCOMPARE(int(offer.disk), int(DiskState::Unchanged));
    QCOMPARE(offer.start, sampleDocument());
    QCOMPARE(offer.changes.size(), size_t(2));
    QVERIFY(offer.diskModified.isValid());

    // Written since the edits began: compared with the file as it is now.
    Json written = sampleDocument();
    written["mesh"]["shape"] = Json::array({1, 8});
    written["options"]["max_batch_numel"] = 300000000;
    writeText(file, QByteArray::fromStdString(written.dump()));
    offer = makeRestoreOffer(copy, QStringLiteral("copy.json"));
    QCOMPARE(int(offer.disk), int(DiskState::Changed));
    QCOMPARE(offer.start, written);
    QCOMPARE(offer.changes.size(), size_t(1));  // the batch cap is on disk already
    QCOMPARE(offer.changes.front().pointer, QStringLiteral("/mesh/shape"));
    QCOMPARE(offer.changes.front().before, std::optional<Json>(Json::array({1, 8})));

    writeText(file, "{ not json");
    offer = makeRestoreOffer(copy, QStringLiteral("copy.json"));
    QCOMPARE(int(offer.disk), int(DiskState::Unreadable));
    QVERIFY2(offer.diskProblem.contains(QStringLiteral("line 1")), qPrintable(offer.diskProblem));
    QCOMPARE(offer.start, copy.base);
    QCOMPARE(offer.changes.size(), size_t(2));

    QFile::remove(file);
    offer = makeRestoreOffer(copy, QStringLiteral("copy.json"));
    QCOMPARE(int(offer.disk), int(DiskState::Missing));
    QVERIFY(offer.diskProblem.contains(file));
    QCOMPARE(offer.start, copy.base);

    copy.file.clear();
    offer = makeRestoreOffer(copy, QStringLiteral("copy.json"));
    QCOMPARE(int(offer.disk), int(DiskState::Untitled));
    QCOMPARE(offer.changes.size(), size_t(2));
}

// The file has no "options"; the edits began from the document with an empty
// one (an option set, then undone): the same document, so not "changed on
// disk since the edits began". A real change beside it still counts.
void TestAutosaveStore::anEmptyObjectIsNoChangeOnDisk() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("scenario.json"));
    Json onDisk = sampleDocument();
    onDisk.erase("options");
    writeText(file, QByteArray::fromStdString(onDisk.dump(2)));
    AutosaveCopy copy;
    copy.file = file;
    copy.base = onDisk;
    copy.base["options"] = Json::object();
    copy.document = edited(onDisk);
    QVERIFY(copy.base != onDisk);  // as JSON values they differ
    QCOMPARE(int(makeRestoreOffer(copy, QStringLiteral("copy.json")).disk),
             int(DiskState::Unchanged));
    copy.base["mesh"]["shape"] = Json::array({1, 8});
    QCOMPARE(int(makeRestoreOffer(copy, QStringLiteral("copy.json")).disk),
             int(DiskState::Changed));
}

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.value(1) == QLatin1String("--hold-copy"))
        return holdCopy(args.value(2), args.value(3));
    TestAutosaveStore test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_autosave_store.moc"
