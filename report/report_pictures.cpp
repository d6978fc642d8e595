#include "report/report_pictures.h"

#include <qcustomplot.h>
#include <QPainter>

#include "buffer_layout/buffer_layout_widget.h"
#include "mesh/mesh_canvas.h"
#include "owner_balance/owner_balance_widget.h"
#include "shared/plan_index.h"
#include "shared/plan_selection.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "wrong_rows/wrong_rows_widget.h"

namespace hsdp {

ReportPictures::ReportPictures(PlanResult plan, RunData run, RunData comparison)
    : plan_(std::move(plan)),
      run_(std::move(run)),
      comparison_(std::move(comparison)),
      selection_(std::make_unique<PlanSelection>()) {}

ReportPictures::~ReportPictures() = default;

QPicture ReportPictures::record(const ReportPicture& picture, const QSize& size) {
    QPicture recording;
    makeView(picture.kind);
    select(picture);
    if (picture.kind == PictureKind::CoordBalance || picture.kind == PictureKind::RankBalance ||
        picture.kind == PictureKind::ShardBalance)
        paintChart(picture, recording, size);
    else
        paint(picture, recording, size);
    return recording;
}

QImage ReportPictures::image(const ReportPicture& picture, const QSize& size, qreal scale) {
    const QPicture recording = record(picture, size);
    QImage image((QSizeF(size) * scale).toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    painter.drawPicture(0, 0, recording);
    return image;
}

// The view a picture needs, made once with the plan or the run it shows.
void ReportPictures::makeView(PictureKind kind) {
    switch (kind) {
        case PictureKind::Mesh:
            if (mesh_) return;
            mesh_ = std::make_unique<MeshCanvas>(selection_.get());
            mesh_->setResult(plan_);
            return;
        case PictureKind::CoordBalance:
        case PictureKind::RankBalance:
        case PictureKind::ShardBalance:
            if (balance_) return;
            balance_ = std::make_unique<OwnerBalanceWidget>(selection_.get());
            balance_->setResult(plan_);
            return;
        case PictureKind::BufferLayout:
            if (buffers_) return;
            buffers_ = std::make_unique<BufferLayoutWidget>(selection_.get());
            buffers_->setRun(run_);
            return;
        case PictureKind::TensorLayout:
            if (tensors_) return;
            tensors_ = std::make_unique<TensorLayoutWidget>(selection_.get());
            tensors_->setResult(plan_);
            return;
        case PictureKind::WrongRowOverlay:
            if (wrongRows_) return;
            wrongRows_ = std::make_unique<WrongRowsWidget>(selection_.get());
            wrongRows_->setRuns(comparison_, run_);
            return;
    }
}

// The views follow the shared selection, as in the studio: the batch or the
// param a picture is about is selected before it is drawn.
void ReportPictures::select(const ReportPicture& picture) {
    if (picture.kind == PictureKind::TensorLayout || picture.kind == PictureKind::WrongRowOverlay) {
        const ParamPlace& place = plan_.index->params[size_t(picture.index)];
        selection_->selectParam(picture.index, place.group, place.batch);
        return;
    }
    SelectionState state;
    state.group = picture.group;
    state.batch = picture.batch;
    selection_->set(state);
}

void ReportPictures::paint(const ReportPicture& picture, QPicture& target, const QSize& size) {
    QPainter painter(&target);
    painter.setClipRect(QRect(QPoint(0, 0), size));
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    switch (picture.kind) {
        case PictureKind::Mesh:
            mesh_->setMesh(picture.index);
            mesh_->paintMesh(painter, size, mesh_->fitTransform(size));
            break;
        case PictureKind::BufferLayout:
            buffers_->canvas()->paint(painter, size);
            break;
        case PictureKind::TensorLayout:
            tensors_->canvas()->paint(painter, size);
            break;
        case PictureKind::WrongRowOverlay:
            wrongRows_->paint(painter, size);
            break;
        default:
            break;
    }
}

void ReportPictures::paintChart(const ReportPicture& picture, QPicture& target, const QSize& size) {
    QCustomPlot* plot = picture.kind == PictureKind::CoordBalance  ? balance_->coordPlot()
                        : picture.kind == PictureKind::RankBalance ? balance_->rankPlot()
                                                                   : balance_->shardPlot();
    QCPPainter painter(&target);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    plot->toPainter(&painter, size.width(), size.height());
}

}  // namespace hsdp
