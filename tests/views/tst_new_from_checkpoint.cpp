// SPDX-License-Identifier: Apache-2.0
// File ▸ New from Checkpoint… and a checkpoint dropped on the window,
// offscreen: the dialog reads the headers (what it read is said), its
// preview plans the scenario as the degrees change, its document equals
// what `hsdp-inspect scenario --from-checkpoint` writes for the same
// options, a refused checkpoint or layout names the file, tensor or rule and
// disables OK, a job's per-rank files give the saved placements on the
// inferred mesh, and the menu and a drop open the dialog on the window.
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDropEvent>
#include <QFile>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "checkpoint_recipes.h"
#include "cli_process.h"
#include "derived/plan/scenario_document.h"
#include "export/scenario_json_text.h"
#include "new_scenario/new_from_checkpoint_dialog.h"
#include "window/main_window.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

bool waitForPreview(NewFromCheckpointDialog& dialog) {
    QSignalSpy ready(&dialog, &NewFromCheckpointDialog::previewReady);
    return ready.wait(30000);
}

bool okEnabled(const NewFromCheckpointDialog& dialog) {
    return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled();
}

void writeText(const QString& path, const char* text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

// FSDP over 4 ranks, saved per rank: a [8, 4] weight's rows, a norm's elements.
void writeSavedJob(const QString& dir) {
    for (int r = 0; r < 4; ++r)
        writeSafetensors(
            QDir(dir)
                .filePath(QString::asprintf("shard-%05d-model-00001-of-00001.safetensors", r + 1))
                .toStdString(),
            {{"model.layers.0.mlp.up_proj.weight", "BF16", {2, 4}, {2 * r, 0}},
             {"model.norm.weight", "BF16", {1}, {r}}},
            false);
}

// When the next New from Checkpoint dialog is up and its preview final:
// note its path, then OK (accept) or Cancel.
void answerDialog(bool accept, QString* shownPath) {
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, accept, shownPath] {
        auto* dialog = qobject_cast<NewFromCheckpointDialog*>(QApplication::activeModalWidget());
        if (!dialog || dialog->isPreviewBusy()) return;
        if (accept && !dialog->document()) return;
        *shownPath = dialog->findChild<QLineEdit*>()->text();
        poll->deleteLater();
        accept ? dialog->accept() : dialog->reject();
    });
    poll->start(50);
}

}  // namespace

class TestNewFromCheckpoint : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(gemma_.isValid());
        writeShardedCheckpoint(gemma_.path(), gemma2_2bTensors(), 2);
        writeText(gemma_.filePath("config.json"), kGemma2_2bConfig);
    }

    void previewPlansTheCheckpoint() {
        NewFromCheckpointDialog dialog(gemma_.path());
        QVERIFY(waitForPreview(dialog));
        QVERIFY2(dialog.checkpointText().contains("2 safetensors files · 288 tensors · "
                                                  "2,614,341,888 elements"),
                 qPrintable(dialog.checkpointText()));
        QVERIFY2(dialog.checkpointText().contains("no weights"),
                 qPrintable(dialog.checkpointText()));
        QVERIFY2(
            dialog.previewText().contains("world 2 ") && dialog.previewText().contains("0 errors"),
            qPrintable(dialog.previewText()));
        QVERIFY(okEnabled(dialog));
        dialog.setDegrees(1, 2, 2);
        dialog.setTpTransitions(true);
        QVERIFY(waitForPreview(dialog));
        const QString preview = dialog.previewText();
        QVERIFY2(preview.contains("2,614,341,888 elements") && preview.contains("world 4"),
                 qPrintable(preview));
        QVERIFY2(preview.contains("note: ") && preview.contains("gemma2"), qPrintable(preview));
        QVERIFY(dialog.document());
        // The CLI writes the same document for the same options.
        auto cli = inspect({"scenario", "--from-checkpoint", gemma_.path(), "--mesh",
                            "dp_shard=2,tp=2", "--tp-plan", "torchtitan", "-o", "-"});
        QCOMPARE(cli.exitCode, 0);
        QCOMPARE(QByteArray::fromStdString(scenarioJsonText(*dialog.document())), cli.out);
    }

    void refusalsNameTheCulprit() {
        QTemporaryDir phi3;
        writeShardedCheckpoint(phi3.path(), phi3MiniTensors(), 2);
        NewFromCheckpointDialog dialog(phi3.path());
        QVERIFY(waitForPreview(dialog));
        QVERIFY(okEnabled(dialog));
        dialog.setDegrees(1, 2, 2);
        QVERIFY(!dialog.document());
        QVERIFY(!okEnabled(dialog));
        QVERIFY2(dialog.previewText().contains("self_attn.qkv_proj.weight"),
                 qPrintable(dialog.previewText()));
        // A malformed header: the file and the tensor, where the reader says what it read.
        QTemporaryDir bad;
        const QString file = bad.filePath("model.safetensors");
        std::string bytes = safetensorsBytes(
            safetensorsHeaderJson({{"a", "F32", {2}, {}}, {"b", "F32", {2}, {}}}), 16);
        bytes.replace(bytes.find("[8,16]"), 6, "[4,12]");
        writeBytes(file.toStdString(), bytes);
        dialog.setCheckpointPath(file);
        QVERIFY(!okEnabled(dialog));
        QVERIFY2(
            dialog.checkpointText().contains("model.safetensors: tensor b: data_offsets [4, 12) "
                                             "overlap"),
            qPrintable(dialog.checkpointText()));
        dialog.setCheckpointPath(QString());
        QVERIFY(!okEnabled(dialog));
    }

    void aJobsSavedShardingOnTheInferredMesh() {
        QTemporaryDir job;
        writeSavedJob(job.path());
        NewFromCheckpointDialog dialog(job.path());
        QVERIFY(waitForPreview(dialog));
        QVERIFY2(dialog.checkpointText().contains("saved per rank by 4 ranks"),
                 qPrintable(dialog.checkpointText()));
        auto* placing = dialog.findChildren<QComboBox*>().at(0);
        QVERIFY(placing->isEnabled());
        QCOMPARE(placing->currentData().toInt(),
                 int(NewFromCheckpointDialog::Placing::SavedInferred));
        auto spins = dialog.findChildren<QSpinBox*>();
        QCOMPARE(spins.at(1)->value(), 4);  // dp_shard, inferred from the pieces
        QVERIFY(!spins.at(1)->isEnabled());
        QVERIFY2(dialog.previewText().contains("world 4"), qPrintable(dialog.previewText()));
        const std::string text = scenarioJsonText(*dialog.document());
        QVERIFY(text.find("\"placements\": [\"Shard(0)\"]") != std::string::npos);
        // Afresh on other degrees.
        dialog.setPlacing(NewFromCheckpointDialog::Placing::Rules);
        dialog.setDegrees(2, 1, 1);
        QVERIFY(waitForPreview(dialog));
        QVERIFY2(dialog.previewText().contains("world 2"), qPrintable(dialog.previewText()));
    }

    void theMenuAndADropOpenTheDialog() {
        MainWindow window;
        const QList<QAction*> actions = window.menuBar()->actions().front()->menu()->actions();
        const auto indexOf = [&](const char* text) {
            for (int i = 0; i < actions.size(); ++i)
                if (actions[i]->text().remove('&').startsWith(text)) return i;
            return -1;
        };
        const int config = indexOf("New from Model Config");
        const int checkpoint = indexOf("New from Checkpoint");
        QVERIFY(config >= 0);
        QCOMPARE(checkpoint, config + 1);  // beside New from Model Config
        QAction* action = actions[checkpoint];
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
        QVERIFY(looksLikeCheckpoint(gemma_.path()));
        QVERIFY(looksLikeCheckpoint(gemma_.filePath("model.safetensors.index.json")));
        QVERIFY(looksLikeCheckpoint(gemma_.filePath("model-00001-of-00002.safetensors")));
        QVERIFY(!looksLikeCheckpoint(gemma_.filePath("config.json")));
        QVERIFY(!looksLikeCheckpoint(QStringLiteral(HSDP_SOURCE_DIR "/samples")));

        // The menu opens the dialog empty; Cancel leaves the window as it was.
        QString shownPath = QStringLiteral("(not shown)");
        answerDialog(false, &shownPath);
        action->trigger();
        QCOMPARE(shownPath, QString());
        QVERIFY(!window.document()->isModified());

        // A dropped index, then a dropped folder, opens the dialog on it; OK
        // opens the scenario unsaved.
        for (const QString& dropped :
             {gemma_.filePath("model.safetensors.index.json"), gemma_.path()}) {
            shownPath.clear();
            answerDialog(true, &shownPath);
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(dropped)});
            // As a drag does: the window takes it on entering, then the drop.
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                                  Qt::NoModifier);
            QApplication::sendEvent(&window, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QSignalSpy planned(&window, &MainWindow::planShown);
            QApplication::sendEvent(&window, &drop);
            QVERIFY(drop.isAccepted());
            QVERIFY(planned.wait(60000));
            QCOMPARE(shownPath, dropped);
            QVERIFY(window.document()->isModified());
            QVERIFY(window.windowTitle().contains(QStringLiteral("untitled")));
            window.document()->markSaved();  // the next drop need not ask to keep it
        }
    }

private:
    QTemporaryDir gemma_;
};

QTEST_MAIN(TestNewFromCheckpoint)
#include "tst_new_from_checkpoint.moc"
