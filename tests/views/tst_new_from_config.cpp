// SPDX-License-Identifier: Apache-2.0
// File ▸ New from Model Config…, offscreen: the dialog's preview plans the
// generated scenario (published parameter count, world), a layout the
// engine refuses shows the field and the rule and disables OK, the document
// equals what `hsdp-inspect scenario --from-config` writes for the same
// options, and it opens unsaved in the window with its plan.
#include <QDialogButtonBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_process.h"
#include "cluster/reader.h"
#include "derived/plan/plan_selection.h"
#include "derived/plan/scenario_document.h"
#include "export/scenario_json_text.h"
#include "new_scenario/new_from_config_dialog.h"
#include "plan_diff/plan_diff_tracker.h"
#include "window/main_window.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

const QString kLlama3 = QStringLiteral(HSDP_SOURCE_DIR "/tests/data/model_configs/llama3_8b.json");

bool waitForPreview(NewFromConfigDialog& dialog) {
    QSignalSpy ready(&dialog, &NewFromConfigDialog::previewReady);
    return ready.wait(30000);
}

bool okEnabled(const NewFromConfigDialog& dialog) {
    return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled();
}

}  // namespace

class TestNewFromConfig : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void previewPlansTheModel() {
        NewFromConfigDialog dialog(kLlama3);
        // The dialog plans its default layout (dp_shard=2, world 2) off the GUI
        // thread as it opens: that preview arrives, as a plan, and the job is done.
        QVERIFY(dialog.isPreviewBusy());
        QVERIFY(waitForPreview(dialog));
        QVERIFY(!dialog.isPreviewBusy());
        QVERIFY2(dialog.previewText().contains(QStringLiteral("world 2 ")),
                 qPrintable(dialog.previewText()));
        QVERIFY2(dialog.previewText().contains(QStringLiteral("0 errors")),
                 qPrintable(dialog.previewText()));
        QVERIFY(okEnabled(dialog));
        dialog.setDegrees(1, 4, 2, 1);
        QVERIFY(waitForPreview(dialog));
        const QString preview = dialog.previewText();
        QVERIFY2(preview.contains(QStringLiteral("8,030,261,248 elements")), qPrintable(preview));
        QVERIFY2(preview.contains(QStringLiteral("world 8")), qPrintable(preview));
        QVERIFY2(preview.contains(QStringLiteral("0 errors")), qPrintable(preview));
        QVERIFY(okEnabled(dialog));
        QVERIFY(dialog.document());
        // The CLI writes the same document for the same options.
        auto cli =
            inspect({"scenario", "--from-config", kLlama3, "--mesh", "dp_shard=4,tp=2", "-o", "-"});
        QCOMPARE(cli.exitCode, 0);
        QCOMPARE(QByteArray::fromStdString(scenarioJsonText(*dialog.document())), cli.out);
    }

    // The preview once counted the plan's diagnostics only: a layout that
    // does not fit the studio's cluster previewed "0 errors" and opened with
    // an out-of-memory error. With the studio's cluster it counts that error
    // and says it first; without one it says nothing of memory.
    void thePreviewCountsTheOutOfMemoryError() {
        NewFromConfigDialog dialog(
            QStringLiteral(HSDP_SOURCE_DIR "/tests/data/model_configs/llama3_70b.json"));
        QVERIFY(waitForPreview(dialog));
        dialog.setDegrees(1, 2, 1, 1);  // 70B params on two GPUs
        QVERIFY(waitForPreview(dialog));
        QVERIFY2(dialog.previewText().contains(QStringLiteral("0 errors")),
                 qPrintable(dialog.previewText()));
        QVERIFY(!dialog.previewText().contains(QStringLiteral("out of memory")));
        dialog.setCluster(std::make_shared<const Cluster>(readClusterPreset("h100-dgx")));
        QVERIFY(waitForPreview(dialog));
        const QString preview = dialog.previewText();
        QVERIFY2(preview.contains(QStringLiteral("1 error,")), qPrintable(preview));
        QVERIFY2(preview.contains(QStringLiteral("out of memory: peak")), qPrintable(preview));
        QVERIFY(okEnabled(dialog));  // a plan that does not fit may still be opened and studied
    }

    void aRefusedLayoutNamesTheFieldAndTheRule() {
        NewFromConfigDialog dialog(kLlama3);
        dialog.setDegrees(1, 2, 3, 1);
        QVERIFY(!dialog.document());
        QVERIFY(!okEnabled(dialog));
        const QString preview = dialog.previewText();
        QVERIFY2(preview.contains(QStringLiteral("num_attention_heads")) &&
                     preview.contains(QStringLiteral("tp=3")),
                 qPrintable(preview));
        dialog.setConfigPath(sample("teaching_2x2.json"));
        QVERIFY(!dialog.document());  // a scenario is no model config
        QVERIFY(!okEnabled(dialog));
    }

    void theScenarioOpensUnsaved() {
        MainWindow window;
        NewFromConfigDialog dialog(kLlama3);
        dialog.setDegrees(2, 2, 2, 1);
        QVERIFY(waitForPreview(dialog));
        QSignalSpy planned(&window, &MainWindow::planShown);
        window.openGeneratedScenario(dialog.document());
        QVERIFY(planned.wait(30000));
        const PlanResult result = planned.takeFirst().at(0).value<PlanResult>();
        QCOMPARE(result.plan->worldSize, 8);
        QCOMPARE(result.document, dialog.document());
        QVERIFY(window.session()->path().isEmpty());
        QVERIFY(window.document()->isModified());  // unsaved until Save As
        QVERIFY(window.windowTitle().contains(QStringLiteral("untitled")));
        QCOMPARE(window.document()->json(), *dialog.document());
        QVERIFY(window.selection()->focusParam() >= 0);  // a new document's first picture
    }

    // A generated scenario is another document: the run and "what changed"
    // of the one before are gone, and every text that names a file says
    // "untitled" (or the scenario's name), never "".
    void anUntitledScenarioIsAnotherDocument() {
        QTemporaryDir dir;
        MainWindow window;
        QSignalSpy opened(&window, &MainWindow::planShown);
        window.openScenario(sample("diagnostics_tour.json"));
        QVERIFY(opened.wait(20000));
        QSignalSpy finished(window.runSession(), &RunSession::finished);
        RunRequest reference;
        reference.mode = RunMode::Reference;
        QVERIFY(window.startRun(reference));
        QVERIFY(finished.wait(120000));
        QVERIFY(window.lastRun().isValid());

        for (int degree : {2, 4}) {  // a second generated scenario is another one again
            NewFromConfigDialog dialog(kLlama3);
            dialog.setDegrees(1, degree, 2, 1);
            QVERIFY(waitForPreview(dialog) || dialog.document());
            QVERIFY(dialog.document());
            window.document()->markSaved();  // as if "Discard" was answered
            QSignalSpy planned(&window, &MainWindow::planShown);
            QSignalSpy compared(window.planDiffTracker(), &PlanDiffTracker::diffReady);
            window.openGeneratedScenario(dialog.document());
            QVERIFY(planned.wait(30000));
            QVERIFY(compared.wait(20000) || !compared.isEmpty());
            QVERIFY(!window.lastRun().isValid());
            QCOMPARE(window.runStatusText(), QString());
            const PlanDiffTable& change = window.planDiffTracker()->change();
            QVERIFY(!change.isValid());  // nothing compared with the scenario before
            QVERIFY2(change.note.startsWith(QStringLiteral("No change since untitled was")),
                     qPrintable(change.note));
        }
        const QString suggested = QFileInfo(window.suggestedReportPath()).fileName();
        QVERIFY2(!suggested.startsWith(QLatin1Char('-')) && suggested.endsWith("-report.html"),
                 qPrintable(suggested));

        const QString path = dir.filePath(QStringLiteral("report.html"));
        QVERIFY(window.exportReport(path, /*quiet=*/true));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY(html.contains(QStringLiteral("untitled (not saved)")));
        QVERIFY(!html.contains(QStringLiteral("earlier plan")));
        QVERIFY(!html.contains(QStringLiteral("VERIFIED")));
        QVERIFY(!html.contains(QStringLiteral("colwise.strided")));  // the tour's params
        QVERIFY(!html.contains(QStringLiteral("hsdp-inspect report &#39;&#39;")));
        QVERIFY(!html.contains(QStringLiteral("hsdp-inspect report ''")));
        QVERIFY(html.contains(QStringLiteral("save it first")));
        const QRegularExpression command(QStringLiteral("<pre>(hsdp-inspect report [^<]*)</pre>"));
        const QString ran = command.match(html).captured(1);
        QVERIFY2(ran.startsWith(QStringLiteral("hsdp-inspect report SAVED_SCENARIO.json -o ")),
                 qPrintable(ran));
        QVERIFY(!ran.contains(QStringLiteral("--run")));
    }
};

QTEST_MAIN(TestNewFromConfig)
#include "tst_new_from_config.moc"
