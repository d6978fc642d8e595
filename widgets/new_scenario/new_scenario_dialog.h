// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QTimer>
#include <memory>

#include "scenario/json_text.h"

namespace hsdp {
struct Cluster;
}

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace hsdp {

class ScenarioPreview;

// What New from Model Config and New from Checkpoint share: the scenario
// they generate from their fields, its live preview, OK enabled only while
// the preview shows that scenario's plan, and a short debounce so that typing
// regenerates once the fields stop changing. A dialog builds its fields,
// watches them (regenerateOnChange), adds the preview and buttons
// (addPreviewRows) and implements regenerate().
class NewScenarioDialog : public QDialog {
    Q_OBJECT
public:
    std::shared_ptr<const Json> document() const { return document_; }
    QString previewText() const;  // what the preview says now
    bool isPreviewBusy() const;
    // The preview costs its plans on `cluster` too (the studio's), so a plan
    // that will not fit says so before it is opened.
    void setCluster(std::shared_ptr<const Cluster> cluster);

signals:
    void previewReady();  // the preview text is final for the fields as they are

protected:
    explicit NewScenarioDialog(QWidget* parent);
    ~NewScenarioDialog() override;

    // Builds the scenario from the fields: starts with beginRegenerate(),
    // ends with showDocument() or showError().
    virtual void regenerate() = 0;

    void regenerateOnChange(QLineEdit* field);
    void regenerateOnChange(QSpinBox* field);
    void regenerateOnChange(QComboBox* field);
    void regenerateOnChange(QCheckBox* field);
    // The "Every parameter on Muon" box both dialogs show (the CLI's --all-muon).
    static QCheckBox* allMuonBox(QWidget* parent);
    void addPreviewRows(QFormLayout* form);

    void beginRegenerate();  // no document, OK disabled, no pending debounce
    // `document` is the dialog's; its plan is previewed, `notes` (HTML) below.
    void showDocument(std::shared_ptr<const Json> document, const QString& notes = {});
    void showError(const QString& message);

private:
    ScenarioPreview* preview_;
    QDialogButtonBox* buttons_;
    QTimer debounce_;
    std::shared_ptr<const Json> document_;
};

}  // namespace hsdp
