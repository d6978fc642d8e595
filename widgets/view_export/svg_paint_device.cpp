// SPDX-License-Identifier: Apache-2.0
#include "view_export/svg_paint_device.h"

#include <QBuffer>
#include <QFontInfo>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <cmath>

namespace hsdp {

namespace {

// A hundredth of a pixel is finer than any renderer draws.
QByteArray number(qreal value) {
    if (std::abs(value) < 0.005) return QByteArrayLiteral("0");
    QByteArray text = QByteArray::number(value, 'f', 2);
    while (text.endsWith('0')) text.chop(1);
    if (text.endsWith('.')) text.chop(1);
    return text;
}

QByteArray escaped(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        switch (c.unicode()) {
            case '&':
                out += QStringLiteral("&amp;");
                break;
            case '<':
                out += QStringLiteral("&lt;");
                break;
            case '>':
                out += QStringLiteral("&gt;");
                break;
            case '"':
                out += QStringLiteral("&quot;");
                break;
            default:
                if (c.unicode() >= 0x20 || c == QLatin1Char('\t')) out += c;  // XML has no others
        }
    }
    return out.toUtf8();
}

QByteArray attribute(const char* name, const QByteArray& value) {
    return QByteArray(" ") + name + "=\"" + value + '"';
}

QByteArray matrix(const QTransform& t) {
    return "matrix(" + number(t.m11()) + ' ' + number(t.m12()) + ' ' + number(t.m21()) + ' ' +
           number(t.m22()) + ' ' + number(t.dx()) + ' ' + number(t.dy()) + ')';
}

// Moves, lines and cubic curves; a subpath that ends where it began closes.
QByteArray pathData(const QPainterPath& path) {
    QByteArray data;
    QPointF start;
    for (int i = 0; i < path.elementCount(); ++i) {
        const QPainterPath::Element element = path.elementAt(i);
        const QPointF point(element.x, element.y);
        const bool lastOfSubpath = i + 1 == path.elementCount() || path.elementAt(i + 1).isMoveTo();
        if (element.isMoveTo()) {
            start = point;
            data += 'M' + number(point.x()) + ' ' + number(point.y());
        } else if (element.isLineTo()) {
            data += lastOfSubpath && point == start && i > 1
                        ? QByteArrayLiteral("Z")
                        : 'L' + number(point.x()) + ' ' + number(point.y());
        } else if (element.isCurveTo() && i + 2 < path.elementCount()) {
            data += 'C' + number(point.x()) + ' ' + number(point.y());
            for (int k = 1; k <= 2; ++k)
                data +=
                    ' ' + number(path.elementAt(i + k).x) + ' ' + number(path.elementAt(i + k).y);
            i += 2;
        }
    }
    return data;
}

bool isRect(const QPainterPath& path) {
    if (path.elementCount() != 5) return false;
    QPainterPath rect;
    rect.addRect(path.boundingRect());
    return rect == path;
}

QByteArray fontFamilies(const QFont& font) {
    const QFontInfo info(font);
    const char* generic = info.fixedPitch()                  ? "monospace"
                          : font.styleHint() == QFont::Serif ? "serif"
                                                             : "sans-serif";
    return "'" + escaped(info.family()) + "', " + generic;
}

}  // namespace

// Writes SVG elements as QPainter paints: every shape in device
// coordinates, text and bitmaps with their transform, and the clip (the
// painter's, within the system clip QWidget::render() sets per widget) as
// the clip path of a group around what it clips.
class SvgPaintEngine : public QPaintEngine {
public:
    explicit SvgPaintEngine(int dpi) : QPaintEngine(AllFeatures), dpi_(dpi) {}

    bool begin(QPaintDevice*) override { return true; }
    bool end() override {
        closeClipGroup();
        return true;
    }
    Type type() const override { return User; }
    QByteArray body() const { return body_; }

    void updateState(const QPaintEngineState& state) override {
        const DirtyFlags flags = state.state();
        if (flags & DirtyPen) pen_ = state.pen();
        if (flags & DirtyBrush) brush_ = state.brush();
        if (flags & DirtyOpacity) opacity_ = state.opacity();
        if (flags & DirtyHints) crisp_ = !(state.renderHints() & QPainter::Antialiasing);
        if (flags & DirtyTransform) transform_ = state.transform();
        if (flags & (DirtyTransform | DirtyClipPath | DirtyClipRegion | DirtyClipEnabled))
            painterClipDirty_ = true;
    }

    void drawPath(const QPainterPath& path) override { writeShape(transform_.map(path), true); }

    void drawPolygon(const QPointF* points, int count, PolygonDrawMode mode) override {
        if (count < 2) return;
        QPainterPath path(points[0]);
        for (int i = 1; i < count; ++i) path.lineTo(points[i]);
        if (mode != PolylineMode) path.closeSubpath();
        path.setFillRule(mode == OddEvenMode ? Qt::OddEvenFill : Qt::WindingFill);
        writeShape(transform_.map(path), mode != PolylineMode);
    }

    void drawPixmap(const QRectF& r, const QPixmap& pixmap, const QRectF& source) override {
        drawImage(r, pixmap.toImage(), source, Qt::AutoColor);
    }

    // Only the part drawn is embedded (the style draws frames from pieces
    // of one cached pixmap).
    void drawImage(const QRectF& r, const QImage& image, const QRectF& source,
                   Qt::ImageConversionFlags) override {
        if (r.isEmpty() || image.isNull() || !openClipGroup()) return;
        const QRect part = source.toAlignedRect() & image.rect();
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        (part == image.rect() ? image : image.copy(part)).save(&buffer, "PNG");
        body_ += "<image" + attribute("x", number(r.x())) + attribute("y", number(r.y())) +
                 attribute("width", number(r.width())) + attribute("height", number(r.height())) +
                 attribute("preserveAspectRatio", "none") +
                 attribute("transform", matrix(transform_)) + opacityAttribute(1.0) +
                 attribute("xlink:href", "data:image/png;base64," + png.toBase64()) + "/>\n";
    }

    // Text as text, in the font it was laid out in, stretched to the width
    // Qt gave it: a renderer with another font keeps it in its place.
    void drawTextItem(const QPointF& p, const QTextItem& item) override {
        const QString text = item.text();
        if (text.trimmed().isEmpty() || !openClipGroup()) return;
        const QFont font = item.font();
        const qreal pixels =
            font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * dpi_ / 72;
        QByteArray decoration;
        if (item.renderFlags() & QTextItem::Underline) decoration += "underline ";
        if (item.renderFlags() & QTextItem::StrikeOut) decoration += "line-through ";
        if (item.renderFlags() & QTextItem::Overline) decoration += "overline ";
        body_ += "<text" + attribute("x", number(p.x())) + attribute("y", number(p.y())) +
                 attribute("transform", matrix(transform_)) +
                 attribute("font-family", fontFamilies(font)) +
                 attribute("font-size", number(pixels)) +
                 attribute("font-weight", QByteArray::number(font.weight())) +
                 (font.italic() ? attribute("font-style", "italic") : QByteArray()) +
                 (decoration.isEmpty() ? QByteArray()
                                       : attribute("text-decoration", decoration.trimmed())) +
                 attribute("fill", pen_.color().name().toLatin1()) +
                 opacityAttribute(pen_.color().alphaF(), "fill-opacity") +
                 (item.width() > 0 ? attribute("textLength", number(item.width())) : QByteArray()) +
                 attribute("xml:space", "preserve") + '>' + escaped(text) + "</text>\n";
    }

private:
    // Aliased, Qt draws a line of odd width on the pixels right of and below
    // its mathematical position (a 1 px frame at x = 0 is pixel column 0):
    // the stroke is moved half a pixel there, or a clip at the widget's
    // edge would cut half of it away. Fills stay where they are.
    void writeShape(const QPainterPath& path, bool fillable) {
        const bool fill = fillable && brush_.style() != Qt::NoBrush;
        const bool stroke = pen_.style() != Qt::NoPen && pen_.brush().style() != Qt::NoBrush;
        if ((!fill && !stroke) || path.isEmpty() || !openClipGroup()) return;
        const QByteArray crisp = crisp_ ? attribute("shape-rendering", "crispEdges") : QByteArray();
        const bool shifted = stroke && crisp_ && qRound(strokeWidth()) % 2 == 1;
        QByteArray element = "<path" + attribute("d", pathData(path));
        if (fill) {
            const Paint filling = paint(brush_);
            element +=
                attribute("fill", filling.value) + opacityAttribute(filling.alpha, "fill-opacity");
            if (path.fillRule() == Qt::OddEvenFill) element += attribute("fill-rule", "evenodd");
            if (shifted) {
                body_ += element + crisp + "/>\n";
                element = "<path" + attribute("d", pathData(path)) + attribute("fill", "none");
            }
        } else {
            element += attribute("fill", "none");
        }
        if (stroke) element += strokeAttributes();
        if (shifted) element += attribute("transform", "translate(0.5 0.5)");
        body_ += element + crisp + "/>\n";
    }

    qreal strokeWidth() const {
        const qreal width = pen_.widthF() > 0 ? pen_.widthF() : 1;
        return pen_.isCosmetic() ? width : width * std::sqrt(std::abs(transform_.determinant()));
    }

    // A brush's colour, or a gradient written before the shape that uses it.
    struct Paint {
        QByteArray value;  // a colour or url(#id)
        qreal alpha;
    };

    Paint paint(const QBrush& brush) {
        if (brush.style() >= Qt::Dense1Pattern && brush.style() <= Qt::DiagCrossPattern)
            return pattern(brush);
        if (brush.style() == Qt::TexturePattern) return texture(brush);
        const QGradient* gradient = brush.gradient();
        if (!gradient || gradient->type() == QGradient::ConicalGradient)
            return {brush.color().name().toLatin1(), brush.color().alphaF()};
        const QByteArray id = "g" + QByteArray::number(++ids_);
        const bool box = gradient->coordinateMode() == QGradient::ObjectBoundingMode ||
                         gradient->coordinateMode() == QGradient::ObjectMode;
        QByteArray def;
        if (gradient->type() == QGradient::LinearGradient) {
            const auto* linear = static_cast<const QLinearGradient*>(gradient);
            def = "<linearGradient" + attribute("x1", number(linear->start().x())) +
                  attribute("y1", number(linear->start().y())) +
                  attribute("x2", number(linear->finalStop().x())) +
                  attribute("y2", number(linear->finalStop().y()));
        } else {
            const auto* radial = static_cast<const QRadialGradient*>(gradient);
            def = "<radialGradient" + attribute("cx", number(radial->center().x())) +
                  attribute("cy", number(radial->center().y())) +
                  attribute("r", number(radial->radius())) +
                  attribute("fx", number(radial->focalPoint().x())) +
                  attribute("fy", number(radial->focalPoint().y()));
        }
        def += attribute("id", id) +
               attribute("gradientUnits", box ? "objectBoundingBox" : "userSpaceOnUse");
        // Shapes are in device coordinates, the gradient in the painter's.
        if (!box) def += attribute("gradientTransform", matrix(brush.transform() * transform_));
        if (gradient->spread() == QGradient::ReflectSpread)
            def += attribute("spreadMethod", "reflect");
        if (gradient->spread() == QGradient::RepeatSpread)
            def += attribute("spreadMethod", "repeat");
        def += '>';
        for (const QGradientStop& stop : gradient->stops())
            def += "<stop" + attribute("offset", number(stop.first)) +
                   attribute("stop-color", stop.second.name().toLatin1()) +
                   attribute("stop-opacity", number(stop.second.alphaF())) + "/>";
        def += gradient->type() == QGradient::LinearGradient ? "</linearGradient>\n"
                                                             : "</radialGradient>\n";
        body_ += def;
        return {"url(#" + id + ')', 1};
    }

    // Qt's hatches are 8-pixel tiles in device pixels (cosmetic), as the
    // shapes here are; its dense dot patterns become their share of ink.
    Paint pattern(const QBrush& brush) {
        static const qreal kInk[] = {0.94, 0.88, 0.63, 0.5, 0.37, 0.12, 0.06};
        const QByteArray colour = brush.color().name().toLatin1();
        if (brush.style() <= Qt::Dense7Pattern) {
            return {colour, kInk[brush.style() - Qt::Dense1Pattern] * brush.color().alphaF()};
        }
        QByteArray lines;
        const Qt::BrushStyle style = brush.style();
        if (style == Qt::HorPattern || style == Qt::CrossPattern) lines += "M0 0.5H8";
        if (style == Qt::VerPattern || style == Qt::CrossPattern) lines += "M0.5 0V8";
        if (style == Qt::BDiagPattern || style == Qt::DiagCrossPattern)
            lines += "M-1 9L9 -1M-1 1L1 -1M7 9L9 7";
        if (style == Qt::FDiagPattern || style == Qt::DiagCrossPattern)
            lines += "M-1 -1L9 9M-1 7L1 9M7 -1L9 1";
        const QByteArray id = "p" + QByteArray::number(++ids_);
        body_ +=
            "<defs><pattern" + attribute("id", id) + attribute("patternUnits", "userSpaceOnUse") +
            attribute("width", "8") + attribute("height", "8") + "><path" + attribute("d", lines) +
            attribute("stroke", colour) +
            opacityAttribute(brush.color().alphaF(), "stroke-opacity") +
            attribute("stroke-width", "1") + attribute("fill", "none") + "/></pattern></defs>\n";
        return {"url(#" + id + ')', 1};
    }

    // A texture brush: its image as a pattern tile, in the painter's coordinates.
    Paint texture(const QBrush& brush) {
        const QImage tile = brush.textureImage();
        if (tile.isNull()) return {brush.color().name().toLatin1(), brush.color().alphaF()};
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        tile.save(&buffer, "PNG");
        const QByteArray id = "p" + QByteArray::number(++ids_);
        body_ += "<defs><pattern" + attribute("id", id) +
                 attribute("patternUnits", "userSpaceOnUse") +
                 attribute("width", QByteArray::number(tile.width())) +
                 attribute("height", QByteArray::number(tile.height())) +
                 attribute("patternTransform", matrix(brush.transform() * transform_)) + "><image" +
                 attribute("width", QByteArray::number(tile.width())) +
                 attribute("height", QByteArray::number(tile.height())) +
                 attribute("xlink:href", "data:image/png;base64," + png.toBase64()) +
                 "/></pattern></defs>\n";
        return {"url(#" + id + ')', 1};
    }

    QByteArray strokeAttributes() const {
        const qreal width = strokeWidth();
        QByteArray attributes = attribute("stroke", pen_.color().name().toLatin1()) +
                                opacityAttribute(pen_.color().alphaF(), "stroke-opacity") +
                                attribute("stroke-width", number(width));
        // Qt draws a cosmetic pen's dashes without caps (a dotted grid line
        // is one pixel on, two off); SVG would widen each by its caps.
        const bool dashed = pen_.style() != Qt::SolidLine;
        switch (dashed && pen_.isCosmetic() ? Qt::FlatCap : pen_.capStyle()) {
            case Qt::FlatCap:
                attributes += attribute("stroke-linecap", "butt");
                break;
            case Qt::RoundCap:
                attributes += attribute("stroke-linecap", "round");
                break;
            default:
                attributes += attribute("stroke-linecap", "square");
                break;
        }
        switch (pen_.joinStyle()) {
            case Qt::RoundJoin:
                attributes += attribute("stroke-linejoin", "round");
                break;
            case Qt::BevelJoin:
                attributes += attribute("stroke-linejoin", "bevel");
                break;
            default:
                attributes += attribute("stroke-linejoin", "miter") +
                              attribute("stroke-miterlimit", number(pen_.miterLimit()));
        }
        if (dashed) {
            QByteArray dashes;
            for (const qreal dash : pen_.dashPattern()) dashes += number(dash * width) + ' ';
            if (!dashes.isEmpty()) attributes += attribute("stroke-dasharray", dashes.trimmed());
            if (pen_.dashOffset() != 0)
                attributes += attribute("stroke-dashoffset", number(pen_.dashOffset() * width));
        }
        return attributes;
    }

    // The painter's opacity times `alpha`, when it is not opaque.
    QByteArray opacityAttribute(qreal alpha, const char* name = "opacity") const {
        const qreal value = alpha * opacity_;
        return value < 0.999 ? attribute(name, number(value)) : QByteArray();
    }

    // The clip in effect now, in device coordinates; false if there is none.
    bool currentClip(QPainterPath* clip) {
        if (painterClipDirty_) {
            const QPainter* p = painter();
            painterClipOn_ = p && p->hasClipping();
            painterClip_ = painterClipOn_ ? transform_.map(p->clipPath()) : QPainterPath();
            painterClipDirty_ = false;
            combinedDirty_ = true;
        }
        const QRegion system = systemClip();
        if (system != systemClip_) {
            systemClip_ = system;
            combinedDirty_ = true;
        }
        if (combinedDirty_) {
            combined_ = QPainterPath();
            combinedOn_ = !systemClip_.isEmpty() || painterClipOn_;
            QPainterPath systemPath;
            systemPath.addRegion(systemClip_);
            if (systemClip_.isEmpty())
                combined_ = painterClip_;
            else if (!painterClipOn_)
                combined_ = systemPath;
            else if (systemClip_.rectCount() == 1 && isRect(painterClip_))
                combined_.addRect(QRectF(systemClip_.boundingRect()) & painterClip_.boundingRect());
            else
                combined_ = systemPath.intersected(painterClip_);
            combinedDirty_ = false;
        }
        *clip = combined_;
        return combinedOn_;
    }

    // Puts what is drawn next in the group of its clip (a new group when
    // the clip changed); false when the clip leaves nothing to draw.
    bool openClipGroup() {
        QPainterPath clip;
        const bool clipped = currentClip(&clip);
        if (clipped && clip.boundingRect().isEmpty()) return false;
        if (groupOpen_ && groupClipped_ == clipped && (!clipped || clip == groupClip_)) return true;
        closeClipGroup();
        if (!clipped) return true;
        const QByteArray id = "c" + QByteArray::number(++ids_);
        // In <defs>: a renderer that knows no clip paths (Qt's own, SVG Tiny)
        // skips them rather than drawing their rectangles.
        body_ += "<defs><clipPath" + attribute("id", id) + '>' +
                 (isRect(clip) ? "<rect" + attribute("x", number(clip.boundingRect().x())) +
                                     attribute("y", number(clip.boundingRect().y())) +
                                     attribute("width", number(clip.boundingRect().width())) +
                                     attribute("height", number(clip.boundingRect().height()))
                               : "<path" + attribute("d", pathData(clip))) +
                 "/></clipPath></defs>\n<g" + attribute("clip-path", "url(#" + id + ')') + ">\n";
        groupOpen_ = true;
        groupClipped_ = true;
        groupClip_ = clip;
        return true;
    }

    void closeClipGroup() {
        if (groupOpen_ && groupClipped_) body_ += "</g>\n";
        groupOpen_ = false;
        groupClipped_ = false;
    }

    const int dpi_;
    QPen pen_;
    QBrush brush_;
    QTransform transform_;
    qreal opacity_ = 1;
    bool crisp_ = true;
    bool painterClipDirty_ = true;
    bool painterClipOn_ = false;
    QPainterPath painterClip_;
    QRegion systemClip_;
    bool combinedDirty_ = true;
    bool combinedOn_ = false;
    QPainterPath combined_;
    bool groupOpen_ = false;
    bool groupClipped_ = false;
    QPainterPath groupClip_;
    int ids_ = 0;
    QByteArray body_;
};

SvgPaintDevice::SvgPaintDevice(const QSize& size, int dpi, const QString& title,
                               const QString& description)
    : size_(size),
      dpi_(dpi),
      title_(escaped(title)),
      description_(escaped(description)),
      engine_(std::make_unique<SvgPaintEngine>(dpi)) {}

SvgPaintDevice::~SvgPaintDevice() = default;

QPaintEngine* SvgPaintDevice::paintEngine() const {
    return engine_.get();
}

QByteArray SvgPaintDevice::document() const {
    const QByteArray width = QByteArray::number(size_.width());
    const QByteArray height = QByteArray::number(size_.height());
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" "
           "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\"" +
           attribute("width", width) + attribute("height", height) +
           attribute("viewBox", "0 0 " + width + ' ' + height) + ">\n<title>" + title_ +
           "</title>\n<desc>" + description_ + "</desc>\n" + engine_->body() + "</svg>\n";
}

int SvgPaintDevice::metric(PaintDeviceMetric metric) const {
    switch (metric) {
        case PdmWidth:
            return size_.width();
        case PdmHeight:
            return size_.height();
        case PdmWidthMM:
            return qRound(size_.width() * 25.4 / dpi_);
        case PdmHeightMM:
            return qRound(size_.height() * 25.4 / dpi_);
        case PdmNumColors:
            return 0xffffff;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return dpi_;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(devicePixelRatioFScale());
        default:
            return QPaintDevice::metric(metric);
    }
}

}  // namespace hsdp
