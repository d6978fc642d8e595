// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_canvas.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "derived/run/run_index.h"
#include "derived/run/run_status_text.h"
#include "types/figures.h"
#include "types/mesh.h"

#include "derived/run/step_caption.h"
#include "painting/trace_palette.h"
#include "run/shrink.h"

namespace hsdp {

namespace {

const QColor kBand(0xf4, 0xf5, 0xf7);
const QColor kRule(0xc8, 0xcc, 0xd2);
const QColor kText(0x33, 0x33, 0x33);
const QColor kHighlight(0x11, 0x11, 0x11);
constexpr double kPickPixels = 3.0;

// 1, 2, 5 x 10^k microseconds: about one tick per `pixels`.
double niceStep(double range, double width, double pixels) {
    double raw = range / std::max(1.0, width / pixels);
    double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * magnitude) return m * magnitude;
    return 10 * magnitude;
}

QString timeText(double us, double step) {
    if (step >= 1e5) return QStringLiteral("%1 s").arg(us * 1e-6, 0, 'f', step >= 1e6 ? 0 : 1);
    if (step >= 100) return QStringLiteral("%1 ms").arg(us * 1e-3, 0, 'f', step >= 1e3 ? 0 : 1);
    return QStringLiteral("%1 µs").arg(us, 0, 'f', step >= 1 ? 0 : 2);
}

}  // namespace

TraceCanvas::TraceCanvas(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection) {
    setMouseTracking(true);
    setMinimumSize(300, 120);
    setFocusPolicy(Qt::StrongFocus);
    if (selection_)
        connect(selection_, &PlanSelection::changed, this, &TraceCanvas::onSelectionChanged);
}

void TraceCanvas::setRun(const RunData& run, std::shared_ptr<const TraceTimeline> timeline) {
    run_ = run;
    real_ = run.isValid() ? realScale(*run.plan.scenario, run.run->shrink) : RealScale{};
    std::shared_ptr<const RunIndex> index;
    if (run.isValid() && (!timeline || run.index)) index = runIndexOf(run);
    if (!timeline && index) timeline = index->timeline;
    faults_ = index ? std::shared_ptr<const StepFaults>(index, &index->faults) : nullptr;
    std::shared_ptr<const Mesh> mesh;
    if (run.isValid())
        for (const Mesh& m : run.plan.scenario->meshes)
            if (m.size() == run.run->worldSize && !mesh) mesh = std::make_shared<const Mesh>(m);
    nodes_ = run.isValid() ? nodeMapOf(run.plan) : NodeMap{};
    setTimeline(run.isValid() ? std::move(timeline) : nullptr, std::move(mesh));
}

void TraceCanvas::setTimeline(std::shared_ptr<const TraceTimeline> timeline,
                              std::shared_ptr<const Mesh> mesh) {
    const int before = timeline_ ? timeline_->rowCount() : -1;
    timeline_ = std::move(timeline);
    mesh_ = std::move(mesh);
    scrollY_ = 0;
    const int rows = timeline_ ? timeline_->rowCount() : 0;
    // A grouping the user chose stays for another run of the world it was made for.
    if (!groupingChosen_ || rows != before || !canGroup(grouping_, groupingContext())) {
        groupingChosen_ = false;
        grouping_ = defaultRankGrouping(rows, mesh_.get());
    }
    regroup();
    fit();
    onSelectionChanged();
}

const StepFaults& TraceCanvas::faults() const {
    static const StepFaults none;
    return faults_ ? *faults_ : none;
}

void TraceCanvas::setColouring(TraceColouring colouring) {
    colouring_ = colouring;
    update();
}

void TraceCanvas::scrollRows(double pixels) {
    if (!timeline_) return;
    const double total = layout_.lineCount() * rowHeight(size());
    const double room = std::max(0.0, total - (height() - kHeader));
    scrollY_ = std::clamp(scrollY_ + pixels, 0.0, room);
    update();
}

TimeAxis TraceCanvas::axisFor(const QSize& size) const {
    return TimeAxis{t0_, t1_, static_cast<double>(kGutter),
                    std::max(1.0, static_cast<double>(size.width() - kGutter - 8))};
}

double TraceCanvas::rowHeight(const QSize& size) const {
    const int rows = std::max(1, layout_.lineCount());
    const double fitted = static_cast<double>(size.height() - kHeader - 4) / rows;
    return std::clamp(fitted, 3.0, static_cast<double>(kMaxRowHeight));
}

int TraceCanvas::fittedHeight(int height) const {
    if (!timeline_ || timeline_->isEmpty()) return height;
    const int lines = std::max(1, layout_.lineCount());
    const double row =
        std::clamp(static_cast<double>(height - kHeader - 4) / lines,
                   static_cast<double>(kMinPictureRowHeight), static_cast<double>(kMaxRowHeight));
    return kHeader + 4 + static_cast<int>(std::ceil(lines * row));
}

double TraceCanvas::rowTop(int row, const QSize& size) const {
    const int line = layout_.lineOfRow(row);
    return lineTop(line >= 0 ? line : row, size);  // past the last row: below it
}

double TraceCanvas::lineTop(int line, const QSize& size) const {
    return kHeader + line * rowHeight(size) - scrollY_;
}

int TraceCanvas::lineAt(double y, const QSize& size) const {
    if (y < kHeader) return -1;
    const int line = static_cast<int>(std::floor((y - kHeader + scrollY_) / rowHeight(size)));
    return line >= 0 && line < layout_.lineCount() ? line : -1;
}

int TraceCanvas::eventAt(const QPointF& pos, const QSize& size) const {
    if (!timeline_ || pos.x() < kGutter || pos.y() < kHeader) return -1;
    const int line = lineAt(pos.y(), size);
    if (line < 0 || layout_.line(line).isSummary()) return -1;  // a summary is no one event
    const TimeAxis axis = axisFor(size);
    return timeline_->eventNear(layout_.line(line).row, axis.time(pos.x()),
                                kPickPixels * axis.usPerPixel());
}

QPointF TraceCanvas::eventCentre(int index, const QSize& size) const {
    const TraceEvent& e = timeline_->event(index);
    const TimeAxis axis = axisFor(size);
    const int row = timeline_->rowOfRank(e.rank);
    return {axis.x((e.startUs + e.endUs) / 2), rowTop(row, size) + rowHeight(size) / 2};
}

void TraceCanvas::onSelectionChanged() {
    if (grouping_.kind == RankGroupingKind::Selection) regroup();
    expandSelectedRanks();
    const int64_t seq = matchingSeq(selection_ ? selection_->collective() : -1);
    if (seq == seq_) return;
    seq_ = seq;
    bringIntoView(seq_);
    update();
}

// A selected collective is a seq of the run it was picked in; a prediction
// (or a shrunk run, whose broadcasts take other chunk counts) numbers its
// collectives otherwise, and its seq is another collective here: the two
// panes of a run outlined different ranks. The seq stands where its group
// is the selected ranks; else the collective here of those ranks that
// carries the selected params; else none.
int64_t TraceCanvas::matchingSeq(int64_t seq) const {
    if (!timeline_ || seq < 0 || !selection_ || selection_->ranks().empty()) return seq;
    std::vector<int> ranks = selection_->ranks();
    std::sort(ranks.begin(), ranks.end());
    const auto sameGroup = [&](const TraceEvent& e) { return sortedGroupRanks(e) == ranks; };
    const auto& here = timeline_->eventsOfSeq(seq);
    if (!here.empty() && sameGroup(timeline_->event(here.front()))) return seq;
    std::vector<int> params = selection_->params();
    std::sort(params.begin(), params.end());
    for (int i = 0; i < timeline_->eventCount(); ++i) {
        const TraceEvent& e = timeline_->event(i);
        if (isCompute(e) || !sameGroup(e)) continue;
        std::vector<int> carried = e.label.params;
        std::sort(carried.begin(), carried.end());
        if (carried == params) return e.seq;
    }
    return -1;
}

void TraceCanvas::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ShiftModifier)
        scrollRows(-event->angleDelta().y() / 4.0);
    else
        zoomAround(event->angleDelta().y() > 0 ? 1.25 : 1 / 1.25, event->position().x());
    event->accept();
}

void TraceCanvas::mousePressEvent(QMouseEvent* event) {
    dragStart_ = event->position();
    t0AtDrag_ = t0_;
    scrollAtDrag_ = scrollY_;
    dragging_ = false;
}

void TraceCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    const QPointF delta = event->position() - dragStart_;
    dragging_ = dragging_ || delta.manhattanLength() > 4;
    if (!dragging_) return;
    const double shift = -delta.x() * axisFor(size()).usPerPixel();
    setWindow(t0AtDrag_ + shift, t0AtDrag_ + shift + (t1_ - t0_));
    scrollY_ = scrollAtDrag_;
    scrollRows(-delta.y());
    setCursor(Qt::ClosedHandCursor);
}

void TraceCanvas::mouseReleaseEvent(QMouseEvent* event) {
    unsetCursor();
    if (dragging_ || !timeline_ || toggleGroupAt(event->position())) return;
    if (!selection_) return;
    const int index = eventAt(event->position(), size());
    if (index < 0) return;
    const TraceEvent& e = timeline_->event(index);
    if (isCompute(e)) {  // no collective: its rank and the params it worked on
        selection_->selectCollective(-1, {e.rank}, e.label.params, run_.plan);
        return;
    }
    selection_->selectCollective(e.seq, e.groupRanks, e.label.params, run_.plan);
}

void TraceCanvas::keyPressEvent(QKeyEvent* event) {
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
        case Qt::Key_Left:
            panBy(-0.1);
            break;
        case Qt::Key_Right:
            panBy(0.1);
            break;
        case Qt::Key_Up:
            scrollRows(-rowHeight(size()) * 2);
            break;
        case Qt::Key_Down:
            scrollRows(rowHeight(size()) * 2);
            break;
        case Qt::Key_Equal:
        case Qt::Key_Plus:
            if (ctrl)
                zoomIn();
            else
                QWidget::keyPressEvent(event);
            break;
        case Qt::Key_Minus:
            if (ctrl)
                zoomOut();
            else
                QWidget::keyPressEvent(event);
            break;
        case Qt::Key_0:
            if (ctrl)
                fit();
            else
                QWidget::keyPressEvent(event);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

bool TraceCanvas::event(QEvent* event) {
    // The window's View menu zooms the mesh with Ctrl+=/-/0; with the focus
    // here they zoom the timeline instead.
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        const bool zoomKey = key->key() == Qt::Key_Equal || key->key() == Qt::Key_Plus ||
                             key->key() == Qt::Key_Minus || key->key() == Qt::Key_0;
        if ((key->modifiers() & Qt::ControlModifier) && zoomKey) {
            event->accept();
            return true;
        }
    }
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int line = timeline_ ? lineAt(help->pos().y(), size()) : -1;
    if (line >= 0 && layout_.line(line).isSummary()) {
        const double t = axisFor(size()).time(std::max<double>(help->pos().x(), kGutter));
        QToolTip::showText(help->globalPos(), groupToolTipFor(layout_.line(line).group, t), this);
        return true;
    }
    if (const QRect failed = failureMarkOf(size());
        !failed.isEmpty() && failed.adjusted(-3, 0, 80, 0).contains(help->pos())) {
        QToolTip::showText(help->globalPos(),
                           QStringLiteral("<b style=\"color:%1\">✗ rank %2 failed here:</b> %3")
                               .arg(traceFaultColour().name())
                               .arg(run_.run->errorRank)
                               .arg(QString::fromStdString(run_.run->error).toHtmlEscaped()),
                           this);
        return true;
    }
    const int index = eventAt(help->pos(), size());
    if (index < 0) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), toolTipFor(index), this);
    }
    return true;
}

namespace {

// "Newton–Schulz" for "newton_schulz": what a compute span did, in words.
QString computeKindText(const std::string& op) {
    if (op == "newton_schulz") return QStringLiteral("Newton–Schulz");
    if (op == "pack") return QStringLiteral("pack (shards into the gather's send slot)");
    if (op == "unpack") return QStringLiteral("unpack (the gathered buffer into full matrices)");
    if (op == "update") return QStringLiteral("update (slice, param −= lr·update)");
    return QString::fromStdString(op);
}

// "<br>schedule entry 3 · group 2 · batch 1": only the places that apply (a
// param's local compute outside any group has none, and -1 means nothing to
// a reader). "schedule entry", not "step": the CLI's word for the plan's
// schedule, where the studio's steps walk collectives.
QString placeLine(const CollectiveLabel& label, bool withScheduleEntry) {
    QStringList parts;
    if (withScheduleEntry && label.scheduleIndex >= 0)
        parts << QStringLiteral("schedule entry %1").arg(label.scheduleIndex);
    if (label.group >= 0) parts << QStringLiteral("group %1").arg(label.group);
    if (label.batch >= 0) parts << QStringLiteral("batch %1").arg(label.batch);
    return parts.isEmpty() ? QString() : QStringLiteral("<br>") + parts.join(QStringLiteral(" · "));
}

// A compute span moves nothing: what it is, on which params, how long.
QString computeToolTip(const TraceEvent& e, const QString& params) {
    return QStringLiteral("<b>%1</b> (%2)<br>rank %3<br>params %4<br>%5%6")
        .arg(computeKindText(e.op).toHtmlEscaped(), QString::fromStdString(e.label.phase))
        .arg(e.rank)
        .arg(params, QString::fromStdString(hsdp::durationText((e.endUs - e.startUs) * 1e-6)),
             placeLine(e.label, true));
}

}  // namespace

QString TraceCanvas::toolTipFor(int index) const {
    const TraceEvent& e = timeline_->event(index);
    QString params = run_.plan.scenario
                         ? paramNamesText(e.label.params, *run_.plan.scenario).toHtmlEscaped()
                         : QString::number(e.label.params.size()) + QStringLiteral(" params");
    if (isCompute(e)) return computeToolTip(e, params);
    QString wrong;
    if (auto it = faults().find(e.seq); it != faults().end())
        wrong = QStringLiteral("<br><b style=\"color:%1\">✗ wrong result:</b> %2 %3 up wrong")
                    .arg(traceFaultColour().name(), faultNamesText(it->second).toHtmlEscaped(),
                         it->second.size() == 1 ? QStringLiteral("ends") : QStringLiteral("end"));
    return QStringLiteral(
               "<b>%1</b> (%2) &nbsp; collective %3<br>rank %4 of %5<br>"
               "sent %6 &nbsp; %7<br>%8 %9%10<br>%11%12")
        .arg(QString::fromStdString(e.op), QString::fromStdString(e.label.phase))
        .arg(collectiveIdText(e.seq))
        .arg(e.rank)
        .arg(ranksText(e.groupRanks))
        .arg(collectiveBytesText(static_cast<double>(e.bytes), e.label, &real_).toHtmlEscaped(),
             QString::fromStdString(hsdp::durationText((e.endUs - e.startUs) * 1e-6)),
             QString::fromStdString(e.label.mesh))
        .arg(e.label.meshDim >= 0 ? QStringLiteral("mesh dim %1").arg(e.label.meshDim) : QString(),
             placeLine(e.label, false), params, wrong);
}

QString TraceCanvas::rowLabel(int row) const {
    const int rank = timeline_->row(row).rank;
    const Scenario* scenario = run_.plan.scenario.get();
    if (!scenario || scenario->meshes.empty()) return QStringLiteral("rank %1").arg(rank);
    auto coord = scenario->meshes.front().coordinateOf(rank);
    QStringList parts;
    for (int64_t c : coord.value_or(Coord{})) parts << QString::number(c);
    return parts.isEmpty() ? QStringLiteral("rank %1").arg(rank)
                           : QStringLiteral("rank %1  (%2)").arg(rank).arg(parts.join(','));
}

void TraceCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintTimeline(painter, size());
}

QImage TraceCanvas::renderImage(const QSize& size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    paintTimeline(painter, size);
    return image;
}

int TraceCanvas::paintTimeline(QPainter& painter, const QSize& size) const {
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    if (!timeline_ || timeline_->isEmpty()) {
        painter.setPen(kText);
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter,
                         tr("No run yet: run the plan to see its collectives per rank."));
        return 0;
    }
    int bars = 0;
    painter.save();
    painter.setClipRect(QRect(kGutter, kHeader, size.width() - kGutter, size.height() - kHeader));
    paintRows(painter, size, bars);
    paintFaults(painter, size);
    paintFailure(painter, size);
    paintHighlight(painter, size);
    painter.restore();
    paintGutter(painter, size);
    paintAxis(painter, size);
    paintLegend(painter, size);
    return bars;
}

void TraceCanvas::paintRows(QPainter& painter, const QSize& size, int& bars) const {
    const double h = rowHeight(size);
    const TimeAxis axis = axisFor(size);
    const int first = std::max(0, static_cast<int>(std::floor(scrollY_ / h)));
    const int last = std::min(
        layout_.lineCount(), static_cast<int>(std::ceil((scrollY_ + size.height() - kHeader) / h)));
    const double gap = h >= 8 ? 2 : h >= 5 ? 1 : 0;
    for (int line = first; line < last; ++line) {
        const double top = lineTop(line, size);
        const TraceRowLayout::Line& l = layout_.line(line);
        if (l.isSummary()) {
            paintSummary(painter, l.group, top, h, axis, bars);
            continue;
        }
        const int row = l.row;
        if (line % 2) painter.fillRect(QRectF(kGutter, top, size.width() - kGutter, h), kBand);
        rowBars(*timeline_, row, axis, colouring_, bars_);
        const int y = static_cast<int>(std::round(top + gap));
        const int barHeight = std::max(1, static_cast<int>(std::round(h - 2 * gap)));
        // A one-pixel gap after each wide bar keeps back-to-back collectives apart.
        for (const BarSpan& bar : bars_) {
            const auto category = static_cast<size_t>(timeline_->categoryOf(bar.event, colouring_));
            if (category >= rectsByCategory_.size()) rectsByCategory_.resize(category + 1);
            rectsByCategory_[category].push_back(
                QRect(bar.x0, y, bar.x1 - bar.x0 - (bar.x1 - bar.x0 >= 5), barHeight));
        }
        bars += static_cast<int>(bars_.size());
    }
    // One drawRects per colour: an overview holds up to rows x width bars.
    painter.save();
    painter.setPen(Qt::NoPen);
    for (size_t category = 0; category < rectsByCategory_.size(); ++category) {
        auto& rects = rectsByCategory_[category];
        if (rects.empty()) continue;
        painter.setBrush(traceCategoryColour(static_cast<int>(category), colouring_));
        painter.drawRects(rects.data(), static_cast<int>(rects.size()));
        rects.clear();
    }
    painter.restore();
    paintGroupRules(painter, size);
}

// The selected collective on every participant: a dark frame at least a few
// pixels wide, and a thin line joining the participants.
void TraceCanvas::paintHighlight(QPainter& painter, const QSize& size) const {
    if (seq_ < 0) return;
    const auto& events = timeline_->eventsOfSeq(seq_);
    if (events.empty()) return;
    const TimeAxis axis = axisFor(size);
    const double h = rowHeight(size);
    painter.setRenderHint(QPainter::Antialiasing, true);
    double top = 1e18, bottom = -1e18, centre = 0;
    for (int index : events) {
        const TraceEvent& e = timeline_->event(index);
        const double y = rowTop(timeline_->rowOfRank(e.rank), size);  // or its group's summary
        double x0 = axis.x(e.startUs), x1 = axis.x(e.endUs);
        if (x1 - x0 < 6) {
            const double mid = (x0 + x1) / 2;
            x0 = mid - 3;
            x1 = mid + 3;
        }
        painter.setPen(QPen(kHighlight, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(x0, y + 0.5, x1 - x0, std::max(2.0, h - 1)));
        top = std::min(top, y + h / 2);
        bottom = std::max(bottom, y + h / 2);
        centre = std::max(centre, axis.x(e.startUs));
    }
    painter.setPen(QPen(kHighlight, 1, Qt::DashLine));
    painter.drawLine(QPointF(centre, top), QPointF(centre, bottom));
    painter.setRenderHint(QPainter::Antialiasing, false);
}

void TraceCanvas::paintGutter(QPainter& painter, const QSize& size) const {
    painter.fillRect(QRect(0, kHeader, kGutter, size.height() - kHeader), QColor(0xfa, 0xfa, 0xfb));
    painter.setPen(kRule);
    painter.drawLine(kGutter - 1, kHeader, kGutter - 1, size.height());
    paintLineLabels(painter, size);
    if (layout_.isGrouped()) return;  // the summary rows title the groups
    QFont bold = painter.font();
    bold.setBold(true);
    bold.setPointSizeF(7);
    painter.setFont(bold);
    painter.setPen(QColor(0x55, 0x55, 0x55));
    // Group titles run upwards in a band at the left, along their rows.
    const auto& groups = timeline_->rowGroups();
    // The painter's own metrics: a QFontMetricsF of the font alone measured it
    // narrower than it drew, and two short bands' titles ran into each other.
    const QFontMetricsF metrics = QFontMetricsF(painter.font(), painter.device());
    for (size_t g = 0; g < groups.size(); ++g) {
        const int end = g + 1 < groups.size() ? groups[g + 1].firstRow : timeline_->rowCount();
        const double top = std::max<double>(kHeader, rowTop(groups[g].firstRow, size));
        const double bottom = std::min<double>(size.height(), rowTop(end, size));
        if (bottom - top < 12) continue;
        painter.save();
        painter.translate(4, bottom);
        painter.rotate(-90);
        painter.drawText(QRectF(0, 0, bottom - top, 12), Qt::AlignCenter,
                         shortGroupTitle(groups[g].title, metrics, bottom - top - 6));
        painter.restore();
    }
}

// A group's title in `width`: cut in the middle, so that the end that
// tells the groups apart ("dp_replicate=0", "=1") stays (cut at the right,
// every band read "dp_replicate…").
QString TraceCanvas::shortGroupTitle(const QString& title, const QFontMetricsF& metrics,
                                     double width) {
    return metrics.elidedText(title, Qt::ElideMiddle, width);
}

// The time labels right of their ticks; one the canvas's right edge would
// cut ("0.9 m") is left out.
std::vector<std::pair<QRectF, QString>> TraceCanvas::axisLabels(
    const QSize& size, const QFontMetricsF& metrics) const {
    std::vector<std::pair<QRectF, QString>> labels;
    const TimeAxis axis = axisFor(size);
    const double step = niceStep(axis.t1 - axis.t0, axis.width, 110);
    for (double t = std::ceil(axis.t0 / step) * step; t <= axis.t1; t += step) {
        const double x = axis.x(t);
        const QString label = timeText(t, step);
        const double wide = metrics.horizontalAdvance(label);
        if (x + 3 >= kGutter && x + 3 + wide <= size.width() - 2)
            labels.emplace_back(QRectF(x + 3, 24, wide + 1, 14), label);
    }
    return labels;
}

std::vector<std::pair<QRectF, QString>> TraceCanvas::axisLabels(const QSize& size) const {
    QFont small = font();
    small.setPointSizeF(8);
    small.setBold(false);
    return axisLabels(size, QFontMetricsF(small));
}

void TraceCanvas::paintAxis(QPainter& painter, const QSize& size) const {
    painter.fillRect(QRect(0, 22, size.width(), kHeader - 22), Qt::white);
    const TimeAxis axis = axisFor(size);
    const double step = niceStep(axis.t1 - axis.t0, axis.width, 110);
    QFont font = painter.font();
    font.setPointSizeF(8);
    font.setBold(false);
    painter.setFont(font);
    painter.setPen(kRule);
    painter.drawLine(kGutter, kHeader - 1, size.width(), kHeader - 1);
    painter.setPen(kRule);
    for (double t = std::ceil(axis.t0 / step) * step; t <= axis.t1; t += step)
        painter.drawLine(QPointF(axis.x(t), 24), QPointF(axis.x(t), kHeader - 1));
    painter.setPen(kText);
    for (const auto& [box, label] : axisLabels(size, QFontMetricsF(font)))
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label);
    painter.setPen(kText);
    // A longer title ("predicted time since step start") is drawn smaller
    // rather than cut at the gutter's left edge.
    const QRectF title(8, 24, kGutter - 14, 16);
    const double wide = QFontMetricsF(painter.font()).horizontalAdvance(timeAxisTitle_);
    painter.save();
    if (wide > title.width()) {
        QFont smaller = painter.font();
        smaller.setPointSizeF(smaller.pointSizeF() * title.width() / wide);
        painter.setFont(smaller);
    }
    painter.drawText(title, Qt::AlignRight | Qt::AlignVCenter, timeAxisTitle_);
    painter.restore();
}

void TraceCanvas::setTimeAxisTitle(const QString& title) {
    timeAxisTitle_ = title;
    update();
}

QString TraceCanvas::summaryText() const {
    if (!timeline_) return {};
    const QString events = groupedNumber(timeline_->eventCount());
    return layout_.isGrouped()
               ? tr("%1 ranks in %2 groups · %3 spans (collectives per member, compute)")
                     .arg(groupedNumber(timeline_->rowCount()))
                     .arg(layout_.groups().size())
                     .arg(events)
               : tr("%1 ranks · %2 spans (collectives per member, compute)")
                     .arg(groupedNumber(timeline_->rowCount()), events);
}

void TraceCanvas::paintLegend(QPainter& painter, const QSize& size) const {
    painter.fillRect(QRect(0, 0, size.width(), 22), Qt::white);
    const auto& names = colouring_ == TraceColouring::Phase ? tracePhaseNames() : traceOpNames();
    QFont font = painter.font();
    font.setPointSizeF(8.5);
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    double x = kGutter;
    painter.setPen(kText);
    painter.drawText(QRectF(8, 3, kGutter - 14, 16), Qt::AlignRight | Qt::AlignVCenter,
                     colouring_ == TraceColouring::Phase ? tr("phase") : tr("op"));
    for (size_t i = 0; i < names.size(); ++i) {
        if (!timeline_->hasCategory(static_cast<int>(i), colouring_)) continue;
        painter.fillRect(QRectF(x, 6, 12, 10),
                         traceCategoryColour(static_cast<int>(i), colouring_));
        painter.drawText(QPointF(x + 16, 15), names[i]);
        x += 16 + metrics.horizontalAdvance(names[i]) + 14;
    }
    if (!faults().empty()) {  // the mark: the lower part of a bar
        const QString wrong = tr("wrong result");
        painter.fillRect(QRectF(x, 6, 12, 6), QColor(0x9d, 0x9d, 0x9d));
        painter.fillRect(QRectF(x, 12, 12, 4), traceFaultColour());
        painter.drawText(QPointF(x + 16, 15), wrong);
        x += 16 + metrics.horizontalAdvance(wrong) + 14;
    }
    const QString summary = summaryText();
    // Right of the legend while it has the room; cut, it read "863 events" for 23863.
    if (metrics.horizontalAdvance(summary) > size.width() - x - 8) return;
    painter.setPen(QColor(0x77, 0x77, 0x77));
    painter.drawText(QRectF(x, 3, size.width() - x - 8, 16), Qt::AlignRight | Qt::AlignVCenter,
                     summary);
}

}  // namespace hsdp
