// SPDX-License-Identifier: Apache-2.0
// Every `build/bin/hsdp-inspect` command of README.md runs offline as
// written from the repository's root and ends with the exit status it is
// meant to: 0, or the status its comment names ("# exit 1: ..." for findings,
// a plan's errors or a diff that differs), never a crash or a hang. They run
// in a stand-in for the root whose entries link to the source tree's and
// whose build/bin is the build under test, so what they write stays out of
// the sources.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <memory>
#include <set>
#include <vector>

namespace {

struct ReadmeCommand {
    int line = 0;  // where it starts in README.md
    QString text;  // continuation lines joined, comments kept (sh drops them)
    bool background = false;
    int exitCode = 0;  // "# exit N" in its comment, else 0
};

// The status a command's comment promises ("# exit 1: the wrong rows"), else 0.
int promisedExitCode(const QString& text) {
    static const QRegularExpression promise(QStringLiteral("#.*\\bexit (\\d)\\b"));
    const auto match = promise.match(text);
    return match.hasMatch() ? match.captured(1).toInt() : 0;
}

// `cmd &` runs alongside the next commands, as it does in a terminal.
bool endsInBackground(QString& text) {
    static const QRegularExpression amp(QStringLiteral("\\s&\\s*$"));
    const auto match = amp.match(text);
    if (!match.hasMatch()) return false;
    text.truncate(match.capturedStart());
    return true;
}

// The hsdp-inspect command lines of the README's ```sh blocks.
std::vector<ReadmeCommand> readmeCommands() {
    QFile file(QStringLiteral(HSDP_SOURCE_DIR "/README.md"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    std::vector<ReadmeCommand> commands;
    bool inShell = false;
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.startsWith(QLatin1String("```"))) {
            inShell = !inShell && line == QLatin1String("```sh");
            continue;
        }
        if (!inShell || !line.startsWith(QLatin1String("build/bin/hsdp-inspect "))) continue;
        ReadmeCommand command{i + 1, line};
        while (command.text.endsWith('\\') && i + 1 < lines.size())
            command.text = command.text.chopped(1) + ' ' + lines[++i].trimmed();
        command.background = endsInBackground(command.text);
        command.exitCode = promisedExitCode(command.text);
        commands.push_back(command);
    }
    return commands;
}

std::unique_ptr<QProcess> startInShell(const QString& command, const QString& root) {
    auto process = std::make_unique<QProcess>();
    process->setWorkingDirectory(root);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    return process;
}

// Ended by itself, with the status it promises.
void checkEnded(QProcess& process, const QString& what, int exitCode) {
    const bool ended = process.waitForFinished(600000);
    if (!ended) process.kill();
    const QByteArray output = process.readAll();
    QVERIFY2(ended && process.exitStatus() == QProcess::NormalExit,
             qPrintable(what + ": did not end\n" + output));
    QVERIFY2(process.exitCode() == exitCode, qPrintable(QStringLiteral("%1: exit %2, not %3\n%4")
                                                            .arg(what)
                                                            .arg(process.exitCode())
                                                            .arg(exitCode)
                                                            .arg(QString::fromUtf8(output))));
}

}  // namespace

class TestReadmeCommands : public QObject {
    Q_OBJECT
    QTemporaryDir root_;
    struct Background {
        QString command;
        int exitCode = 0;
        std::unique_ptr<QProcess> process;
    };
    std::vector<Background> background_;

private slots:
    // The root's entries as links, build/bin the tested build's.
    void initTestCase() {
        QVERIFY(root_.isValid());
        const QDir source(QStringLiteral(HSDP_SOURCE_DIR));
        for (const QString& name : source.entryList(QDir::AllEntries | QDir::NoDotAndDotDot))
            if (!name.startsWith(QLatin1String("build")))
                QVERIFY(QFile::link(source.filePath(name), root_.filePath(name)));
        QVERIFY(QDir(root_.path()).mkdir("build"));
        QVERIFY(QFile::link(QStringLiteral(HSDP_BINARY_DIR "/bin"), root_.filePath("build/bin")));
    }

    // The README shows every subcommand with files it ships or writes.
    void everySubcommandIsShown() {
        std::set<QString> shown;
        for (const ReadmeCommand& c : readmeCommands()) shown.insert(c.text.section(' ', 1, 1));
        for (const char* sub : {"plan", "run", "diff", "scenario", "report", "worker", "collect"})
            QVERIFY2(shown.count(sub), sub);
    }

    void commandRunsAsWritten_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("background");
        QTest::addColumn<int>("exitCode");
        for (const ReadmeCommand& c : readmeCommands())
            QTest::addRow("README.md:%d", c.line) << c.text << c.background << c.exitCode;
    }
    void commandRunsAsWritten() {
        QFETCH(QString, command);
        QFETCH(bool, background);
        QFETCH(int, exitCode);
        auto process = startInShell(command, root_.path());
        if (background) {
            background_.push_back({command, exitCode, std::move(process)});
            return;
        }
        checkEnded(*process, command, exitCode);
    }

    // The `&` commands ended as the others must.
    void backgroundCommandsEnded() {
        for (auto& b : background_) checkEnded(*b.process, b.command, b.exitCode);
    }
};

QTEST_GUILESS_MAIN(TestReadmeCommands)
#include "tst_readme_commands.moc"
