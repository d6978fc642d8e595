// SPDX-License-Identifier: Apache-2.0
#include "window/run_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

namespace hsdp {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGigaFlop = 1e9;

QDoubleSpinBox* spin(double min, double max, int decimals, const QString& suffix, double value,
                     QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(min, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setValue(value);
    return box;
}

}  // namespace

RunDialog::RunDialog(const RunRequest& initial, int worldSize, QWidget* parent)
    : QDialog(parent),
      mode_(new QComboBox(this)),
      timeout_(spin(0.1, 3600, 1, tr(" s"), initial.timeout.count() / 1000.0, this)),
      maxBytes_(spin(1, 1024.0 * 1024, 0, tr(" MiB"), initial.maxBytes / kMiB, this)),
      flops_(spin(0.001, 1e9, 3, tr(" Gflop"), initial.flopBudget / kGigaFlop, this)),
      fault_(new QCheckBox(tr("Inject a fault"), this)),
      faultRank_(new QSpinBox(this)),
      faultCollective_(new QSpinBox(this)) {
    setWindowTitle(tr("Run the plan"));
    mode_->addItem(tr("corrected: the algorithms done right"),
                   QVariant::fromValue(int(RunMode::Corrected)));
    mode_->addItem(tr("reference: the reference algorithms as written"),
                   QVariant::fromValue(int(RunMode::Reference)));
    mode_->setCurrentIndex(initial.mode == RunMode::Reference ? 1 : 0);
    maxBytes_->setToolTip(
        tr("Memory budget of the whole run; larger runs divide every dim "
           "by one factor until they fit"));
    flops_->setToolTip(tr("Newton–Schulz work budget; larger runs shrink"));
    faultRank_->setRange(0, std::max(0, worldSize - 1));
    faultRank_->setPrefix(tr("rank "));
    faultCollective_->setRange(1, 1000000);
    faultCollective_->setPrefix(tr("at collective "));
    faultCollective_->setToolTip(tr("The rank's K-th collective (1-based) fails"));
    fault_->setChecked(initial.fault.has_value());
    if (initial.fault) {
        faultRank_->setValue(initial.fault->rank);
        faultCollective_->setValue(static_cast<int>(initial.fault->collective));
    }
    auto* faultRow = new QHBoxLayout;
    faultRow->addWidget(fault_);
    faultRow->addWidget(faultRank_);
    faultRow->addWidget(faultCollective_);
    auto enableFault = [this](bool on) {
        faultRank_->setEnabled(on);
        faultCollective_->setEnabled(on);
    };
    connect(fault_, &QCheckBox::toggled, this, enableFault);
    enableFault(fault_->isChecked());

    auto* form = new QFormLayout;
    form->addRow(tr("&Mode:"), mode_);
    form->addRow(tr("&Timeout per collective:"), timeout_);
    form->addRow(tr("Memory &budget:"), maxBytes_);
    form->addRow(tr("&Newton–Schulz budget:"), flops_);
    form->addRow(tr("Fault:"), faultRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

RunRequest RunDialog::request() const {
    RunRequest request;
    request.mode = static_cast<RunMode>(mode_->currentData().toInt());
    request.timeout = std::chrono::milliseconds(std::llround(timeout_->value() * 1000));
    request.maxBytes = static_cast<int64_t>(std::llround(maxBytes_->value() * kMiB));
    request.flopBudget = flops_->value() * kGigaFlop;
    if (fault_->isChecked())
        request.fault = FaultSpec{faultRank_->value(), faultCollective_->value()};
    return request;
}

}  // namespace hsdp
