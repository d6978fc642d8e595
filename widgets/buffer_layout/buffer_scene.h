// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QLineF>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

#include "derived/run/buffer_layout.h"

namespace hsdp {

// What a fused-buffer picture is made of, in pixels for one size: built once
// per paint, so painting, tooltips, clicks and tests agree on every rectangle.
struct BufferShape {
    // Block: an alltoallv buffer's block for one peer (outline; its segments inside).
    enum Kind { Payload, Padding, Rows, Block };
    Kind kind = Payload;
    QRectF rect;
    int param = -1;
    int rank = -1;  // whose slot (Payload, Padding) or rows (Rows); the peer (Block)
    // 0 send buffer, 1 gathered / broadcast / alltoallv receive buffer, 2 tensor cut
    int section = 0;
    QStringList labels;  // longest first: the first that fits is drawn inside
    QString tip;
};

struct BufferText {
    QRectF rect;
    QString text;
    bool bold = false;
    int align = 0;  // Qt::Alignment; 0: left, vertically centred
    // Shorter wordings of `text`, longest first: the first that fits the
    // rect is drawn (the last elided when none does); the tooltip over a
    // text drawn shorter gives it in full.
    QStringList shorter;
};

// What is drawn of `text` at `metrics`: the text, or the first shorter
// wording that fits its rect, or the last one elided.
template <typename Metrics>
QString bufferTextShown(const BufferText& text, const Metrics& metrics) {
    const auto fits = [&](const QString& s) {
        return metrics.horizontalAdvance(s) <= text.rect.width();
    };
    if (fits(text.text)) return text.text;
    for (const QString& s : text.shorter)
        if (fits(s)) return s;
    const QString& last = text.shorter.isEmpty() ? text.text : text.shorter.back();
    return metrics.elidedText(last, Qt::ElideRight, int(text.rect.width()));
}

struct BufferScene {
    std::vector<BufferShape> shapes;
    std::vector<BufferText> texts;
    std::vector<QLineF> links;  // slot segment -> the rows it becomes
    QRectF legend;
};

// Lays out `layout` in a picture of `size` (legend at the right).
BufferScene buildBufferScene(const BufferLayout& layout, const QSize& size);

// The fill of a param's payload by its position in the buffer, and the
// padding hatch: exactly what is painted (tests compare pixels).
QColor bufferParamColor(int position);
QColor bufferPaddingBase();
QColor bufferHatchColor();

}  // namespace hsdp
