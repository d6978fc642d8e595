// SPDX-License-Identifier: Apache-2.0
#include "view/plot_picture.h"

#include <qcustomplot.h>

#include <QPicture>

namespace hsdp {

namespace {

// The first layout may turn bars into a distribution, the next fits the
// tick labels to the axis, the last lays the axes out around them.
constexpr int kLayoutPasses = 3;

}  // namespace

void paintPlotPicture(QCustomPlot& plot, QPaintDevice& target, const QSize& size) {
    // What reads the plot's own width (wantsDistribution) reads the picture's.
    const QRect geometry = plot.geometry();
    const bool resized = plot.testAttribute(Qt::WA_Resized);
    plot.resize(size);
    for (int pass = 0; pass < kLayoutPasses; ++pass) {
        QPicture scratch;
        QCPPainter painter(&scratch);
        plot.toPainter(&painter, size.width(), size.height());
    }
    {
        QCPPainter painter(&target);
        painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        plot.toPainter(&painter, size.width(), size.height());
    }
    plot.setGeometry(geometry);
    plot.setAttribute(Qt::WA_Resized, resized);
}

}  // namespace hsdp
