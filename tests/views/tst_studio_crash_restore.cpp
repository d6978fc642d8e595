// SPDX-License-Identifier: Apache-2.0
// Nothing lost in the studio: a real hsdp-studio on an X server of its own
// (Xvfb) gets what-if edits typed by xdotool as a user would (F2, the shape,
// Tab, the dim names), sets them aside in its data location
// ($XDG_DATA_HOME/hsdp/hsdp-studio/autosave), and is killed with SIGKILL.
// While it ran nobody was offered its copy; after the kill the next studio
// is: this test's own window shows what the offer says (file, process, disk
// state, each changed value) and keeps it (Later); a real studio started
// again restores it (Enter), and Ctrl+S writes exactly the edited scenario.
// Declining (Alt+D) removes the copy and leaves the file as it was.
// Every wait is on a condition, with a generous timeout: CI runs this on a
// busy 2-core machine.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>
#include <csignal>
#include <functional>
#include <memory>

#include "autosave/autosave_store.h"
#include "autosave/restore_dialog.h"
#include "derived/plan/scenario_document.h"
#include "samples.h"
#include "window/main_window.h"

using namespace hsdp;

namespace {

constexpr int kTimeoutMs = 120000;  // a start or a write on a loaded machine takes seconds

const char* const kMissingTools =
    "needs Xvfb and xdotool (Debian packages xvfb and xdotool; scripts/bootstrap installs them)";

// Polls `condition` every 100 ms, handling events, until it holds or `ms` pass.
bool waitUntil(const std::function<bool()>& condition, int ms = kTimeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!condition()) {
        if (clock.elapsed() > ms) return false;
        QTest::qWait(100);
    }
    return true;
}

Json readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    try {
        return parseStrictJson(file.readAll().toStdString());
    } catch (const std::exception&) {
        return {};  // being written by someone else
    }
}

// ": hsdp-studio exited with code N" when it did (its stderr is the test's).
QString exited(const QProcess& studio) {
    if (studio.state() != QProcess::NotRunning) return {};
    return QStringLiteral(": hsdp-studio exited with code %1").arg(studio.exitCode());
}

// An X server of the test's own: Xvfb picks a free display and says which.
// -noreset: by default an X server resets when its last client leaves, and a
// studio connecting during that reset is refused ("could not connect to
// display"): seen in a fresh-clone CI run between the two cases, and here
// once in 600 connections under load without it, never with it.
class VirtualScreen {
public:
    bool start() {
        xvfb_.setProcessChannelMode(QProcess::ForwardedErrorChannel);  // its complaints in the log
        xvfb_.start(
            QStringLiteral("Xvfb"),
            {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
             QStringLiteral("0"), QStringLiteral("1600x1000x24"), QStringLiteral("-nolisten"),
             QStringLiteral("tcp"), QStringLiteral("-noreset")});
        if (!xvfb_.waitForStarted(kTimeoutMs)) return false;
        // The number comes once the server accepts connections.
        if (!waitUntil(
                [this] { return xvfb_.canReadLine() || xvfb_.state() == QProcess::NotRunning; }))
            return false;
        const QByteArray number = xvfb_.readLine().trimmed();
        if (number.isEmpty()) return false;
        display_ = QStringLiteral(":") + QString::fromLatin1(number);
        // Then as a client: a studio started at once must find it.
        return waitUntil([this] { return answers(); });
    }
    bool answers() const {
        QProcess client;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), display_);
        client.setProcessEnvironment(env);
        client.start(QStringLiteral("xdotool"), {QStringLiteral("getdisplaygeometry")});
        return client.waitForFinished(kTimeoutMs) && client.exitStatus() == QProcess::NormalExit &&
               client.exitCode() == 0;
    }
    ~VirtualScreen() {
        xvfb_.terminate();
        if (!xvfb_.waitForFinished(10000)) xvfb_.kill();
        xvfb_.waitForFinished(10000);
    }
    QString display() const { return display_; }

private:
    QProcess xvfb_;
    QString display_;
};

struct Fixture {
    explicit Fixture(VirtualScreen& screen) : screen(screen) {}
    QTemporaryDir dir;
    VirtualScreen& screen;
    QString scenario = dir.filePath(QStringLiteral("crash-test.json"));
    // Where hsdp-studio (organisation hsdp) keeps its copies under XDG_DATA_HOME.
    QString autosave = dir.filePath(QStringLiteral("data/hsdp/hsdp-studio/autosave"));
    Json original;

    bool setUp() {
        if (!QFile::copy(hsdp::testing::sample(QStringLiteral("llama3_8b_hsdp_2x4.json")),
                         scenario))
            return false;
        QFile::setPermissions(scenario, QFile::ReadOwner | QFile::WriteOwner);
        original = readJson(scenario);
        QDir().mkpath(dir.filePath(QStringLiteral("runtime")));
        QFile::setPermissions(dir.filePath(QStringLiteral("runtime")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return !screen.display().isEmpty() || screen.start();
    }

    QProcessEnvironment environment() const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), screen.display());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.filePath(QStringLiteral("runtime")));
        return env;
    }

    void startStudio(QProcess& studio) const {
        studio.setProcessEnvironment(environment());
        studio.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        studio.start(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-studio"), {scenario});
    }

    // xdotool on the test's screen; its standard output.
    QString xdotool(const QStringList& args) const {
        QProcess tool;
        tool.setProcessEnvironment(environment());
        tool.start(QStringLiteral("xdotool"), args);
        if (!tool.waitForFinished(kTimeoutMs)) {
            tool.kill();
            tool.waitForFinished();
            return {};
        }
        return QString::fromUtf8(tool.readAllStandardOutput()).trimmed();
    }
    // The first mapped window whose title matches `regex`, "" while there is
    // none (Qt names a window before it maps it, and an unmapped one takes
    // no keyboard).
    QString window(const QString& regex) const {
        return xdotool({QStringLiteral("search"), QStringLiteral("--onlyvisible"),
                        QStringLiteral("--name"), regex})
            .section(QLatin1Char('\n'), 0, 0);
    }
    QString title(const QString& window) const {
        return xdotool({QStringLiteral("getwindowname"), window});
    }
    // Gives `window` the keyboard (there is no window manager), then `args`.
    void keys(const QString& window, const QStringList& args) const {
        xdotool({QStringLiteral("windowfocus"), QStringLiteral("--sync"), window});
        xdotool(args);
    }

    // What the screen and the data location hold, for a failure's message.
    QString state() const {
        const QString titles = xdotool({QStringLiteral("search"), QStringLiteral("--onlyvisible"),
                                        QStringLiteral("--name"), QStringLiteral("."),
                                        QStringLiteral("getwindowname"), QStringLiteral("%@")});
        return QStringLiteral("windows: [%1]; %2: [%3]")
            .arg(titles.split(QLatin1Char('\n')).join(QStringLiteral(" | ")), autosave,
                 files().join(QStringLiteral(", ")));
    }

    QStringList copies() const {
        return QDir(autosave).entryList({QStringLiteral("*.json")}, QDir::Files);
    }
    QStringList files() const { return QDir(autosave).entryList(QDir::Files); }
    Json copyDocument(const QString& name) const {
        const Json record = readJson(QDir(autosave).filePath(name));
        return record.is_object() ? record.value("document", Json()) : Json();
    }

    // Starts a studio on the scenario, types the edits into its what-if panel
    // (F2: the first mesh's shape, Tab: its dim names), waits until its copy
    // holds `edited`, checks that no other studio is offered it while it
    // runs, and kills it with SIGKILL. Returns "" or what went wrong.
    QString editAndKill(const QString& shape, const QString& dimNames, const Json& edited) {
        QProcess studio;
        startStudio(studio);
        if (!studio.waitForStarted(kTimeoutMs)) return QStringLiteral("hsdp-studio did not start");
        // The scenario's name is in the title once its plan is on screen.
        QString main;
        if (!waitUntil([&] {
                main = window(QStringLiteral("^Llama-3-8B.*crash-test\\.json"));
                return !main.isEmpty() || studio.state() == QProcess::NotRunning;
            }) ||
            main.isEmpty())
            return QStringLiteral("no studio window with the scenario's plan appeared%1")
                .arg(exited(studio));
        keys(main, {QStringLiteral("key"), QStringLiteral("F2")});
        keys(main,
             {QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("40"), shape});
        keys(main, {QStringLiteral("key"), QStringLiteral("Tab")});
        keys(main,
             {QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("40"), dimNames});
        QString copy;
        const bool written = waitUntil([&] {
            for (const QString& name : copies())
                if (copyDocument(name) == edited) copy = name;
            return !copy.isEmpty();
        });
        if (!written)
            return QStringLiteral(
                       "no copy with the typed edits appeared in %1 (copies: %2; title: %3)")
                .arg(autosave, copies().join(QStringLiteral(", ")), title(main));
        if (!AutosaveStore(autosave).claimOrphans().empty())
            return QStringLiteral("a running studio's copy was offered as left behind");
        ::kill(pid_t(studio.processId()), SIGKILL);
        if (!studio.waitForFinished(kTimeoutMs) || studio.exitStatus() != QProcess::CrashExit)
            return QStringLiteral("hsdp-studio did not die of SIGKILL");
        if (!files().contains(QFileInfo(copy).completeBaseName() + QStringLiteral(".lock")))
            return QStringLiteral("the killed studio's lock file is gone");
        return {};
    }

    // A real studio started again: its restore offer, answered with `key`.
    // Returns the studio window's id, "" with `problem` set on failure.
    QString answerOfferInRealStudio(QProcess& studio, const QString& key, QString* problem) {
        startStudio(studio);
        if (!studio.waitForStarted(kTimeoutMs)) {
            *problem = QStringLiteral("hsdp-studio did not start again");
            return {};
        }
        QString offer;
        if (!waitUntil([&] {
                offer = window(QStringLiteral("^Restore unsaved edits$"));
                return !offer.isEmpty() || studio.state() == QProcess::NotRunning;
            }) ||
            offer.isEmpty()) {
            *problem = QStringLiteral("the restarted studio offered nothing%1").arg(exited(studio));
            return {};
        }
        keys(offer, {QStringLiteral("key"), key});
        QString main;
        if (!waitUntil([&] {
                main = window(QStringLiteral("crash-test\\.json.*HSDP Studio"));
                return !main.isEmpty();
            }))
            *problem = QStringLiteral("no studio window after the offer: ") + state();
        return main;
    }

    // Quits the studio with Ctrl+Q: no prompt (nothing unsaved), exit 0.
    bool quit(QProcess& studio, const QString& main) const {
        keys(main, {QStringLiteral("key"), QStringLiteral("ctrl+q")});
        return studio.waitForFinished(kTimeoutMs) && studio.exitStatus() == QProcess::NormalExit &&
               studio.exitCode() == 0;
    }
};

Json withMesh(Json document, const Json& shape, const Json& dimNames) {
    document["mesh"]["shape"] = shape;
    document["mesh"]["dim_names"] = dimNames;
    return document;
}

// Answers the offer shown in this process with `choice`, noting its text and rows.
struct OfferAnswer {
    explicit OfferAnswer(RestoreChoice choice) {
        poll.setInterval(20);
        QObject::connect(&poll, &QTimer::timeout, [this, choice] {
            auto* dialog = qobject_cast<RestoreDialog*>(QApplication::activeModalWidget());
            if (!dialog || seen) return;
            seen = true;
            text = dialog->text();
            for (int row = 0; row < dialog->changesTable()->topLevelItemCount(); ++row) {
                QTreeWidgetItem* item = dialog->changesTable()->topLevelItem(row);
                rows << item->text(0) + " | " + item->text(1) + " | " + item->text(2);
            }
            dialog->button(choice)->click();
        });
        poll.start();
    }
    QTimer poll;
    bool seen = false;
    QString text;
    QStringList rows;
};

}  // namespace

class TestStudioCrashRestore : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aKilledStudiosEditsComeBack();
    void decliningRemovesTheCopy();
    void cleanupTestCase();

private:
    // One X server for both cases, started once (and kept from resetting,
    // VirtualScreen): fewer moments a studio can meet a server not ready.
    std::unique_ptr<VirtualScreen> screen_;
};

void TestStudioCrashRestore::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    for (const char* tool : {"Xvfb", "xdotool"})
        QVERIFY2(!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty(), kMissingTools);
    screen_ = std::make_unique<VirtualScreen>();
}

void TestStudioCrashRestore::cleanupTestCase() {
    screen_.reset();
}

void TestStudioCrashRestore::aKilledStudiosEditsComeBack() {
    Fixture f(*screen_);
    QVERIFY2(f.setUp(), "cannot start Xvfb");
    const Json edited = withMesh(f.original, {4, 2}, {"rep", "shard"});
    const QString problem =
        f.editAndKill(QStringLiteral("4, 2"), QStringLiteral("rep, shard"), edited);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(f.copies().size(), 1);
    const QString copy = f.copies().front();

    // The offer, as this test's own window shows it: keep it (Later).
    {
        OfferAnswer later(RestoreChoice::Later);
        MainWindow window;
        window.enableAutosave(f.autosave);
        QVERIFY(waitUntil([&] { return later.seen; }));
        for (const QString& said : {QStringLiteral("Unsaved edits of crash-test.json"), f.scenario,
                                    QStringLiteral("by studio process"),
                                    QStringLiteral("unchanged since the edits began"),
                                    QStringLiteral("2 values differ from the file on disk")})
            QVERIFY2(later.text.contains(said), qPrintable(said + " not in:\n" + later.text));
        QCOMPARE(later.rows, QStringList({"/mesh/shape | [2,4] | [4,2]",
                                          "/mesh/dim_names | [\"dp_replicate\",\"dp_shard\"] | "
                                          "[\"rep\",\"shard\"]"}));
        QVERIFY(!window.document()->isLoaded());
    }
    QCOMPARE(f.copies(), QStringList({copy}));  // kept

    // A real studio again: Restore (Enter), then Ctrl+S.
    QProcess studio;
    QString failure;
    const QString main = f.answerOfferInRealStudio(studio, QStringLiteral("Return"), &failure);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY2(waitUntil([&] { return f.title(main).contains(QStringLiteral("crash-test.json*")); }),
             qPrintable(f.state()));
    // Its edits are the new studio's copy now, the killed studio's is gone.
    QVERIFY2(waitUntil([&] { return f.copies().size() == 1 && !f.copies().contains(copy); }),
             qPrintable(f.state()));
    QCOMPARE(f.copyDocument(f.copies().front()), edited);
    QCOMPARE(readJson(f.scenario), f.original);  // not written before the user saves
    f.keys(main, {QStringLiteral("key"), QStringLiteral("ctrl+s")});
    QVERIFY(waitUntil([&] { return readJson(f.scenario) == edited; }));
    QVERIFY2(waitUntil([&] { return f.files().isEmpty(); }),
             qPrintable(f.state()));  // saved: no copy, no lock
    QVERIFY(waitUntil([&] { return !f.title(main).contains(QStringLiteral("json*")); }));
    QVERIFY(f.quit(studio, main));
    QCOMPARE(readJson(f.scenario).dump(), edited.dump());  // exactly, member order too
    QCOMPARE(f.files(), QStringList());
}

void TestStudioCrashRestore::decliningRemovesTheCopy() {
    Fixture f(*screen_);
    QVERIFY2(f.setUp(), "cannot start Xvfb");
    const Json edited = withMesh(f.original, {8, 1}, {"r", "s"});
    const QString problem = f.editAndKill(QStringLiteral("8, 1"), QStringLiteral("r, s"), edited);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(f.copies().size(), 1);

    QProcess studio;
    QString failure;
    const QString main = f.answerOfferInRealStudio(studio, QStringLiteral("alt+d"), &failure);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY2(waitUntil([&] { return f.files().isEmpty(); }), qPrintable(f.state()));
    QVERIFY2(waitUntil([&] { return f.title(main).startsWith(QStringLiteral("Llama-3-8B")); }),
             qPrintable(f.state()));
    QVERIFY(!f.title(main).contains(QStringLiteral("json*")));  // nothing unsaved
    QVERIFY(f.quit(studio, main));
    QCOMPARE(readJson(f.scenario), f.original);
    QCOMPARE(f.files(), QStringList());
}

QTEST_MAIN(TestStudioCrashRestore)
#include "tst_studio_crash_restore.moc"
