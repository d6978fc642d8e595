// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include "checkpoint/checkpoint.h"
#include "new_scenario/new_scenario_dialog.h"

class QLabel;

namespace hsdp {

// File ▸ New from Checkpoint…: what `hsdp-inspect scenario --from-checkpoint`
// asks (a safetensors file, an index or a folder; the torchtitan degrees;
// dtype, TP plan, name; for a job's per-rank files, whether to keep its saved
// sharding) with the live preview of New from Model Config: what was read,
// the scenario's size, its plan's groups and diagnostics, planned off the
// GUI thread as the fields change. The checkpoint's headers are read when the
// path changes (milliseconds, never the weights); a checkpoint or layout the
// engine refuses shows its message (file, tensor, rule) and disables OK.
// document() is the scenario to open, unsaved.
class NewFromCheckpointDialog : public NewScenarioDialog {
    Q_OBJECT
public:
    // How the placements are chosen.
    enum class Placing { Rules, SavedInferred, SavedOnMesh };

    explicit NewFromCheckpointDialog(const QString& path = {}, QWidget* parent = nullptr);

    void setCheckpointPath(const QString& path);
    void setDegrees(int dpReplicate, int dpShard, int tp);
    void setPlacing(Placing placing);
    void setTpTransitions(bool on);
    QString checkpointText() const;  // what the reader found (or why not)

private:
    void browseFile();
    void browseFolder();
    void readCheckpoint();
    void regenerate() override;

    QLineEdit* path_;
    QLabel* found_;
    QComboBox* placing_;
    QSpinBox* dpReplicate_;
    QSpinBox* dpShard_;
    QSpinBox* tp_;
    QComboBox* dtype_;
    QCheckBox* tpPlan_;
    QCheckBox* allMuon_;  // --all-muon
    QLineEdit* name_;
    std::optional<Checkpoint> checkpoint_;
    QString checkpointError_;
    QString readPath_;  // the path checkpoint_ was read from
};

// Whether a dropped path is a checkpoint: a .safetensors file, a
// *.safetensors.index.json, or a folder holding either (or sharded/).
bool looksLikeCheckpoint(const QString& path);

}  // namespace hsdp
