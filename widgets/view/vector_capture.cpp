// SPDX-License-Identifier: Apache-2.0
#include "view/vector_capture.h"

#include <qcustomplot.h>
#include <QPainter>
#include <QWidget>

namespace hsdp {

namespace {

VectorCapture* liveCapture = nullptr;

// Answers a chart's paint events while its widget renders as drawing
// commands: QCustomPlot::paintEvent draws the pixmaps its layers are cached
// in, which an SVG would embed as pictures (tick labels included).
class PlotsAsVectors : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override {
        auto* plot = qobject_cast<QCustomPlot*>(watched);
        if (!plot || event->type() != QEvent::Paint) return false;
        // Begun on the widget inside render(), it paints with render()'s painter.
        QCPPainter painter(plot);
        painter.setMode(QCPPainter::pmVectorized);
        plot->toPainter(&painter, plot->width(), plot->height());
        return true;
    }
};

}  // namespace

void paintWidgetAsVectors(QPainter& painter, QWidget& widget) {
    PlotsAsVectors vectors;
    QList<QCustomPlot*> plots = widget.findChildren<QCustomPlot*>();
    if (auto* self = qobject_cast<QCustomPlot*>(&widget)) plots << self;
    for (QCustomPlot* plot : plots) plot->installEventFilter(&vectors);
    widget.render(&painter, QPoint(), QRegion(),
                  QWidget::DrawWindowBackground | QWidget::DrawChildren);
    for (QCustomPlot* plot : plots) plot->removeEventFilter(&vectors);
}

// Nested captures: the innermost takes the grabs, the outer one resumes after.
VectorCapture::VectorCapture(QPaintDevice& target) : target_(target), outer_(liveCapture) {
    liveCapture = this;
}

VectorCapture::~VectorCapture() {
    liveCapture = outer_;
}

void VectorCapture::offer(QWidget& widget) {
    if (!liveCapture || liveCapture->painted_) return;
    liveCapture->painted_ = true;
    QPainter painter(&liveCapture->target_);
    paintWidgetAsVectors(painter, widget);
}

}  // namespace hsdp
