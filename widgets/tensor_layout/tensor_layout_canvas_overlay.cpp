// SPDX-License-Identifier: Apache-2.0
// TensorLayoutCanvas's wrong rows: the run's Mismatch rows drawn over the
// blocks, where the truth's rows belong (red fill) and the true rows they
// hold instead (blue outline), with a legend naming both.
#include <QFontMetricsF>
#include <QPainter>

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
            paintBandLabel(painter, held,
                           tr("rows %1: what rank %2 %3 at %4")
                               .arg(span(band.held))
                               .arg(wrongRows_.rank)
                               .arg(wrongRows_.what == "update" ? tr("applied") : tr("holds"),
                                    span(band.rows)),
                           heldRowsColor());
        }
        QRectF wrong = wrongRowsRect(grid, band.rows);
        painter.fillRect(wrong, QBrush(expectedRowsColor(), Qt::BDiagPattern));
        painter.setPen(QPen(expectedRowsColor(), 2));
        painter.drawRect(wrong.adjusted(1, 1, -1, -1));
        paintBandLabel(painter, wrong, wrongText(band), expectedRowsColor());
    }
    painter.restore();
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

// A label on a white plate at the band's top left, when the band is tall
// enough to hold it.
void TensorLayoutCanvas::paintBandLabel(QPainter& painter, const QRectF& band, const QString& text,
                                        const QColor& color) const {
    QFont font = painter.font();
    font.setPixelSize(11);
    font.setBold(true);
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    if (band.height() < metrics.height() + 6 || band.width() < 80) return;
    const QString shown = metrics.elidedText(text, Qt::ElideRight, band.width() - 16);
    QRectF plate(band.left() + 5, band.top() + 4, metrics.horizontalAdvance(shown) + 6,
                 metrics.height());
    painter.fillRect(plate, palette().color(QPalette::Base));
    painter.setPen(color);
    painter.drawText(plate, Qt::AlignCenter, shown);
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
