#pragma once

#include <QWidget>

#include "mesh/mesh_canvas.h"

class QComboBox;

namespace hsdp {

// The mesh view with its controls: which mesh, which dim runs down the rows
// and which across the columns (the others become small multiples).
class MeshWidget : public QWidget {
    Q_OBJECT
public:
    explicit MeshWidget(PlanSelection* selection, QWidget* parent = nullptr);

    void setResult(const PlanResult& result);
    MeshCanvas* view() const { return view_; }

private:
    void fillMeshes();
    void fillDims();
    void applyDims();

    MeshCanvas* view_;
    QComboBox* meshes_;
    QComboBox* rows_;
    QComboBox* columns_;
    PlanResult result_;
};

}  // namespace hsdp
