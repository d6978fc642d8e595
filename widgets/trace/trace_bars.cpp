// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_bars.h"

#include <algorithm>
#include <cmath>

namespace hsdp {

namespace {
constexpr int kSliver = 3;  // pixels
}  // namespace

void rowBars(const TraceTimeline& timeline, int row, const TimeAxis& axis, TraceColouring colouring,
             std::vector<BarSpan>& out) {
    out.clear();
    if (row < 0 || row >= timeline.rowCount() || axis.width <= 0 || axis.t1 <= axis.t0) return;
    const TraceTimeline::Row& r = timeline.row(row);
    const auto [first, last] = timeline.visible(row, axis.t0, axis.t1);
    const int right = static_cast<int>(std::ceil(axis.left + axis.width));
    const int left = static_cast<int>(std::floor(axis.left));
    double longest = -1;
    for (int i = first; i < last; ++i) {
        const auto k = static_cast<size_t>(i);
        int x0 = std::max(left, static_cast<int>(std::floor(axis.x(r.start[k]))));
        int x1 = std::min(right, static_cast<int>(std::ceil(axis.x(r.end[k]))));
        x1 = std::max(x1, x0 + 1);
        const int event = r.events[k];
        const double duration = r.end[k] - r.start[k];
        if (!out.empty()) {
            BarSpan& previous = out.back();
            const bool inside = x0 < previous.x1;
            // Touching slivers of one colour become one bar; wide bars stay apart.
            const bool touchingSameColour = x0 == previous.x1 && x1 - x0 < kSliver &&
                                            timeline.categoryOf(event, colouring) ==
                                                timeline.categoryOf(previous.event, colouring);
            if (inside || touchingSameColour) {
                previous.x1 = std::max(previous.x1, x1);
                ++previous.count;
                if (duration > longest) {
                    longest = duration;
                    previous.event = event;
                }
                continue;
            }
        }
        out.push_back({x0, x1, event, 1});
        longest = duration;
    }
}

}  // namespace hsdp
