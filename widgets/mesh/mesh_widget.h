// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "mesh/mesh_canvas.h"
#include "view/studio_view.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QToolButton;

namespace hsdp {

// The mesh view with its controls: which mesh, which dim runs down the rows
// and which across the columns (the others become small multiples). The
// studio's central view; with a cluster chosen, "Nodes" outlines its nodes.
// Its pictures are the canvas alone, a report's "<mesh index>" part that
// mesh of the plan. A mesh drawn in blocks (MeshCanvas's overview) adds the
// block statistic to colour by and, under the controls, the breadcrumb of
// where the view is (its first step climbs back to the overview).
class MeshWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit MeshWidget(PlanSelection* selection, QWidget* parent = nullptr);

    void setResult(const PlanResult& result);
    MeshCanvas* canvas() const { return view_; }

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override { setResult(plan); }
    void showPrediction(const PlanResult& plan) override;
    // A run's or a job's faulty ranks, marked while the plan on screen is theirs.
    void showRun(const RunData& run) override;
    void showJob(const JobData& job) override;
    QList<ViewShot> screenshots() const override { return {ViewShot{{}, QSize(1400, 900), {}}}; }
    QImage picture(const QSize& size, const QString& part) override;
    void paintPicture(QPaintDevice& target, const QSize& size, const QString& part) override;
    QSize fittedPictureSize(const QSize& size, const QString& part) override;
    // As on screen: the canvas alone, at its zoom and pan.
    QSize shownPictureSize() override { return view_->size(); }
    void setDrawingAsShown(bool asShown) override { asShown_ = asShown; }

private:
    void fillMeshes();
    void fillDims();
    void applyDims();
    void updateNodesBox();
    void updateLevel();
    void fitControls();
    void applyFaults();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    MeshCanvas* view_;
    QComboBox* meshes_;
    QComboBox* rows_;
    QComboBox* columns_;
    QComboBox* statistic_;  // BlockStatistic, for meshes drawn in blocks
    QLabel* statisticLabel_;
    QToolButton* nodes_;  // checkable
    QLabel* breadcrumb_;
    PlanSelection* selection_;
    QHBoxLayout* controls_ = nullptr;   // the first row: the mesh's box, the buttons
    QHBoxLayout* secondRow_ = nullptr;  // the dims' row when the first has no room
    QWidget* dims_ = nullptr;           // the dims' and the statistic's boxes
    PlanResult result_;
    RunData run_;
    JobData job_;
    bool asShown_ = false;
};

}  // namespace hsdp
