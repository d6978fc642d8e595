// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QPointer>
#include <QWidget>
#include <optional>

#include "buffer_layout/buffer_scene.h"
#include "derived/plan/plan_selection.h"
#include "derived/run/buffer_layout.h"

namespace hsdp {

// The fused-buffer picture: the send buffer, the gathered (or broadcast)
// buffer one slot per member, and the selected param cut out of it, each
// param in its colour, alignment padding hatched, a legend at the right.
// Hover a rectangle for exact offsets, lengths, padding and rows; click a
// segment to select its param. Paints through paint(), so renderImage()
// is what the screen shows.
class BufferLayoutCanvas : public QWidget {
    Q_OBJECT
public:
    explicit BufferLayoutCanvas(PlanSelection* selection, QWidget* parent = nullptr);

    // nullopt: nothing to show, `message` says why.
    void setLayout(std::optional<BufferLayout> layout, const QString& message);
    const std::optional<BufferLayout>& layout() const { return layout_; }
    // Maps the layout's plan group id to a selection group position.
    void setGroupPosition(int position) { groupPosition_ = position; }
    // The plan the layouts' run ran: what a click's positions refer to.
    void setPlan(const PlanResult& plan) { plan_ = plan; }

    BufferScene scene(const QSize& size) const;
    // A picture about `size`, as wide, no taller, that the buffers and the
    // legend fill: without the band under a few slots drawn at their
    // tallest, or under a legend of a few parameters.
    QSize fittedSize(const QSize& size) const;
    // The bottom of what the legend draws at `size`: inside scene(size).legend.
    double legendBottom(const QSize& size) const;
    void paint(QPainter& painter, const QSize& size) const;
    QImage renderImage(const QSize& size) const;

    QSize sizeHint() const override { return {900, 560}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void paintShapes(QPainter& painter, const BufferScene& scene) const;
    // Returns the y under what it drew.
    double paintLegend(QPainter& painter, const QRectF& area) const;
    double contentBottom(const QSize& size) const;
    const BufferShape* shapeAt(const BufferScene& scene, const QPointF& pos) const;

    QPointer<PlanSelection> selection_;
    std::optional<BufferLayout> layout_;
    QString message_;
    int groupPosition_ = -1;
    PlanResult plan_;
};

}  // namespace hsdp
