// SPDX-License-Identifier: Apache-2.0
#include "new_scenario/new_from_checkpoint_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/scenario_from_checkpoint.h"
#include "derived/run/run_status_text.h"
#include "hf_config/model_config_error.h"
#include "new_scenario/scenario_preview.h"

namespace hsdp {

namespace {

// "2 files · 195 tensors · 3,821,079,552 elements, 7,642,159,104 bytes ·
// 24,456 header bytes read"
QString checkpointSummary(const Checkpoint& c) {
    QString text = QObject::tr(
                       "%1 safetensors files · %2 tensors · %3 elements, %4 bytes · "
                       "%5 header bytes read, no weights")
                       .arg(c.files.size())
                       .arg(c.tensors.size())
                       .arg(groupedNumber(c.numel()))
                       .arg(groupedNumber(qint64(c.tensorBytes())))
                       .arg(groupedNumber(qint64(c.headerBytes())));
    if (c.savedSharding)
        text += QObject::tr("<br>saved per rank by %1 ranks (DCP_SHARDING_INFO)").arg(c.writers);
    if (!c.configPath.empty())
        text +=
            QObject::tr("<br>config: %1").arg(QString::fromStdString(c.configPath).toHtmlEscaped());
    return text;
}

}  // namespace

bool looksLikeCheckpoint(const QString& path) {
    const QFileInfo info(path);
    if (info.isFile())
        return path.endsWith(QLatin1String(".safetensors")) ||
               path.endsWith(QLatin1String(".safetensors.index.json"));
    if (!info.isDir()) return false;
    const QDir dir(path);
    return !dir.entryList({"*.safetensors", "*.safetensors.index.json"}, QDir::Files).isEmpty() ||
           !QDir(dir.filePath("sharded")).entryList({"*.safetensors"}, QDir::Files).isEmpty();
}

NewFromCheckpointDialog::NewFromCheckpointDialog(const QString& path, QWidget* parent)
    : NewScenarioDialog(parent),
      path_(new QLineEdit(path, this)),
      found_(new QLabel(this)),
      placing_(new QComboBox(this)),
      dpReplicate_(layoutDegreeBox(this, 1)),
      dpShard_(layoutDegreeBox(this, 2)),
      tp_(layoutDegreeBox(this, 1)),
      dtype_(new QComboBox(this)),
      tpPlan_(new QCheckBox(tr("TP transitions of one block (torchtitan's plan)"), this)),
      name_(new QLineEdit(this)) {
    setWindowTitle(tr("New scenario from a checkpoint"));
    setMinimumWidth(680);
    placing_->addItem(tr("FSDP2 + TP rules on the degrees below"), int(Placing::Rules));
    placing_->addItem(tr("as the job saved them, its mesh inferred"), int(Placing::SavedInferred));
    placing_->addItem(tr("as the job saved them, on the degrees below"), int(Placing::SavedOnMesh));
    placing_->setToolTip(
        tr("A checkpoint saved per rank (PyTorch's DCP_SHARDING_INFO) says how "
           "the job that wrote it placed each tensor"));
    dtype_->addItems({tr("as saved"), QStringLiteral("bf16"), QStringLiteral("f32"),
                      QStringLiteral("f16"), QStringLiteral("f64")});
    name_->setPlaceholderText(tr("derived from the model and the layout"));
    found_->setWordWrap(true);
    found_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* file = new QToolButton(this);
    file->setText(tr("File…"));
    auto* folder = new QToolButton(this);
    folder->setText(tr("Folder…"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(file);
    pathRow->addWidget(folder);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Checkpoint (.safetensors, index or folder)"), pathRow);
    form->addRow(tr("Read"), found_);
    form->addRow(tr("Placements"), placing_);
    form->addRow(tr("dp_replicate (HSDP replicas)"), dpReplicate_);
    form->addRow(tr("dp_shard (FSDP degree)"), dpShard_);
    form->addRow(tr("tp (tensor parallel)"), tp_);
    form->addRow(tr("dtype"), dtype_);
    form->addRow(QString(), tpPlan_);
    form->addRow(tr("Name"), name_);
    addPreviewRows(form);
    regenerateOnChange(path_);
    regenerateOnChange(name_);
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_}) regenerateOnChange(box);
    for (QComboBox* box : {placing_, dtype_}) regenerateOnChange(box);
    regenerateOnChange(tpPlan_);
    connect(file, &QToolButton::clicked, this, &NewFromCheckpointDialog::browseFile);
    connect(folder, &QToolButton::clicked, this, &NewFromCheckpointDialog::browseFolder);
    regenerate();
}

void NewFromCheckpointDialog::setCheckpointPath(const QString& path) {
    path_->setText(path);
    regenerate();
}

void NewFromCheckpointDialog::setDegrees(int dpReplicate, int dpShard, int tp) {
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_}) box->blockSignals(true);
    dpReplicate_->setValue(dpReplicate);
    dpShard_->setValue(dpShard);
    tp_->setValue(tp);
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_}) box->blockSignals(false);
    regenerate();
}

void NewFromCheckpointDialog::setPlacing(Placing placing) {
    placing_->setCurrentIndex(placing_->findData(int(placing)));
    regenerate();
}

void NewFromCheckpointDialog::setTpTransitions(bool on) {
    tpPlan_->setChecked(on);
    regenerate();
}

QString NewFromCheckpointDialog::checkpointText() const {
    return found_->text();
}

void NewFromCheckpointDialog::browseFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Checkpoint"), path_->text(),
        tr("Safetensors checkpoints (*.safetensors *.safetensors.index.json);;All files (*)"));
    if (!path.isEmpty()) path_->setText(path);
}

void NewFromCheckpointDialog::browseFolder() {
    const QString path =
        QFileDialog::getExistingDirectory(this, tr("Checkpoint folder"), path_->text());
    if (!path.isEmpty()) path_->setText(path);
}

// The headers, read again only when the path changes. A job's per-rank
// files switch the placements to "as saved", the mesh inferred.
void NewFromCheckpointDialog::readCheckpoint() {
    if (path_->text() == readPath_) return;
    readPath_ = path_->text();
    checkpoint_.reset();
    checkpointError_.clear();
    try {
        checkpoint_ = hsdp::readCheckpoint(QFile::encodeName(readPath_).toStdString());
    } catch (const std::exception& error) {
        checkpointError_ = QString::fromStdString(error.what());
    }
    const bool saved = checkpoint_ && checkpoint_->savedSharding;
    placing_->blockSignals(true);
    placing_->setEnabled(saved);
    placing_->setCurrentIndex(
        placing_->findData(int(saved ? Placing::SavedInferred : Placing::Rules)));
    placing_->blockSignals(false);
    found_->setStyleSheet(checkpoint_ ? QString() : QStringLiteral("color: #b00020"));
    found_->setText(checkpoint_ ? checkpointSummary(*checkpoint_)
                                : checkpointError_.toHtmlEscaped());
}

// The scenario from the fields, as the CLI builds it (quick: no planning);
// then its plan, off the GUI thread.
void NewFromCheckpointDialog::regenerate() {
    beginRegenerate();
    if (path_->text().isEmpty()) {
        found_->clear();
        readPath_.clear();
        return showError(
            tr("Choose a .safetensors file, a model.safetensors.index.json or a "
               "checkpoint folder."));
    }
    readCheckpoint();
    if (!checkpoint_) return showError(tr("The checkpoint cannot be read (above)."));
    const auto placing = Placing(placing_->currentData().toInt());
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_})
        box->setEnabled(placing != Placing::SavedInferred);
    CheckpointScenarioRequest request;
    if (placing != Placing::SavedInferred)
        request.layout = ParallelLayout{dpReplicate_->value(), dpShard_->value(), tp_->value(), 1};
    request.ignoreSavedSharding = placing == Placing::Rules;
    if (dtype_->currentIndex() > 0) request.dtype = parseDType(dtype_->currentText().toStdString());
    request.tpTransitions = tpPlan_->isChecked();
    request.name = name_->text().toStdString();
    QString notes;
    std::shared_ptr<const Json> document;
    try {
        CheckpointScenario result = scenarioFromCheckpoint(*checkpoint_, request);
        if (placing == Placing::SavedInferred)  // show the mesh the pieces gave
            for (auto [box, degree] :
                 {std::pair{dpReplicate_, result.layout.dpReplicate},
                  std::pair{dpShard_, result.layout.dpShard}, std::pair{tp_, result.layout.tp}}) {
                box->blockSignals(true);
                box->setValue(int(degree));
                box->blockSignals(false);
            }
        for (const std::string& note : result.notes)
            notes += QStringLiteral("<br><span style=\"color: #666\">note: %1</span>")
                         .arg(QString::fromStdString(note).toHtmlEscaped());
        document = std::make_shared<const Json>(std::move(result.document));
    } catch (const std::exception& error) {
        return showError(QString::fromStdString(error.what()));
    }
    showDocument(std::move(document), notes);
}

}  // namespace hsdp
