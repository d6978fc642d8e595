// SPDX-License-Identifier: Apache-2.0
#include "buffer_layout/buffer_layout_canvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPicture>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace hsdp {

namespace {

constexpr double kPictureMargin = 12;  // under a fitted picture's content (the scene's margin)

QColor textOn(const QColor& fill) {
    return fill.lightnessF() > 0.6 ? Qt::black : Qt::white;
}

// The first label that fits whole, else the first elided to at least 8 characters.
QString fittingLabel(const QStringList& labels, const QFontMetrics& metrics, double width) {
    for (const QString& l : labels)
        if (metrics.horizontalAdvance(l) <= width) return l;
    if (labels.isEmpty()) return {};
    const QString elided = metrics.elidedText(labels.front(), Qt::ElideRight, int(width));
    return elided.size() >= 8 ? elided : QString();
}

void paintHatch(QPainter& painter, const QRectF& rect) {
    painter.fillRect(rect, bufferPaddingBase());
    QBrush hatch(bufferHatchColor(), Qt::BDiagPattern);
    painter.fillRect(rect, hatch);
}

}  // namespace

BufferLayoutCanvas::BufferLayoutCanvas(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection) {
    setMouseTracking(true);
    setMinimumSize(320, 160);
}

void BufferLayoutCanvas::setLayout(std::optional<BufferLayout> layout, const QString& message) {
    layout_ = std::move(layout);
    message_ = message;
    update();
}

BufferScene BufferLayoutCanvas::scene(const QSize& size) const {
    return layout_ ? buildBufferScene(*layout_, size) : BufferScene{};
}

void BufferLayoutCanvas::paint(QPainter& painter, const QSize& size) const {
    painter.fillRect(QRect(QPoint(0, 0), size), palette().base());
    painter.setPen(palette().text().color());
    if (!layout_) {
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    const BufferScene s = scene(size);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (const auto& t : s.texts) {
        QFont font = painter.font();
        font.setBold(t.bold);
        painter.setFont(font);
        const int align = t.align ? t.align : int(Qt::AlignLeft | Qt::AlignVCenter);
        painter.drawText(t.rect, align, bufferTextShown(t, painter.fontMetrics()));
    }
    painter.setFont(QFont(painter.font().family(), painter.font().pointSize()));
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(QColor(0x70, 0x70, 0x70, 150), 1.0));
    for (const auto& l : s.links) painter.drawLine(l);
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintShapes(painter, s);
    paintLegend(painter, s.legend);
}

void BufferLayoutCanvas::paintShapes(QPainter& painter, const BufferScene& scene) const {
    const auto& metrics = painter.fontMetrics();
    for (const auto& shape : scene.shapes) {
        if (shape.kind == BufferShape::Padding) {
            paintHatch(painter, shape.rect);
            continue;
        }
        if (shape.kind == BufferShape::Block) {  // a peer's block: its segments paint inside
            painter.fillRect(shape.rect, palette().alternateBase());
            painter.setPen(QPen(palette().text().color(), 1));
            painter.drawRect(shape.rect.adjusted(0, 0, -1, -1));
            continue;
        }
        QColor fill = bufferParamColor(layout_->colourOf(shape.param));
        if (shape.kind == BufferShape::Rows && shape.rank % 2)
            fill = fill.darker(118);  // neighbouring members' rows stay apart
        painter.fillRect(shape.rect, fill);
        painter.setPen(QPen(fill.darker(140), 1));
        painter.drawRect(shape.rect.adjusted(0, 0, -1, -1));
        const QString label = fittingLabel(shape.labels, metrics, shape.rect.width() - 6);
        if (label.isEmpty() || shape.rect.height() < metrics.height()) continue;
        painter.setPen(textOn(fill));
        painter.drawText(shape.rect.adjusted(3, 0, -3, 0), Qt::AlignCenter, label);
    }
}

// The bottom of the scene's buffers and texts, and of its legend given all
// the height it wants.
double BufferLayoutCanvas::contentBottom(const QSize& size) const {
    const BufferScene s = scene(size);
    double bottom = 0;
    for (const auto& shape : s.shapes) bottom = std::max(bottom, shape.rect.bottom());
    for (const auto& text : s.texts) bottom = std::max(bottom, text.rect.bottom());
    QPicture scratch;
    QPainter painter(&scratch);
    return std::max(
        bottom, paintLegend(painter, QRectF(s.legend.topLeft(), QSizeF(s.legend.width(), 1e6))));
}

QSize BufferLayoutCanvas::fittedSize(const QSize& size) const {
    if (!layout_) return size;
    QSize fitted = size;
    // Twice: a shorter picture may give the slots' rows a little less room.
    for (int pass = 0; pass < 2; ++pass)
        fitted.setHeight(std::min(
            size.height(), static_cast<int>(std::ceil(contentBottom(fitted) + kPictureMargin))));
    return fitted;
}

// The legend fits `area`: its title wraps rather than being cut, and the
// params give way ("… N more") to what ends it, the padding swatch and the
// note on the cut lines, measured at the area's width (a fixed allowance
// cut the note's last lines off in the report's picture).
double BufferLayoutCanvas::paintLegend(QPainter& painter, const QRectF& area) const {
    QFont bold = painter.font();
    bold.setBold(true);
    const QFont plain = painter.font();
    const auto& metrics = painter.fontMetrics();
    constexpr int kWrapped = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    double y = area.top();
    painter.setPen(palette().text().color());
    painter.setFont(bold);
    const QString title = (layout_->shrunk() ? tr("Parameters (rank %1's bytes, shrunk run)")
                                             : tr("Parameters (rank %1's bytes)"))
                              .arg(layout_->rank);
    const double titleHeight = std::max(
        18.0,
        painter.boundingRect(QRectF(area.left(), y, area.width(), 1e6), kWrapped, title).height());
    painter.drawText(QRectF(area.left(), y, area.width(), titleHeight),
                     Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, title);
    painter.setFont(plain);
    y += titleHeight + 4;
    const double line = metrics.height() + 2;
    const QString cutNote =
        tr("Lines: each rank's slot (top to bottom) becomes these rows of the gathered piece, as "
           "the engine cuts it");
    const double noteHeight =
        layout_->cut
            ? painter.boundingRect(QRectF(area.left(), 0, area.width(), 1e6), kWrapped, cutNote)
                  .height()
            : 0.0;
    const double tail = 6 + line + 4 + noteHeight;  // the padding swatch and the note
    for (size_t i = 0; i < layout_->params.size(); ++i) {
        const int p = layout_->params[i];
        double entry = line + 3;
        for (const auto& s : layout_->send.segments)
            if (s.param == p) entry += line;
        const bool last = i + 1 == layout_->params.size();
        if (y + entry + (last ? 0 : line) + tail > area.bottom()) {
            painter.drawText(QRectF(area.left(), y, area.width(), line), Qt::AlignLeft,
                             tr("… %1 more").arg(layout_->params.size() - i));
            y += line;
            break;
        }
        painter.fillRect(QRectF(area.left(), y + 2, 14, 14), bufferParamColor(layout_->colours[i]));
        painter.setPen(palette().text().color());
        painter.drawText(QRectF(area.left() + 20, y, area.width() - 20, line),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(QString::fromStdString(layout_->paramNames[i]),
                                            Qt::ElideMiddle, int(area.width()) - 20));
        y += line;
        for (const auto& s : layout_->send.segments)
            if (s.param == p) {
                painter.setPen(palette().placeholderText().color());
                painter.drawText(QRectF(area.left() + 20, y, area.width() - 20, line),
                                 Qt::AlignLeft | Qt::AlignVCenter,
                                 metrics.elidedText(tr("%L1 B + %L2 B padding @ %L3")
                                                        .arg(s.length)
                                                        .arg(s.padding)
                                                        .arg(s.offset),
                                                    Qt::ElideRight, int(area.width()) - 20));
                y += line;
            }
        y += 3;
    }
    y += 6;
    paintHatch(painter, QRectF(area.left(), y + 2, 14, 14));
    painter.setPen(palette().text().color());
    painter.drawText(QRectF(area.left() + 20, y, area.width() - 20, line),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(tr("alignment padding (never read)"), Qt::ElideRight,
                                        int(area.width()) - 20));
    y += line + 4;
    if (layout_->cut) {
        QRectF drawn;
        painter.drawText(QRectF(area.left(), y, area.width(), noteHeight), kWrapped, cutNote,
                         &drawn);
        y = drawn.bottom();
    }
    return y;
}

double BufferLayoutCanvas::legendBottom(const QSize& size) const {
    if (!layout_) return 0;
    QPicture scratch;
    QPainter painter(&scratch);
    return paintLegend(painter, scene(size).legend);
}

const BufferShape* BufferLayoutCanvas::shapeAt(const BufferScene& scene, const QPointF& pos) const {
    for (auto it = scene.shapes.rbegin(); it != scene.shapes.rend(); ++it)
        if (it->rect.contains(pos)) return &*it;
    return nullptr;
}

QImage BufferLayoutCanvas::renderImage(const QSize& size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    paint(painter, size);
    return image;
}

void BufferLayoutCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paint(painter, size());
}

void BufferLayoutCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (!layout_ || !selection_ || event->button() != Qt::LeftButton) return;
    const BufferScene s = scene(size());
    const BufferShape* shape = shapeAt(s, event->position());
    if (!shape || shape->param < 0) return;
    // The layout's positions are of the plan its run ran.
    SelectionState state = selection_->stateFor(plan_);
    state.params = {shape->param};
    state.group = groupPosition_;
    state.batch = layout_->batch;
    state.collective = layout_->seq;
    selection_->set(state, plan_);
}

bool BufferLayoutCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && layout_) {
        auto* help = static_cast<QHelpEvent*>(event);
        const BufferScene s = scene(size());
        if (const BufferShape* shape = shapeAt(s, help->pos())) {
            QToolTip::showText(help->globalPos(), shape->tip, this);
            return true;
        }
        // A heading drawn shorter (or elided): its whole text.
        for (const BufferText& t : s.texts) {
            if (!t.rect.contains(help->pos())) continue;
            QFont font = this->font();
            font.setBold(t.bold);
            if (bufferTextShown(t, QFontMetrics(font)) == t.text) break;
            QToolTip::showText(help->globalPos(), t.text, this);
            return true;
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

}  // namespace hsdp
