// SPDX-License-Identifier: Apache-2.0
#include "new_scenario/new_scenario_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "new_scenario/scenario_preview.h"

namespace hsdp {

NewScenarioDialog::NewScenarioDialog(QWidget* parent)
    : QDialog(parent),
      preview_(new ScenarioPreview(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    debounce_.setSingleShot(true);
    debounce_.setInterval(150);
    connect(&debounce_, &QTimer::timeout, this, [this] { regenerate(); });
    connect(preview_, &ScenarioPreview::ready, this, [this](bool planned) {
        if (!planned) document_.reset();
        buttons_->button(QDialogButtonBox::Ok)->setEnabled(document_ != nullptr);
        emit previewReady();
    });
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

NewScenarioDialog::~NewScenarioDialog() = default;

QString NewScenarioDialog::previewText() const {
    return preview_->text();
}

bool NewScenarioDialog::isPreviewBusy() const {
    return preview_->isBusy();
}

void NewScenarioDialog::setCluster(std::shared_ptr<const Cluster> cluster) {
    preview_->setCluster(std::move(cluster));
    regenerate();  // a preview already shown was made without it
}

void NewScenarioDialog::regenerateOnChange(QLineEdit* field) {
    connect(field, &QLineEdit::textChanged, this, [this] { debounce_.start(); });
}

void NewScenarioDialog::regenerateOnChange(QSpinBox* field) {
    connect(field, &QSpinBox::valueChanged, this, [this] { debounce_.start(); });
}

void NewScenarioDialog::regenerateOnChange(QComboBox* field) {
    connect(field, &QComboBox::currentIndexChanged, this, [this] { debounce_.start(); });
}

QCheckBox* NewScenarioDialog::allMuonBox(QWidget* parent) {
    auto* box = new QCheckBox(tr("Every parameter on Muon"), parent);
    box->setToolTip(
        tr("Unchecked: the embeddings, the output head, norms and 1-D parameters go to AdamW "
           "(\"optimizer\": \"adamw\"), as torchtitan, Moonlight and Megatron run Muon"));
    return box;
}

void NewScenarioDialog::regenerateOnChange(QCheckBox* field) {
    connect(field, &QCheckBox::toggled, this, [this] { debounce_.start(); });
}

void NewScenarioDialog::addPreviewRows(QFormLayout* form) {
    form->addRow(tr("Preview"), preview_);
    form->addRow(buttons_);
}

void NewScenarioDialog::beginRegenerate() {
    debounce_.stop();
    document_.reset();
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);
}

void NewScenarioDialog::showDocument(std::shared_ptr<const Json> document, const QString& notes) {
    document_ = std::move(document);
    preview_->plan(document_, notes);
}

void NewScenarioDialog::showError(const QString& message) {
    document_.reset();
    preview_->showError(message);
}

}  // namespace hsdp
