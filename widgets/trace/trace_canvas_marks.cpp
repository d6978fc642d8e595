// SPDX-License-Identifier: Apache-2.0
// TraceCanvas's marks of what went wrong: the steps whose result
// verification found wrong, where a failed run's rank stopped, and where a
// cancelled run's trace ends.
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "derived/run/run_index.h"
#include "painting/trace_palette.h"
#include "trace/trace_canvas.h"

namespace hsdp {

namespace {

const QColor kCancelColour(0x22, 0x22, 0x22);  // the line where a cancelled run stops

}  // namespace

QRect TraceCanvas::faultMarkOf(int index, const QSize& size) const {
    if (!timeline_ || index < 0 || index >= timeline_->eventCount()) return {};
    const TraceEvent& e = timeline_->event(index);
    if (isCompute(e) || !faults().count(e.seq)) return {};
    const int row = timeline_->rowOfRank(e.rank);
    if (row < 0) return {};
    const double h = rowHeight(size);
    const double top = rowTop(row, size);  // or its folded group's summary line
    if (top + h < kHeader || top > size.height()) return {};
    const TimeAxis axis = axisFor(size);
    const double x0 = axis.x(e.startUs), x1 = axis.x(e.endUs);
    if (x1 < kGutter || x0 > size.width()) return {};
    // As the bars lie (paintRows): the lower half of the bar, never thinner
    // than 3 pixels nor narrower than kFaultMarkWidth.
    const double gap = h >= 8 ? 2 : h >= 5 ? 1 : 0;
    const int barTop = static_cast<int>(std::round(top + gap));
    const int barHeight = std::max(1, static_cast<int>(std::round(h - 2 * gap)));
    const int markHeight = std::min(barHeight, std::max(3, barHeight / 2));
    const double mid = (x0 + x1) / 2;
    const double width = std::max<double>(x1 - x0, kFaultMarkWidth);
    const int left = static_cast<int>(std::floor(mid - width / 2));
    return QRect(left, barTop + barHeight - markHeight,
                 std::max(kFaultMarkWidth, static_cast<int>(std::ceil(mid + width / 2)) - left),
                 markHeight);
}

// Every participant of a wrong collective: its mark over the bar, however
// narrow the bar is at this zoom.
void TraceCanvas::paintFaults(QPainter& painter, const QSize& size) const {
    if (faults().empty()) return;
    std::vector<QRect> marks;
    for (const auto& [seq, wrong] : faults())
        for (int index : timeline_->eventsOfSeq(seq))
            if (const QRect mark = faultMarkOf(index, size); !mark.isEmpty()) marks.push_back(mark);
    painter.save();
    painter.setPen(Qt::NoPen);
    painter.setBrush(traceFaultColour());
    painter.drawRects(marks.data(), static_cast<int>(marks.size()));
    painter.restore();
}

std::optional<double> TraceCanvas::cancelMarkX(const QSize& size) const {
    if (!timeline_ || timeline_->isEmpty() || !run_.isValid() || !run_.run->cancelled) return {};
    return axisFor(size).x(timeline_->endUs());
}

QRect TraceCanvas::failureMarkOf(const QSize& size) const {
    if (!timeline_ || !run_.isValid() || run_.run->error.empty() || run_.run->errorRank < 0 ||
        run_.run->cancelled)
        return {};
    const int row = timeline_->rowOfRank(run_.run->errorRank);
    if (row < 0) return {};
    const TraceTimeline::Row& r = timeline_->row(row);
    const double stoppedUs =
        r.end.empty() ? timeline_->beginUs() : *std::max_element(r.end.begin(), r.end.end());
    const double h = rowHeight(size);
    const double top = rowTop(row, size);
    if (top + h < kHeader || top > size.height()) return {};
    const int x = static_cast<int>(std::round(axisFor(size).x(stoppedUs))) + 1;
    return QRect(x, static_cast<int>(std::floor(top)), kFailureMarkWidth,
                 std::max(3, static_cast<int>(std::floor(h))));
}

void TraceCanvas::paintFailure(QPainter& painter, const QSize& size) const {
    if (const auto x = cancelMarkX(size)) {
        // A cancelled run's trace stops where the cancel reached the ranks:
        // a partial trace read as a whole run.
        painter.save();
        painter.setPen(QPen(kCancelColour, 2, Qt::DashLine));
        painter.drawLine(QPointF(*x, kHeader), QPointF(*x, size.height()));
        QFont bold = painter.font();
        bold.setBold(true);
        painter.setFont(bold);
        const QString text = tr("■ run cancelled here: no event after this");
        const double width = painter.fontMetrics().horizontalAdvance(text) + 8;
        const QRectF label(std::max<double>(kGutter + 2, *x - width - 4), kHeader + 2, width, 18);
        painter.fillRect(label, QColor(255, 255, 255, 220));
        painter.drawText(label, Qt::AlignCenter, text);
        painter.restore();
    }
    const QRect mark = failureMarkOf(size);
    if (mark.isEmpty()) return;
    painter.fillRect(mark, traceFaultColour());
    if (mark.height() < painter.fontMetrics().height()) return;
    painter.save();
    painter.setPen(traceFaultColour());
    QFont bold = painter.font();
    bold.setBold(true);
    painter.setFont(bold);
    const QRect label = failureLabelOf(size);
    painter.fillRect(label, QColor(255, 255, 255, 220));
    painter.drawText(label, Qt::AlignCenter, failureLabelText());
    painter.restore();
}

QString TraceCanvas::failureLabelText() {
    return tr("✗ failed here");
}

// Right of the mark, or left of it where the canvas ends first (it read "✗ faile").
QRect TraceCanvas::failureLabelOf(const QSize& size) const {
    const QRect mark = failureMarkOf(size);
    if (mark.isEmpty()) return {};
    QFont bold = font();
    bold.setBold(true);
    const int width = QFontMetrics(bold).horizontalAdvance(failureLabelText()) + 6;
    const bool fitsRight = mark.right() + 4 + width <= size.width() - 2;
    return fitsRight ? QRect(mark.right() + 4, mark.top(), width, mark.height())
                     : QRect(mark.left() - 4 - width, mark.top(), width, mark.height());
}

}  // namespace hsdp
