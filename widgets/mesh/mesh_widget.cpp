// SPDX-License-Identifier: Apache-2.0
#include "mesh/mesh_widget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

namespace hsdp {

MeshWidget::MeshWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      view_(new MeshCanvas(selection, this)),
      meshes_(new QComboBox(this)),
      rows_(new QComboBox(this)),
      columns_(new QComboBox(this)),
      statistic_(new QComboBox(this)),
      nodes_(new QToolButton(this)),
      breadcrumb_(new QLabel(this)),
      selection_(selection) {
    // The marks follow the selected param: its wrong ranks, not the whole run's.
    if (selection_) connect(selection_, &PlanSelection::changed, this, &MeshWidget::applyFaults);
    // Each box as wide as its longest choice: the choices come with the
    // first plan, after the box was first shown (and sized) empty, which
    // cut them to "main (8 r" and "dp_replic".
    // Fixed: a narrow mesh panel (131,072 ranks, the block statistic beside
    // the dims) squeezed them below their text ("dp_replicate (") instead.
    for (QComboBox* box : {meshes_, rows_, columns_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        box->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    }
    // The dims and the block statistic: beside the mesh's box while the row
    // has the room, else on a row of their own (fitControls), not squeezed.
    dims_ = new QWidget(this);
    auto* dims = new QHBoxLayout(dims_);
    dims->setContentsMargins(0, 0, 0, 0);
    dims->addWidget(new QLabel(tr("Rows"), dims_));
    dims->addWidget(rows_);
    dims->addWidget(new QLabel(tr("Columns"), dims_));
    dims->addWidget(columns_);
    dims->addSpacing(12);
    statisticLabel_ = new QLabel(tr("Blocks by"), dims_);
    dims->addWidget(statisticLabel_);
    statistic_->addItem(tr("max"), static_cast<int>(BlockStatistic::Max));
    statistic_->addItem(tr("mean"), static_cast<int>(BlockStatistic::Mean));
    statistic_->addItem(tr("max / mean"), static_cast<int>(BlockStatistic::MaxOverMean));
    statistic_->setToolTip(
        tr("A mesh too large for a cell per rank is drawn in blocks of ranks: colour each "
           "block by the largest Newton–Schulz numel of its ranks, their mean, or max / mean "
           "(how unevenly the block splits its work)"));
    dims->addWidget(statistic_);
    controls_ = new QHBoxLayout;
    controls_->addWidget(new QLabel(tr("Mesh"), this));
    controls_->addWidget(meshes_);
    controls_->addSpacing(12);
    controls_->addWidget(dims_);
    controls_->addStretch();
    nodes_->setText(tr("Nodes"));
    nodes_->setCheckable(true);
    nodes_->setChecked(true);
    controls_->addWidget(nodes_);
    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Zoom to fit (Ctrl+0)"));
    controls_->addWidget(fit);
    secondRow_ = new QHBoxLayout;
    secondRow_->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls_);
    layout->addLayout(secondRow_);
    breadcrumb_->setTextFormat(Qt::RichText);
    // A long path must not widen the view (and squeeze the docks): it is cut instead.
    breadcrumb_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    breadcrumb_->setVisible(false);
    layout->addWidget(breadcrumb_);
    layout->addWidget(view_, 1);
    connect(breadcrumb_, &QLabel::linkActivated, view_, &MeshCanvas::zoomToOverview);
    connect(view_, &MeshCanvas::levelChanged, this, &MeshWidget::updateLevel);
    connect(statistic_, &QComboBox::activated, this, [this] {
        view_->setStatistic(static_cast<BlockStatistic>(statistic_->currentData().toInt()));
    });
    connect(nodes_, &QToolButton::toggled, view_, &MeshCanvas::setShowNodes);
    connect(fit, &QToolButton::clicked, view_, &MeshCanvas::resetZoom);
    connect(meshes_, &QComboBox::activated, view_, &MeshCanvas::setMesh);
    connect(rows_, &QComboBox::activated, this, &MeshWidget::applyDims);
    connect(columns_, &QComboBox::activated, this, &MeshWidget::applyDims);
    connect(view_, &MeshCanvas::meshChanged, this, [this](int mesh) {
        QSignalBlocker block(meshes_);
        meshes_->setCurrentIndex(mesh);
        fillDims();
    });
    updateLevel();
}

void MeshWidget::setResult(const PlanResult& result) {
    result_ = result;
    fillMeshes();
    view_->setResult(result);
    applyFaults();
    fillDims();
    updateNodesBox();
    fitControls();
}

void MeshWidget::showRun(const RunData& run) {
    run_ = run;
    applyFaults();
}

void MeshWidget::showJob(const JobData& job) {
    job_ = job;
    applyFaults();
}

// Evidence about another plan (an edit since the run) marks nothing.
void MeshWidget::applyFaults() {
    const auto ours = [this](const PlanResult& plan) {
        return plan.isValid() && plan.plan == result_.plan;
    };
    const int focus = selection_ ? selection_->focusParamFor(result_) : -1;
    view_->setFaults(mergedFaults(ours(run_.plan) ? runFaults(run_, focus) : RankFaults{},
                                  ours(job_.plan) ? jobFaults(job_) : RankFaults{}));
}

void MeshWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitControls();
}

// A box got new choices (a wider size hint): its row may no longer fit.
bool MeshWidget::event(QEvent* event) {
    const bool handled = QWidget::event(event);
    if (event->type() == QEvent::LayoutRequest) fitControls();
    return handled;
}

// The dims' boxes go on the first row while it has their room (the boxes
// as wide as their choices), else on a second row under it. Measured from
// the widgets' own size hints: the row's layout caches them until it is
// laid out again.
void MeshWidget::fitControls() {
    const bool onFirst = controls_->indexOf(dims_) >= 0;
    const int spacing = controls_->spacing();
    int need = layout() ? layout()->contentsMargins().left() * 2 : 0;
    for (int i = 0; i < controls_->count(); ++i) {
        QLayoutItem* item = controls_->itemAt(i);
        QWidget* widget = item->widget();
        if (widget && widget->isHidden()) continue;
        need += (widget ? widget->sizeHint().width() : item->sizeHint().width()) + spacing;
    }
    if (!onFirst) need += dims_->sizeHint().width() + spacing;
    const bool first = need <= width();
    if (first == onFirst) return;
    if (first) {
        secondRow_->removeWidget(dims_);
        controls_->insertWidget(3, dims_);
    } else {
        controls_->removeWidget(dims_);
        secondRow_->insertWidget(0, dims_);
    }
}

void MeshWidget::showPrediction(const PlanResult& plan) {
    result_ = plan;
    view_->setPrediction(plan);
    updateNodesBox();
}

void MeshWidget::updateLevel() {
    const MeshCanvas::Level level = view_->level();
    // Only a mesh drawn in blocks has a statistic to choose: a small one
    // keeps the toolbar (and the docks beside the view) as they were.
    statistic_->setVisible(level != MeshCanvas::Level::Ranks);
    statisticLabel_->setVisible(level != MeshCanvas::Level::Ranks);
    breadcrumb_->setVisible(level != MeshCanvas::Level::Ranks);
    QString path = view_->breadcrumb().toHtmlEscaped();
    if (level == MeshCanvas::Level::Zoomed) {  // the first step links back to the overview
        const int step = path.indexOf(QStringLiteral(" ▸ "));
        path = QStringLiteral("<a href=\"overview\">%1</a>%2").arg(path.left(step), path.mid(step));
    }
    breadcrumb_->setText(path);
    fitControls();
}

void MeshWidget::updateNodesBox() {
    const NodeMap& nodes = view_->nodes();
    nodes_->setEnabled(!nodes.empty());
    nodes_->setToolTip(nodes.empty() ? tr("Choose a cluster (Cluster menu) to outline its nodes")
                                     : tr("Outline the %1 nodes of %2 ranks each (%3)")
                                           .arg(nodes.nodes)
                                           .arg(nodes.devicesPerNode)
                                           .arg(nodes.clusterName));
}

void MeshWidget::fillMeshes() {
    QSignalBlocker block(meshes_);
    meshes_->clear();
    if (!result_.scenario) return;
    for (const Mesh& mesh : result_.scenario->meshes)
        meshes_->addItem(QStringLiteral("%1 (%2 ranks)")
                             .arg(QString::fromStdString(mesh.name))
                             .arg(mesh.size()));
}

void MeshWidget::fillDims() {
    QSignalBlocker blockRows(rows_), blockColumns(columns_);
    rows_->clear();
    columns_->clear();
    const Mesh* mesh = view_->mesh();
    if (!mesh) return;
    rows_->addItem(tr("(none)"), -1);
    columns_->addItem(tr("(none)"), -1);
    for (int d = 0; d < mesh->ndim(); ++d) {
        QString name = QStringLiteral("%1 (%2)")
                           .arg(QString::fromStdString(mesh->dimNames[d]))
                           .arg(mesh->shape[d]);
        rows_->addItem(name, d);
        columns_->addItem(name, d);
    }
    rows_->setCurrentIndex(rows_->findData(view_->dims().first));
    columns_->setCurrentIndex(columns_->findData(view_->dims().second));
    fitControls();
}

void MeshWidget::applyDims() {
    int row = rows_->currentData().toInt(), column = columns_->currentData().toInt();
    if (row == column && row >= 0) {  // one dim cannot be both: the other one gives way
        row = -1;
        QSignalBlocker block(rows_);
        rows_->setCurrentIndex(0);
    }
    view_->setDims(row, column);
}

QImage MeshWidget::picture(const QSize& size, const QString& part) {
    if (!part.isEmpty()) view_->setMesh(part.toInt());
    if (!asShown_) return view_->renderImage(size);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    view_->paintMesh(painter, size, view_->canvasTransform(size));
    return image;
}

QSize MeshWidget::fittedPictureSize(const QSize& size, const QString& part) {
    if (!part.isEmpty()) view_->setMesh(part.toInt());
    return asShown_ ? size : view_->fittedSize(size);
}

void MeshWidget::paintPicture(QPaintDevice& target, const QSize& size, const QString& part) {
    if (!part.isEmpty()) view_->setMesh(part.toInt());
    paintOnWhite(target, size, [&](QPainter& painter) {
        view_->paintMesh(painter, size,
                         asShown_ ? view_->canvasTransform(size) : view_->fitTransform(size));
    });
}

}  // namespace hsdp
