// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QImage>
#include <QPointer>
#include <QRectF>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"
#include "tensor_layout/tensor_blocks.h"
#include "tensor_layout/wrong_row_overlay.h"

namespace hsdp {

// Where the blocks sit in a picture of a given size: the band edges in
// pixels along both axes. A band's width follows its index extent, with a
// floor so that a one-index band (an uneven remainder) stays visible.
struct TensorGrid {
    QRectF area;                   // the blocks' bounds
    std::vector<double> rowEdges;  // rowCuts.size() values, top to bottom
    std::vector<double> colEdges;  // colCuts.size() values, left to right
    QRectF legend;

    QRectF rectOf(const TensorBlock& block) const;
    // Indices past the extent map into a strip this wide after the last edge.
    static constexpr double kOverhangPixels = 10.0;
    // The pixel of a global index along the rows or columns, between the
    // band edges of `cuts` (whose edges these are).
    static double pixelOf(const std::vector<double>& edges, const std::vector<int64_t>& cuts,
                          double index);
};

// The tensor layout picture: title, the blocks of TensorBlocks coloured by
// shard coordinate and labelled with their ranks (labels that do not fit
// are dropped; the tooltip has the detail), hazard blocks outlined in the
// warning colour, blocks of the picked ranks outlined in black, and a legend
// with the empty shards, and the wrong rows of the last run when it has any
// for the param (WrongRowOverlay: where the truth's rows belong, filled red, and
// the true rows they hold instead, outlined blue, both along dim 0). Clicking
// a block picks its ranks. Paints through
// paint() into any QPainter, so a QImage rendering is what the screen shows.
class TensorLayoutCanvas : public QWidget {
    Q_OBJECT
public:
    static constexpr double kLegendWidth = 270.0;  // at most
    static constexpr int kNarrowWidth = 640;       // below: the legend goes under the blocks
    static constexpr double kMinBandPixels = 6.0;

    explicit TensorLayoutCanvas(PlanSelection* selection, QWidget* parent = nullptr);

    void setBlocks(const PlanResult& result, TensorBlocks blocks);
    const TensorBlocks& blocks() const { return blocks_; }
    void setWrongRows(WrongRowOverlay rows);
    const WrongRowOverlay& wrongRows() const { return wrongRows_; }
    // The rectangle of rows [begin, end) of the run (scaled to the real
    // shape when the run was shrunk) across the blocks; empty when dim 0 is
    // not shown.
    QRectF wrongRowsRect(const TensorGrid& grid, const IndexRange& rows) const;
    // A wrong-rows label: its band, its whole text and, when drawn, the
    // plate it is drawn on and the text there (elided to the band's width).
    // Labels never overlap: one with no room left in its band (a swap puts
    // one band's true rows where another's wrong rows are) is not drawn, and
    // the tooltip over a band gives every label of it in full.
    struct BandLabel {
        QRectF band;
        QString text;
        QColor color;
        QRectF plate;  // empty: not drawn
        QString shown;
    };
    std::vector<BandLabel> wrongRowsLabels(const TensorGrid& grid) const;
    // The full labels of the wrong-row bands under `pos` (of a `size`
    // picture), one a line; empty where there is none.
    QStringList wrongRowsTextsAt(const QPointF& pos, const QSize& size) const;

    // Narrow, the legend goes under the blocks: the height it needs at
    // `width` (its notes wrapped, then the shard coordinates).
    double narrowLegendHeight(double width) const;
    // Wide, the legend goes beside the blocks: the height it needs at
    // `width` (every shard coordinate, then its notes wrapped).
    double wideLegendHeight(double width) const;
    // The height at which the title, blocks at least kMinBlocksWidth wide
    // (or the whole width) and the legend under them fit at `width`; the
    // canvas keeps it as its minimum height, so a short dock scrolls it
    // instead of shrinking the blocks to a sliver.
    int contentHeight(int width) const;
    static constexpr double kMinBlocksWidth = 260.0;

    // A picture `size.width()` wide that holds the title, the blocks and the
    // whole legend with no blank band under them: `size`, made as tall as
    // the content needs (contentHeight(), the legend) or as short as it uses.
    QSize fittedSize(const QSize& size) const;

    static bool isNarrow(const QSize& size);
    static double titleHeight(const QSize& size);
    TensorGrid grid(const QSize& size) const;
    // The block under a pixel, or -1 (an index into blocks().blocks).
    int blockAt(const QPointF& pos, const QSize& size) const;
    void paint(QPainter& painter, const QSize& size) const;
    QImage renderImage(const QSize& size) const;

    // Exactly the colours painted: tests compare pixels against them.
    static QColor shardColor(int group);
    static QColor mergedColor() { return QColor(0xb8, 0xb8, 0xbe); }
    static QColor hazardColor() { return QColor(0xd9, 0x48, 0x01); }
    static QColor pickColor() { return QColor(0x11, 0x11, 0x11); }
    static QColor expectedRowsColor() { return QColor(0xc6, 0x1b, 0x1b); }
    static QColor heldRowsColor() { return QColor(0x15, 0x5c, 0xc4); }
    static constexpr double kHazardInset = 3.0;  // outline band, pixels from the block edge
    static constexpr double kHazardWidth = 3.0;

    QSize sizeHint() const override { return {640, 520}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QString toolTipFor(const TensorBlock& block) const;
    QColor fillOf(const TensorBlock& block) const;
    // `picked`: the selection's ranks, sorted.
    bool isPicked(const TensorBlock& block, const std::vector<int>& picked) const;
    void paintTitle(QPainter& painter, const QRectF& area, bool narrow) const;
    void paintBlocks(QPainter& painter, const TensorGrid& grid) const;
    void paintLabel(QPainter& painter, const TensorBlock& block, const QRectF& box) const;
    void paintAxes(QPainter& painter, const TensorGrid& grid) const;
    void paintWrongRows(QPainter& painter, const TensorGrid& grid) const;
    QString wrongText(const WrongRowOverlayBand& band) const;
    QString heldText(const WrongRowOverlayBand& band) const;
    void paintLegend(QPainter& painter, const QRectF& area, bool narrow) const;
    // At most `most` coordinates, as many as leave `reserve` pixels under them.
    double paintGroupLegend(QPainter& painter, const QRectF& area, double reserve, int most) const;
    struct Note {
        QString text;
        QColor swatch{};         // an outline swatch before the text
        double swatchWidth = 0;  // 0: no swatch
        QColor color{};          // invalid: the palette's text colour
    };
    std::vector<Note> notes() const;
    void addWrongRowsNotes(std::vector<Note>& notes) const;
    double paintNotes(QPainter& painter, const QRectF& area) const;
    double notesHeight(double width) const;  // every note wrapped at `width`
    void paintMessage(QPainter& painter, const QRectF& area, const QString& text) const;
    void updateMinimumHeight();
    int legendEntries() const;  // coordinates listed narrow, "… more" line included
    int coordinatesInSlice() const;

    QPointer<PlanSelection> selection_;
    PlanResult result_;
    TensorBlocks blocks_;
    WrongRowOverlay wrongRows_;
};

}  // namespace hsdp
