// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QScrollArea>
#include <QThreadPool>
#include <memory>

#include "derived/plan/job_tracker.h"
#include "scenario/json_text.h"

class QLabel;
class QSpinBox;

namespace hsdp {

struct Cluster;
struct PlanResult;

// The live preview of the New from Model Config and New from Checkpoint
// dialogs: a generated scenario's size and its plan's groups and
// diagnostics (with the prediction's on the studio's cluster, so an
// out-of-memory plan counts as it will once opened), planned off the GUI thread (a newer document
// drops an older one's plan), or why there is no scenario. Notes below the summary scroll rather
// than overflow the dialog.
class ScenarioPreview : public QScrollArea {
    Q_OBJECT
public:
    explicit ScenarioPreview(QWidget* parent = nullptr);
    ~ScenarioPreview() override;

    // Plans from now on are also costed on `cluster` (null: none).
    void setCluster(std::shared_ptr<const Cluster> cluster) { cluster_ = std::move(cluster); }
    // Shows "planning…", then the plan's summary followed by `notes` (HTML).
    void plan(std::shared_ptr<const Json> document, const QString& notes = {});
    // Shows `message` (plain text) in red; a plan under way is dropped.
    void showError(const QString& message);
    QString text() const;
    bool isBusy() const { return jobs_.isJobRunning(); }

    // "<b>name</b><br>N parameters, M elements · world W · G groups, B
    // batches<br>E errors, W warnings": the summary of a scenario's plan,
    // counting its prediction's diagnostics, then the prediction's status line.
    static QString planSummary(const PlanResult& result);

signals:
    // The preview is final for the document it was given: `planned` when it
    // shows a plan, false when it shows an error.
    void ready(bool planned);

private:
    QLabel* label_;
    std::shared_ptr<const Cluster> cluster_;
    QThreadPool pool_;
    JobTracker jobs_{this};
    quint64 generation_ = 0;  // a plan of an older document is dropped
};

// A spin box for one degree of a parallel layout (1 … 65,536).
QSpinBox* layoutDegreeBox(QWidget* parent, int value);

}  // namespace hsdp
