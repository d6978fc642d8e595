// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "new_scenario/new_scenario_dialog.h"

namespace hsdp {

// File ▸ New from Model Config…: what `hsdp-inspect scenario --from-config`
// asks (a Hugging Face config.json, the torchtitan degrees, dtype, TP plan,
// name) with a live preview: the generated scenario's size and its plan's
// groups and diagnostics, planned off the GUI thread as the fields change.
// A config or layout the engine refuses shows its message (the field and the
// rule) and disables OK. document() is the scenario to open, unsaved.
class NewFromConfigDialog : public NewScenarioDialog {
    Q_OBJECT
public:
    explicit NewFromConfigDialog(const QString& configPath = {}, QWidget* parent = nullptr);

    void setConfigPath(const QString& path);
    void setDegrees(int dpReplicate, int dpShard, int tp, int ep);

private:
    void browse();
    void regenerate() override;

    QLineEdit* config_;
    QSpinBox* dpReplicate_;
    QSpinBox* dpShard_;
    QSpinBox* tp_;
    QSpinBox* ep_;
    QComboBox* dtype_;
    QCheckBox* tpPlan_;
    QCheckBox* allMuon_;  // --all-muon
    QLineEdit* name_;
};

}  // namespace hsdp
