// SPDX-License-Identifier: Apache-2.0
// Every `build/bin/hsdp-inspect` command of README.md and of docs/*.md runs
// offline as written from the repository's root and ends with the exit status
// it is meant to: 0, or the status its comment names ("# exit 1: ..." for
// findings, a plan's errors or a diff that differs), never a crash or a hang.
// A ```sh block that cannot run as written (your own model's files, another
// host, a file of the source tree rewritten) follows a line
// `<!-- not run: why -->`. They run in a stand-in for the root whose entries
// link to the source tree's and whose build/bin is the build under test, so
// what they write stays out of the sources.
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

struct ShownCommand {
    QString where;  // page:line where it starts, e.g. "docs/cli.md:17"
    QString text;   // continuation lines joined, comments kept (sh drops them)
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

// The pages whose commands run: the README, then docs/ by name.
QStringList pages() {
    QStringList out{QStringLiteral("README.md")};
    const QDir docs(QStringLiteral(HSDP_SOURCE_DIR "/docs"));
    for (const QString& name : docs.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        out << QStringLiteral("docs/") + name;
    return out;
}

// "<!-- not run: why -->" on the line before a ```sh block; its reason, else empty.
QString notRunReason(const QString& line) {
    static const QRegularExpression marker(
        QStringLiteral("^<!--\\s*not run:\\s*(\\S.*\\S)\\s*-->$"));
    const auto match = marker.match(line);
    return match.hasMatch() ? match.captured(1) : QString();
}

struct PageCommands {
    std::vector<ShownCommand> commands;
    QStringList notRun;  // "page:line (why)" of each block left out
};

// The hsdp-inspect command lines of one page's ```sh blocks.
PageCommands commandsOf(const QString& page) {
    QFile file(QStringLiteral(HSDP_SOURCE_DIR "/") + page);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    PageCommands out;
    bool inShell = false;
    bool inFence = false;
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.startsWith(QLatin1String("```"))) {
            inFence = !inFence;
            inShell = inFence && line == QLatin1String("```sh");
            const QString why = inShell && i > 0 ? notRunReason(lines[i - 1].trimmed()) : QString();
            if (!why.isEmpty()) {
                out.notRun << QStringLiteral("%1:%2 (%3)").arg(page).arg(i + 1).arg(why);
                inShell = false;
            }
            continue;
        }
        if (!inShell || !line.startsWith(QLatin1String("build/bin/hsdp-inspect "))) continue;
        ShownCommand command{QStringLiteral("%1:%2").arg(page).arg(i + 1), line};
        while (command.text.endsWith('\\') && i + 1 < lines.size())
            command.text = command.text.chopped(1) + ' ' + lines[++i].trimmed();
        command.background = endsInBackground(command.text);
        command.exitCode = promisedExitCode(command.text);
        out.commands.push_back(command);
    }
    return out;
}

// Every page's commands in page order; a command shown on several pages runs
// once, where it is first shown.
std::vector<ShownCommand> documentedCommands() {
    std::vector<ShownCommand> all;
    std::set<QString> seen;
    for (const QString& page : pages())
        for (ShownCommand& c : commandsOf(page).commands)
            if (seen.insert(c.text).second) all.push_back(std::move(c));
    return all;
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

class TestShownCommands : public QObject {
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

    // The README keeps a handful of commands, the pages the rest: they show
    // every subcommand with files the repository ships or the commands write.
    void enoughCommandsAreShown() {
        const std::vector<ShownCommand> all = documentedCommands();
        int readme = 0;
        std::set<QString> shown;
        for (const ShownCommand& c : all) {
            if (c.where.startsWith(QLatin1String("README.md:"))) ++readme;
            shown.insert(c.text.section(' ', 1, 1));
        }
        QVERIFY2(readme >= 5,
                 qPrintable(QStringLiteral("README.md shows %1 commands").arg(readme)));
        QVERIFY2(commandsOf(QStringLiteral("docs/cli.md")).commands.size() >= 15,
                 "docs/cli.md lost its commands");
        QVERIFY2(all.size() >= 30, qPrintable(QStringLiteral("only %1 commands").arg(all.size())));
        for (const char* sub : {"plan", "run", "diff", "scenario", "report", "worker", "collect",
                                "calibrate", "check-job"})
            QVERIFY2(shown.count(sub), sub);
    }

    // Blocks left out (each says why) stay the exception.
    void fewBlocksAreLeftOut() {
        QStringList notRun;
        for (const QString& page : pages()) notRun << commandsOf(page).notRun;
        qInfo().noquote() << "shown, not run:" << notRun.join(QStringLiteral("; "));
        QVERIFY2(notRun.size() <= 8, qPrintable(notRun.join('\n')));
    }

    void commandRunsAsWritten_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("background");
        QTest::addColumn<int>("exitCode");
        for (const ShownCommand& c : documentedCommands())
            QTest::addRow("%s", qPrintable(c.where)) << c.text << c.background << c.exitCode;
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

QTEST_GUILESS_MAIN(TestShownCommands)
#include "tst_readme_commands.moc"
