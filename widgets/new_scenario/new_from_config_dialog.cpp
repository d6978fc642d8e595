// SPDX-License-Identifier: Apache-2.0
#include "new_scenario/new_from_config_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include "hf_config/model_config_error.h"
#include "hf_config/scenario_from_config.h"
#include "new_scenario/scenario_preview.h"

namespace hsdp {

NewFromConfigDialog::NewFromConfigDialog(const QString& configPath, QWidget* parent)
    : NewScenarioDialog(parent),
      config_(new QLineEdit(configPath, this)),
      dpReplicate_(layoutDegreeBox(this, 1)),
      dpShard_(layoutDegreeBox(this, 2)),
      tp_(layoutDegreeBox(this, 1)),
      ep_(layoutDegreeBox(this, 1)),
      dtype_(new QComboBox(this)),
      tpPlan_(new QCheckBox(tr("TP transitions of one block (torchtitan's plan)"), this)),
      allMuon_(allMuonBox(this)),
      name_(new QLineEdit(this)) {
    setWindowTitle(tr("New scenario from a model config"));
    setMinimumWidth(640);
    dtype_->addItems({QStringLiteral("bf16"), QStringLiteral("f32"), QStringLiteral("f16"),
                      QStringLiteral("f64")});
    name_->setPlaceholderText(tr("derived from the model and the layout"));
    auto* browse = new QToolButton(this);
    browse->setText(tr("Browse…"));
    auto* configRow = new QHBoxLayout;
    configRow->addWidget(config_, 1);
    configRow->addWidget(browse);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Config (Hugging Face config.json)"), configRow);
    form->addRow(tr("dp_replicate (HSDP replicas)"), dpReplicate_);
    form->addRow(tr("dp_shard (FSDP degree)"), dpShard_);
    form->addRow(tr("tp (tensor parallel)"), tp_);
    form->addRow(tr("ep (expert parallel, from dp_shard)"), ep_);
    form->addRow(tr("dtype"), dtype_);
    form->addRow(QString(), tpPlan_);
    form->addRow(QString(), allMuon_);
    form->addRow(tr("Name"), name_);
    addPreviewRows(form);
    regenerateOnChange(config_);
    regenerateOnChange(name_);
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_, ep_}) regenerateOnChange(box);
    regenerateOnChange(dtype_);
    regenerateOnChange(tpPlan_);
    regenerateOnChange(allMuon_);
    connect(browse, &QToolButton::clicked, this, &NewFromConfigDialog::browse);
    regenerate();
}

void NewFromConfigDialog::setConfigPath(const QString& path) {
    config_->setText(path);
    regenerate();
}

void NewFromConfigDialog::setDegrees(int dpReplicate, int dpShard, int tp, int ep) {
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_, ep_}) box->blockSignals(true);
    dpReplicate_->setValue(dpReplicate);
    dpShard_->setValue(dpShard);
    tp_->setValue(tp);
    ep_->setValue(ep);
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_, ep_}) box->blockSignals(false);
    regenerate();
}

void NewFromConfigDialog::browse() {
    QString path = QFileDialog::getOpenFileName(this, tr("Model config"), config_->text(),
                                                tr("Model configs (*.json);;All files (*)"));
    if (!path.isEmpty()) config_->setText(path);
}

// The scenario from the fields, as the CLI builds it (quick: no planning);
// then its plan, off the GUI thread.
void NewFromConfigDialog::regenerate() {
    beginRegenerate();
    if (config_->text().isEmpty()) return showError(tr("Choose a model's config.json."));
    ConfigScenarioRequest request;
    std::shared_ptr<const Json> document;
    try {
        const std::string path = QFile::encodeName(config_->text()).toStdString();
        request.config = readModelConfigFile(path);
        request.configSource = path;
        request.layout = {dpReplicate_->value(), dpShard_->value(), tp_->value(), ep_->value()};
        checkLayout(request.layout, request.config, path, std::nullopt);
        request.dtype = *parseDType(dtype_->currentText().toStdString());
        request.tpTransitions = tpPlan_->isChecked();
        request.allMuon = allMuon_->isChecked();
        request.name = name_->text().toStdString();
        document = std::make_shared<const Json>(scenarioFromModelConfig(request));
    } catch (const std::exception& error) {
        return showError(QString::fromStdString(error.what()));
    }
    showDocument(std::move(document));
}

}  // namespace hsdp
