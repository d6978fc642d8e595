// SPDX-License-Identifier: Apache-2.0
// TensorLayoutCanvas's wrong rows: the run's Mismatch rows drawn over the
// blocks, where the truth's rows belong (red fill) and the true rows they
// hold instead (blue outline), with a legend naming both.
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

#include "tensor_layout/tensor_layout_canvas.h"

namespace hsdp {

namespace {

QString span(const IndexRange& rows) {
    return rows.size() == 1 ? QString::number(rows.begin)
                            : QStringLiteral("%1..%2").arg(rows.begin).arg(rows.end - 1);
}

QString kindText(const std::string& what) {
    if (what == "gather") return QObject::tr("gathered");
    if (what == "update") return QObject::tr("update applied");
    return QObject::tr("after the step");
}

QFont bandLabelFont(QFont font) {
    font.setPixelSize(11);
    font.setBold(true);
    return font;
}

QColor translucent(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

}  // namespace

QRectF TensorLayoutCanvas::wrongRowsRect(const TensorGrid& grid, const IndexRange& rows) const {
    const bool down = blocks_.axes.rowDim == 0;
    if (!down && blocks_.axes.colDim != 0) return {};
    const auto& cuts = down ? blocks_.rowCuts : blocks_.colCuts;
    const auto& edges = down ? grid.rowEdges : grid.colEdges;
    // A shrunk run's rows, scaled onto the real extent.
    const double scale = wrongRows_.runRows > 0 ? static_cast<double>(cuts.back()) /
                                                      static_cast<double>(wrongRows_.runRows)
                                                : 1.0;
    const double from = TensorGrid::pixelOf(edges, cuts, static_cast<double>(rows.begin) * scale);
    const double to = TensorGrid::pixelOf(edges, cuts, static_cast<double>(rows.end) * scale);
    return down ? QRectF(grid.area.left(), from, grid.area.width(), to - from)
                : QRectF(from, grid.area.top(), to - from, grid.area.height());
}

void TensorLayoutCanvas::paintWrongRows(QPainter& painter, const TensorGrid& grid) const {
    if (wrongRows_.param != blocks_.param || wrongRows_.isEmpty()) return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (const WrongRowOverlayBand& band : wrongRows_.bands) {
        if (band.held.size() > 0) {
            QRectF held = wrongRowsRect(grid, band.held);
            painter.fillRect(held, QBrush(translucent(heldRowsColor(), 150), Qt::FDiagPattern));
            painter.setPen(QPen(heldRowsColor(), 2, Qt::DashLine));
            painter.drawRect(held.adjusted(1, 1, -1, -1));
        }
        QRectF wrong = wrongRowsRect(grid, band.rows);
        painter.fillRect(wrong, QBrush(expectedRowsColor(), Qt::BDiagPattern));
        painter.setPen(QPen(expectedRowsColor(), 2));
        painter.drawRect(wrong.adjusted(1, 1, -1, -1));
    }
    // The labels over every band, so that no band's hatching covers one.
    painter.setFont(bandLabelFont(painter.font()));
    for (const BandLabel& label : wrongRowsLabels(grid)) {
        if (label.plate.isEmpty()) continue;
        painter.fillRect(label.plate, palette().color(QPalette::Base));
        painter.setPen(label.color);
        painter.drawText(label.plate, Qt::AlignCenter, label.shown);
    }
    painter.restore();
}

QString TensorLayoutCanvas::heldText(const WrongRowOverlayBand& band) const {
    return tr("rows %1: what rank %2 %3 at %4")
        .arg(span(band.held))
        .arg(wrongRows_.rank)
        .arg(wrongRows_.what == "update" ? tr("applied") : tr("holds"), span(band.rows));
}

// Each label on a white plate at its band's top left, or lower in the band
// where a label placed before is there; not drawn where the band has no
// room left for it.
std::vector<TensorLayoutCanvas::BandLabel> TensorLayoutCanvas::wrongRowsLabels(
    const TensorGrid& grid) const {
    std::vector<BandLabel> labels;
    if (wrongRows_.param != blocks_.param || wrongRows_.isEmpty()) return labels;
    for (const WrongRowOverlayBand& band : wrongRows_.bands) {
        if (band.held.size() > 0)
            labels.push_back(
                {wrongRowsRect(grid, band.held), heldText(band), heldRowsColor(), {}, {}});
        labels.push_back(
            {wrongRowsRect(grid, band.rows), wrongText(band), expectedRowsColor(), {}, {}});
    }
    const QFontMetricsF metrics(bandLabelFont(font()));
    const double height = metrics.height();
    std::vector<QRectF> placed;
    for (BandLabel& label : labels) {
        const QRectF& band = label.band;
        if (band.height() < height + 6 || band.width() < 80) continue;
        const QString shown = metrics.elidedText(label.text, Qt::ElideRight, band.width() - 16);
        const double width = metrics.horizontalAdvance(shown) + 6;
        for (double top = band.top() + 4; top + height <= band.bottom() - 2; top += height + 2) {
            const QRectF plate(band.left() + 5, top, width, height);
            const bool free = std::none_of(placed.begin(), placed.end(), [&](const QRectF& p) {
                return p.adjusted(0, -1, 0, 1).intersects(plate);
            });
            if (!free) continue;
            label.plate = plate;
            label.shown = shown;
            placed.push_back(plate);
            break;
        }
    }
    return labels;
}

QStringList TensorLayoutCanvas::wrongRowsTextsAt(const QPointF& pos, const QSize& size) const {
    QStringList texts;
    for (const BandLabel& label : wrongRowsLabels(grid(size)))
        if (label.band.contains(pos)) texts << label.text;
    return texts;
}

// The rank's reading of one band: "rank 2 expected rows 2..3, got rows 4..5".
QString TensorLayoutCanvas::wrongText(const WrongRowOverlayBand& band) const {
    const QString rank = tr("rank %1").arg(wrongRows_.rank);
    if (band.held.size() == 0)
        return tr("%1: rows %2 hold no row's values").arg(rank, span(band.rows));
    if (wrongRows_.what == "update")
        return tr("%1: rows %2 got the update of rows %3")
            .arg(rank, span(band.rows), span(band.held));
    return tr("%1: expected rows %2, got rows %3").arg(rank, span(band.rows), span(band.held));
}

void TensorLayoutCanvas::addWrongRowsNotes(std::vector<Note>& notes) const {
    if (wrongRows_.param != blocks_.param || wrongRows_.isEmpty()) return;
    const QString rank = tr("rank %1, %2").arg(wrongRows_.rank).arg(kindText(wrongRows_.what));
    if (blocks_.axes.rowDim != 0 && blocks_.axes.colDim != 0) {
        notes.push_back({tr("%1: wrong rows along dim 0, which this cut does not show").arg(rank)});
        return;
    }
    notes.push_back(
        {tr("%1 (from the run): red rows are wrong, blue the true rows found in them").arg(rank),
         expectedRowsColor(), 3, expectedRowsColor().darker(110)});
    for (const WrongRowOverlayBand& band : wrongRows_.bands) notes.push_back({wrongText(band)});
    const int64_t realRows = blocks_.axes.rowDim == 0 ? blocks_.rowExtent() : blocks_.colExtent();
    if (wrongRows_.runRows > 0 && wrongRows_.runRows != realRows)
        notes.push_back({tr("the run was shrunk to %1 rows: its rows are drawn scaled")
                             .arg(wrongRows_.runRows)});
}

}  // namespace hsdp
