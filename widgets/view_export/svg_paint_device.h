// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QPaintDevice>
#include <QSize>
#include <QString>
#include <memory>

namespace hsdp {

class SvgPaintEngine;

// A paint device that writes what is painted on it as an SVG 1.1 document
// of `size` pixels (its viewBox the same): shapes as paths, text as text,
// bitmaps as embedded PNGs of the part drawn, clipping as clip paths.
//
// Why not QSvgGenerator: Qt 6.4's ignores the clip and embeds a whole
// pixmap where a part of it is drawn. Widgets rely on both (a label's text
// cut at its edge, a scroll area's content cut at its viewport, the
// style's frames drawn from pieces of one cached pixmap): their SVGs came
// out overlapping and smeared.
class SvgPaintDevice : public QPaintDevice {
public:
    // `dpi`: the resolution fonts are sized at (the screen's, so that text
    // keeps the size it was laid out at).
    SvgPaintDevice(const QSize& size, int dpi, const QString& title, const QString& description);
    ~SvgPaintDevice() override;

    QPaintEngine* paintEngine() const override;
    // The document: whole once every painter on the device has ended.
    QByteArray document() const;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QSize size_;
    int dpi_;
    QByteArray title_;
    QByteArray description_;
    std::unique_ptr<SvgPaintEngine> engine_;
};

}  // namespace hsdp
