// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSize>

class QCustomPlot;
class QPaintDevice;

namespace hsdp {

// `plot` drawn into `target` at `size`, on white, as drawing commands
// (QCustomPlot::toPainter: a PDF keeps them as vectors). Laid out at that
// size first, a few times over, so that what the plot's owner decides from
// its size after each layout (tick labels that fit their slots, bars or a
// distribution, a wrapped subtitle) is decided for this picture, not for the
// size the plot last had on screen, or had never been given.
void paintPlotPicture(QCustomPlot& plot, QPaintDevice& target, const QSize& size);

}  // namespace hsdp
