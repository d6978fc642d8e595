// SPDX-License-Identifier: Apache-2.0
// TraceCanvas's groups of rank rows: the grouping, folding, the summary
// rows' paint and labels, the selection that unfolds a rank's group.
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "painting/trace_palette.h"
#include "trace/trace_canvas.h"
#include "types/figures.h"
#include "types/mesh.h"

namespace hsdp {

namespace {

const QColor kSummaryBand(0xe8, 0xec, 0xf2);
const QColor kRule(0xc8, 0xcc, 0xd2);
const QColor kText(0x33, 0x33, 0x33);
// A selection spread over more groups than this unfolds only its first
// rank's: unfolding a whole mesh dim's worth of groups would undo the grouping.
constexpr int kMaxAutoExpand = 4;

// `colour` at `strength` (0..1) over `base`: an opaque fill, cheaper than blending.
QColor mixed(const QColor& base, const QColor& colour, double strength) {
    auto mix = [strength](int a, int b) {
        return static_cast<int>(std::lround(a + (b - a) * strength));
    };
    return QColor(mix(base.red(), colour.red()), mix(base.green(), colour.green()),
                  mix(base.blue(), colour.blue()));
}

}  // namespace

RankGroupingContext TraceCanvas::groupingContext() const {
    RankGroupingContext context;
    context.mesh = mesh_.get();
    context.nodes = &nodes_;
    if (selection_) context.selectedRanks = selection_->ranks();
    return context;
}

void TraceCanvas::setGrouping(const RankGrouping& grouping) {
    grouping_ = grouping;
    groupingChosen_ = true;
    regroup();
}

void TraceCanvas::setNodeMap(const NodeMap& nodes) {
    nodes_ = nodes;
    if (grouping_.kind != RankGroupingKind::Node) return;
    if (!canGroup(grouping_, groupingContext()))
        grouping_ = defaultRankGrouping(timeline_ ? timeline_->rowCount() : 0, mesh_.get());
    regroup();
}

void TraceCanvas::setGroupCollapsed(int group, bool collapsed) {
    layout_.setCollapsed(group, collapsed);
    relayoutDone();
}

void TraceCanvas::setAllGroupsCollapsed(bool collapsed) {
    layout_.setAllCollapsed(collapsed);
    relayoutDone();
}

void TraceCanvas::regroup() {
    const int rows = timeline_ ? timeline_->rowCount() : 0;
    std::vector<int> ranks(static_cast<size_t>(rows));
    for (int r = 0; r < rows; ++r) ranks[static_cast<size_t>(r)] = timeline_->row(r).rank;
    std::vector<TraceRowLayout::Group> groups;
    for (RankGroup& group : groupRanks(ranks, grouping_, groupingContext()))
        groups.push_back({group.title, std::move(group.members), true});
    // Grouped by the selection, the selected ranks are what one wants to see.
    if (grouping_.kind == RankGroupingKind::Selection && !groups.empty() &&
        groups.front().title == QStringLiteral("selected"))
        groups.front().collapsed = false;
    layout_ = TraceRowLayout(rows, std::move(groups));
    relayoutDone();
}

void TraceCanvas::relayoutDone() {
    scrollRows(0);  // clamps to the new height
    update();
    emit layoutChanged();
}

// A rank picked elsewhere (the mesh view, a compute span) gets its own row.
void TraceCanvas::expandSelectedRanks() {
    if (!selection_ || !timeline_ || !layout_.isGrouped() || selection_->collective() >= 0) return;
    std::vector<int> rows;
    for (int rank : selection_->ranks())
        if (timeline_->rowOfRank(rank) >= 0) rows.push_back(timeline_->rowOfRank(rank));
    if (rows.empty()) return;
    std::vector<int> groups;
    for (int row : rows)
        if (std::find(groups.begin(), groups.end(), layout_.groupOfRow(row)) == groups.end())
            groups.push_back(layout_.groupOfRow(row));
    if (static_cast<int>(groups.size()) > kMaxAutoExpand) rows.resize(1);
    if (layout_.expandRows(rows)) relayoutDone();
    scrollToLine(layout_.lineOfRow(rows.front()));
}

void TraceCanvas::scrollToLine(int line) {
    if (line < 0) return;
    const double h = rowHeight(size());
    const double top = lineTop(line, size());
    if (top >= kHeader && top + h <= height()) return;
    scrollY_ = line * h - (height() - kHeader) / 3.0;
    scrollRows(0);
}

bool TraceCanvas::toggleGroupAt(const QPointF& pos) {
    const int line = lineAt(pos.y(), size());
    if (line < 0 || !layout_.line(line).isSummary()) return false;
    layout_.toggle(layout_.line(line).group);
    relayoutDone();
    return true;
}

// The group's ranks as one row: each column shaded by how many of them are
// busy there, in the colour most of them show.
void TraceCanvas::paintSummary(QPainter& painter, int group, double top, double h,
                               const TimeAxis& axis, int& bars) const {
    const TraceRowLayout::Group& g = layout_.group(group);
    painter.fillRect(QRectF(kGutter, top, axis.left + axis.width + 8 - kGutter, h), kSummaryBand);
    groupBars(*timeline_, g.rows, axis, colouring_, density_, scratch_);
    const double gap = h >= 8 ? 2 : h >= 5 ? 1 : 0;
    const int y = static_cast<int>(std::round(top + gap));
    const int barHeight = std::max(1, static_cast<int>(std::round(h - 2 * gap)));
    const int members = static_cast<int>(g.rows.size());
    for (const DensitySpan& span : density_) {
        const double strength = 0.25 + 0.75 * densityLevel(span.busy, members) / 8.0;
        painter.fillRect(
            QRect(span.x0, y, span.x1 - span.x0, barHeight),
            mixed(kSummaryBand, traceCategoryColour(span.category, colouring_), strength));
    }
    bars += static_cast<int>(density_.size());
}

void TraceCanvas::paintGroupRules(QPainter& painter, const QSize& size) const {
    painter.setPen(kRule);
    if (!layout_.isGrouped()) {
        for (const auto& group : timeline_->rowGroups())
            if (group.firstRow > 0) {
                const double y = rowTop(group.firstRow, size);
                painter.drawLine(QPointF(0, y), QPointF(size.width(), y));
            }
        return;
    }
    for (int g = 1; g < static_cast<int>(layout_.groups().size()); ++g) {
        const double y = lineTop(layout_.lineOfGroup(g), size);
        if (y >= kHeader && y <= size.height())
            painter.drawLine(QPointF(0, y), QPointF(size.width(), y));
    }
}

QString TraceCanvas::lineLabel(int line) const {
    const TraceRowLayout::Line& l = layout_.line(line);
    if (!l.isSummary()) return rowLabel(l.row);
    const TraceRowLayout::Group& g = layout_.group(l.group);
    return QStringLiteral("%1 %2 · %3")
        .arg(g.collapsed ? QStringLiteral("▸") : QStringLiteral("▾"), g.title)
        .arg(g.rows.size());
}

// Rank labels never overlap one another, nor the (bold) summary labels,
// which are drawn first: a folded group is always named.
void TraceCanvas::paintLineLabels(QPainter& painter, const QSize& size) const {
    const double h = rowHeight(size);
    const double labelHeight = std::max(h, 11.0);
    const int first = std::max(0, static_cast<int>(std::floor(scrollY_ / h)));
    const int last = std::min(
        layout_.lineCount(), static_cast<int>(std::ceil((scrollY_ + size.height() - kHeader) / h)));
    QFont font = painter.font();
    font.setPointSizeF(std::clamp(h * 0.45, 6.0, 9.0));
    QFont bold = font;
    bold.setBold(true);
    painter.setPen(kText);
    std::vector<double> summaryTops;
    painter.setFont(bold);
    double free = -1e18;
    for (int line = first; line < last; ++line) {
        if (!layout_.line(line).isSummary()) continue;
        const double top = lineTop(line, size);
        if (top < free) continue;
        painter.drawText(QRectF(6, top, kGutter - 12, labelHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, lineLabel(line));
        summaryTops.push_back(top);
        free = top + labelHeight;
    }
    painter.setFont(font);
    free = -1e18;
    size_t next = 0;  // the first summary label not above this line
    for (int line = first; line < last; ++line) {
        if (layout_.line(line).isSummary()) continue;
        const double top = lineTop(line, size);
        while (next < summaryTops.size() && summaryTops[next] + labelHeight <= top) ++next;
        const bool hitsSummary = next < summaryTops.size() && summaryTops[next] < top + labelHeight;
        if (top < free || hitsSummary) continue;
        painter.drawText(QRectF(20, top, kGutter - 26, labelHeight),
                         Qt::AlignRight | Qt::AlignVCenter, lineLabel(line));
        free = top + labelHeight;
    }
}

QString TraceCanvas::groupToolTipFor(int group, double t) const {
    const TraceRowLayout::Group& g = layout_.group(group);
    std::vector<int> ranks;
    int busy = 0;
    size_t events = 0;
    for (int row : g.rows) {
        ranks.push_back(timeline_->row(row).rank);
        const auto [first, last] = timeline_->visible(row, t, t);
        busy += last > first;
        events += timeline_->row(row).events.size();
    }
    return QStringLiteral(
               "<b>%1</b> · %2 ranks · %3 events<br>%4<br>at %5: %6 of %2 busy<br>"
               "<i>click to %7</i>")
        .arg(g.title.toHtmlEscaped())
        .arg(g.rows.size())
        .arg(events)
        .arg(rankRunsText(ranks).toHtmlEscaped(),
             QString::fromStdString(hsdp::durationText(std::max(0.0, t) * 1e-6)))
        .arg(busy)
        .arg(g.collapsed ? tr("unfold its ranks") : tr("fold it into one row"));
}

}  // namespace hsdp
