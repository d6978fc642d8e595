// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "derived/run/trace_timeline.h"

namespace hsdp {

// The visible time window mapped onto pixel columns [left, left + width).
struct TimeAxis {
    double t0 = 0, t1 = 1;  // microseconds
    double left = 0, width = 1;

    double x(double t) const { return left + (t - t0) / (t1 - t0) * width; }
    double time(double x) const { return t0 + (x - left) / width * (t1 - t0); }
    double usPerPixel() const { return (t1 - t0) / width; }
};

// One painted bar of a row, in whole pixel columns [x0, x1).
struct BarSpan {
    int x0 = 0, x1 = 0;
    int event = -1;  // its colour's longest event there: its colour and its tooltip
    int count = 0;   // events that start in it (1: a single collective)
};

// Level of detail: the bars of row `row` inside `axis`. Each event covers at
// least one pixel column. A column several events share shows the category
// that covers most of it, so every column shows what lies under it at any
// zoom; touching bars of one colour join up unless the newcomer is a wide
// event of its own. So the bars of a row are disjoint column ranges, at most
// axis.width of them however many events the window holds: an overview of
// 100,000 events paints at most rows x width rectangles, while a zoomed view
// paints every event as itself.
void rowBars(const TraceTimeline& timeline, int row, const TimeAxis& axis, TraceColouring colouring,
             std::vector<BarSpan>& out);

}  // namespace hsdp
