// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

#include "derived/run/run_session.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace hsdp {

// Run ▸ Run…: every RunRequest field, starting from `initial`: the mode,
// the timeout of each collective, the memory and Newton–Schulz budgets
// (larger runs shrink their shapes), and a fault to inject (rank R fails at
// its K-th collective; ranks limited to the world).
class RunDialog : public QDialog {
    Q_OBJECT
public:
    RunDialog(const RunRequest& initial, int worldSize, QWidget* parent = nullptr);

    RunRequest request() const;

private:
    QComboBox* mode_;
    QDoubleSpinBox* timeout_;   // seconds
    QDoubleSpinBox* maxBytes_;  // MiB
    QDoubleSpinBox* flops_;     // 1e9 flop
    QCheckBox* fault_;
    QSpinBox* faultRank_;
    QSpinBox* faultCollective_;
};

}  // namespace hsdp
