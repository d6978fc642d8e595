// SPDX-License-Identifier: Apache-2.0
#pragma once

class QPaintDevice;
class QPainter;
class QWidget;

namespace hsdp {

// Paints `widget` and its children with `painter` as drawing commands, as
// QWidget::render() does: text stays text and a canvas's own painting stays
// shapes. QCustomPlot charts, which paint bitmaps of their layers on screen,
// paint through their vector export instead.
void paintWidgetAsVectors(QPainter& painter, QWidget& widget);

// While one lives, grabOffscreen() also paints the first widget it grabs
// into `target` (paintWidgetAsVectors): a view's picture() then exists as
// drawing commands too, with whatever state the view sets for its part (a
// step, an unfolded group) while it grabs. On the GUI thread only.
class VectorCapture {
public:
    explicit VectorCapture(QPaintDevice& target);
    ~VectorCapture();
    VectorCapture(const VectorCapture&) = delete;
    VectorCapture& operator=(const VectorCapture&) = delete;

    // Whether a grab was painted into the target (a view that draws its
    // picture with its own painter grabs nothing).
    bool painted() const { return painted_; }

    // grabOffscreen()'s part: `widget`, laid out as grabbed, into the live
    // capture's target (the first time only).
    static void offer(QWidget& widget);

private:
    QPaintDevice& target_;
    VectorCapture* outer_;
    bool painted_ = false;
};

}  // namespace hsdp
