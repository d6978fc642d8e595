// File ▸ New from Model Config…, offscreen: the dialog's preview plans the
// generated scenario (published parameter count, world), a layout the
// engine refuses shows the field and the rule and disables OK, the document
// equals what `hsdp-inspect scenario --from-config` writes for the same
// options, and it opens unsaved in the window with its plan.
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "cli_process.h"
#include "export/scenario_json_text.h"
#include "models/plan_selection.h"
#include "models/scenario_document.h"
#include "views/main_window.h"
#include "views/new_from_config_dialog.h"

using namespace hsdp;

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
        QVERIFY(waitForPreview(dialog) || !dialog.isPreviewBusy());
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

    void aRefusedLayoutNamesTheFieldAndTheRule() {
        NewFromConfigDialog dialog(kLlama3);
        dialog.setDegrees(1, 2, 3, 1);
        QVERIFY(!dialog.document());
        QVERIFY(!okEnabled(dialog));
        const QString preview = dialog.previewText();
        QVERIFY2(preview.contains(QStringLiteral("num_attention_heads")) &&
                     preview.contains(QStringLiteral("tp=3")),
                 qPrintable(preview));
        dialog.setConfigPath(QStringLiteral(HSDP_SOURCE_DIR "/samples/teaching_2x2.json"));
        QVERIFY(!dialog.document());  // a scenario is no model config
        QVERIFY(!okEnabled(dialog));
    }

    void theScenarioOpensUnsaved() {
        MainWindow window;
        NewFromConfigDialog dialog(kLlama3);
        dialog.setDegrees(2, 2, 2, 1);
        QVERIFY(waitForPreview(dialog));
        QSignalSpy planned(window.session(), &Session::planReady);
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
};

QTEST_MAIN(TestNewFromConfig)
#include "tst_new_from_config.moc"
