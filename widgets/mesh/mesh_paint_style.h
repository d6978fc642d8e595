// SPDX-License-Identifier: Apache-2.0
// The mesh view's colours and small painting helpers, shared by the rank
// cells (mesh_canvas_paint.cpp) and the overview (mesh_canvas_overview.cpp).
#pragma once

#include <QColor>
#include <QPainter>
#include <QPolygonF>
#include <QStringList>
#include <vector>

#include "mesh/selection_overlay.h"

namespace hsdp::mesh_paint {

struct OverlayStyle {
    const std::vector<int>* ranks;
    QColor color;
    double inset;  // in pixels, from the cell edge
    double width;
    const char* label;
};

const QColor kOwnerColor(0xe6, 0x61, 0x00);
const QColor kShardColor(0x1a, 0x9e, 0x77);
const QColor kReplicateColor(0xc2, 0x18, 0x8f);
const QColor kTpColor(0x75, 0x3b, 0xbd);
const QColor kPickColor(0x11, 0x11, 0x11);
const QColor kComputeColor(0xff, 0xc4, 0x00);  // the Newton–Schulz mark, on every heat colour
const QColor kComputeEdge(0x11, 0x11, 0x11);

// The Newton–Schulz mark: a flag in the cell's top-right corner, `side` pixels.
inline QPolygonF computeFlag(const QRectF& box, double side) {
    return QPolygonF(
        {box.topRight(), box.topRight() - QPointF(side, 0), box.topRight() + QPointF(0, side)});
}

inline std::vector<OverlayStyle> overlayStyles(const SelectionOverlay& overlay) {
    // Outer to inner, so nested sets (owner inside shard group) stay visible.
    return {{&overlay.shardGroup, kShardColor, 1, 2, "shard group"},
            {&overlay.groupRanks, kShardColor, 1, 2, "group ranks"},
            {&overlay.tpRanks, kTpColor, 1, 2, "TP groups"},
            {&overlay.replicateGroup, kReplicateColor, 4, 2, "replicate group"},
            {&overlay.ownerRanks, kOwnerColor, 7, 3, "owner ranks"},
            {&overlay.pickedRanks, kPickColor, 0, 2, "picked rank"}};
}

inline QString coordinateText(const Coord& coord) {
    QStringList parts;
    for (int64_t c : coord) parts << QString::number(c);
    return QLatin1Char('(') + parts.join(QLatin1Char(',')) + QLatin1Char(')');
}

// A rectangle's outline centred on `box`'s edges, as four fills: stroking
// wide pens goes through the path stroker, thousands of times too slow here.
inline void fillOutline(QPainter& painter, const QRectF& box, double width, const QColor& color) {
    double h = width / 2;
    painter.fillRect(QRectF(box.left() - h, box.top() - h, box.width() + width, width), color);
    painter.fillRect(QRectF(box.left() - h, box.bottom() - h, box.width() + width, width), color);
    painter.fillRect(QRectF(box.left() - h, box.top() + h, width, box.height() - width), color);
    painter.fillRect(QRectF(box.right() - h, box.top() + h, width, box.height() - width), color);
}

}  // namespace hsdp::mesh_paint
