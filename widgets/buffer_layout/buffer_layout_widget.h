// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>
#include <vector>

#include "buffer_layout/buffer_layout_canvas.h"
#include "derived/plan/plan_selection.h"
#include "derived/run/buffer_layout.h"
#include "derived/run/run_data.h"
#include "derived/run/run_index.h"
#include "view/studio_view.h"

class QComboBox;

namespace hsdp {

// The fused buffers of a run: for the selected collective (or the first
// gather of the selected batch / param) and a chosen member rank, the packed
// send buffer, the rank-major gathered buffer and how the selected param is
// cut out of it, or a broadcast's buffer (BufferLayoutCanvas); for an
// all_to_all_v (the all-to-all strategy) the rank's send and receive buffers,
// a block per peer. Segments are the trace's, as the engine recorded them
// (an alltoallv's receive side: the runner's geometry, exchange_layout.h).
class BufferLayoutWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit BufferLayoutWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showRun(const RunData& run) override { setRun(run); }
    QList<ViewShot> screenshots() const override;
    void paintPicture(QPaintDevice& target, const QSize& size, const QString& part) override;
    QSize fittedPictureSize(const QSize& size, const QString&) override;

    void setRun(const RunData& data);
    // Shows collective `index` of collectives() as seen by `rank` (tests, combos).
    void showCollective(int index, int rank);
    const std::vector<BufferCollective>& collectives() const { return index_->buffers; }
    BufferLayoutCanvas* canvas() const { return canvas_; }
    QComboBox* rankBox() const { return ranks_; }
    QImage renderImage(const QSize& size) const { return canvas_->renderImage(size); }

private:
    void onSelectionChanged();
    void fillCollectives();
    void fillRanks(int rank);
    int defaultRank(const BufferCollective& c) const;
    int groupPosition(int id) const;

    PlanSelection* selection_;
    RunData data_;
    std::shared_ptr<const RunIndex> index_ = indexRun({});  // of data_
    int current_ = -1;
    int rank_ = -1;
    BufferLayoutCanvas* canvas_;
    QComboBox* collectiveBox_;
    QComboBox* ranks_;
};

}  // namespace hsdp
