// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QTimer>
#include <memory>

#include "scenario/json_text.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QSpinBox;

namespace hsdp {

class ScenarioPreview;

// File ▸ New from Model Config…: what `hsdp-inspect scenario --from-config`
// asks (a Hugging Face config.json, the torchtitan degrees, dtype, TP plan,
// name) with a live preview: the generated scenario's size and its plan's
// groups and diagnostics, planned off the GUI thread as the fields change.
// A config or layout the engine refuses shows its message (the field and the
// rule) and disables OK. document() is the scenario to open, unsaved.
class NewFromConfigDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewFromConfigDialog(const QString& configPath = {}, QWidget* parent = nullptr);
    ~NewFromConfigDialog() override;

    void setConfigPath(const QString& path);
    void setDegrees(int dpReplicate, int dpShard, int tp, int ep);
    std::shared_ptr<const Json> document() const { return document_; }
    QString previewText() const;  // what the preview says now
    bool isPreviewBusy() const;

signals:
    void previewReady();  // the preview text is final for the fields as they are

private:
    void browse();
    void regenerate();
    void showError(const QString& message);

    QLineEdit* config_;
    QSpinBox* dpReplicate_;
    QSpinBox* dpShard_;
    QSpinBox* tp_;
    QSpinBox* ep_;
    QComboBox* dtype_;
    QCheckBox* tpPlan_;
    QLineEdit* name_;
    ScenarioPreview* preview_;
    QDialogButtonBox* buttons_;
    QTimer debounce_;
    std::shared_ptr<const Json> document_;
};

}  // namespace hsdp
