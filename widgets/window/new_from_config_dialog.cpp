// SPDX-License-Identifier: Apache-2.0
#include "window/new_from_config_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>

#include "hf_config/model_config_error.h"
#include "hf_config/scenario_from_config.h"
#include "runs/run_status_text.h"
#include "shared/plan_index.h"
#include "shared/plan_result.h"

namespace hsdp {

namespace {

QSpinBox* degreeBox(QWidget* parent, int value) {
    auto* box = new QSpinBox(parent);
    box->setRange(1, 65536);
    box->setValue(value);
    return box;
}

}  // namespace

QString NewFromConfigDialog::planSummary(const PlanResult& result) {
    int64_t numel = 0;
    for (const ParamSpec& p : result.scenario->params) numel += p.numel();
    return QObject::tr(
               "<b>%1</b><br>%2 parameters, %3 elements · world %4 · %5 groups, %6 "
               "batches<br>%7 errors, %8 warnings")
        .arg(QString::fromStdString(result.scenario->name).toHtmlEscaped())
        .arg(result.scenario->params.size())
        .arg(groupedNumber(numel))
        .arg(result.plan->worldSize)
        .arg(result.plan->groups.size())
        .arg(result.plan->schedule.size())
        .arg(result.index->errorCount)
        .arg(result.index->warningCount);
}

NewFromConfigDialog::NewFromConfigDialog(const QString& configPath, QWidget* parent)
    : QDialog(parent),
      config_(new QLineEdit(configPath, this)),
      dpReplicate_(degreeBox(this, 1)),
      dpShard_(degreeBox(this, 2)),
      tp_(degreeBox(this, 1)),
      ep_(degreeBox(this, 1)),
      dtype_(new QComboBox(this)),
      tpPlan_(new QCheckBox(tr("TP transitions of one block (torchtitan's plan)"), this)),
      name_(new QLineEdit(this)),
      preview_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("New scenario from a model config"));
    setMinimumWidth(640);
    pool_.setMaxThreadCount(1);
    dtype_->addItems({QStringLiteral("bf16"), QStringLiteral("f32"), QStringLiteral("f16"),
                      QStringLiteral("f64")});
    name_->setPlaceholderText(tr("derived from the model and the layout"));
    preview_->setWordWrap(true);
    preview_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    preview_->setMinimumHeight(72);
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
    form->addRow(tr("Name"), name_);
    form->addRow(tr("Preview"), preview_);
    form->addRow(buttons_);
    debounce_.setSingleShot(true);
    debounce_.setInterval(150);
    connect(&debounce_, &QTimer::timeout, this, &NewFromConfigDialog::regenerate);
    auto changed = [this] { debounce_.start(); };
    connect(config_, &QLineEdit::textChanged, this, changed);
    connect(name_, &QLineEdit::textChanged, this, changed);
    for (QSpinBox* box : {dpReplicate_, dpShard_, tp_, ep_})
        connect(box, &QSpinBox::valueChanged, this, changed);
    connect(dtype_, &QComboBox::currentIndexChanged, this, changed);
    connect(tpPlan_, &QCheckBox::toggled, this, changed);
    connect(browse, &QToolButton::clicked, this, &NewFromConfigDialog::browse);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    regenerate();
}

NewFromConfigDialog::~NewFromConfigDialog() {
    pool_.waitForDone();
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

QString NewFromConfigDialog::previewText() const {
    return preview_->text();
}

void NewFromConfigDialog::browse() {
    QString path = QFileDialog::getOpenFileName(this, tr("Model config"), config_->text(),
                                                tr("Model configs (*.json);;All files (*)"));
    if (!path.isEmpty()) config_->setText(path);
}

// The scenario from the fields, as the CLI builds it (quick: no planning);
// then its plan, off the GUI thread.
void NewFromConfigDialog::regenerate() {
    debounce_.stop();
    ++generation_;
    document_.reset();
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);
    if (config_->text().isEmpty()) return showError(tr("Choose a model's config.json."));
    ConfigScenarioRequest request;
    try {
        const std::string path = QFile::encodeName(config_->text()).toStdString();
        request.config = readModelConfigFile(path);
        request.configSource = path;
        request.layout = {dpReplicate_->value(), dpShard_->value(), tp_->value(), ep_->value()};
        checkLayout(request.layout, request.config, path, std::nullopt);
        request.dtype = *parseDType(dtype_->currentText().toStdString());
        request.tpTransitions = tpPlan_->isChecked();
        request.name = name_->text().toStdString();
        document_ = std::make_shared<const Json>(scenarioFromModelConfig(request));
    } catch (const std::exception& error) {
        return showError(QString::fromStdString(error.what()));
    }
    preview_->setText(tr("planning…"));
    auto document = document_;
    jobs_.startJob(
        pool_,
        [document]() -> QString {
            try {
                return planSummary(computePlanResult(document, QString()));
            } catch (const std::exception& error) {
                return QStringLiteral("!") + QString::fromStdString(error.what());
            }
        },
        [this, generation = generation_](const QString& summary) {
            if (generation != generation_) return;
            if (summary.startsWith(QLatin1Char('!')))
                showError(summary.mid(1));
            else
                showPlan(summary);
        });
}

void NewFromConfigDialog::showPlan(const QString& summary) {
    preview_->setStyleSheet(QString());
    preview_->setText(summary);
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(document_ != nullptr);
    emit previewReady();
}

void NewFromConfigDialog::showError(const QString& message) {
    document_.reset();
    preview_->setStyleSheet(QStringLiteral("color: #b00020"));
    preview_->setText(message.toHtmlEscaped());
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);
    emit previewReady();
}

}  // namespace hsdp
