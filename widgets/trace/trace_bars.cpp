// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_bars.h"

#include <algorithm>
#include <cmath>

namespace hsdp {

namespace {

constexpr int kSliver = 3;  // pixels
// A zero-length event still claims its column when nothing else is there.
constexpr double kLeastWeight = 1e-9;

// Builds one row's bars column by column. A column shared by several events
// takes the category that covers most of it (ties: the lower category) and
// that category's longest event there; a column only one event covers takes
// that event. Pieces of one event join up; so do touching bars of one
// colour unless the newcomer is a wide event of its own, so back-to-back
// collectives stay apart when there is room to see them.
class RowBarBuilder {
public:
    RowBarBuilder(const TraceTimeline& timeline, TraceColouring colouring,
                  std::vector<BarSpan>& out)
        : timeline_(timeline), colouring_(colouring), out_(out) {}

    // Event `event` (`duration` long) covers `weight` of column `column`.
    void addToColumn(int column, int event, double duration, double weight, int starts) {
        if (column != column_) flush();
        column_ = column;
        starts_ += starts;
        const int category = timeline_.categoryOf(event, colouring_);
        for (Share& share : shares_)
            if (share.category == category) {
                share.weight += weight;
                if (duration > share.duration) {
                    share.duration = duration;
                    share.event = event;
                }
                return;
            }
        shares_.push_back({category, event, duration, weight});
    }

    // Columns [x0, x1) that `event` alone covers.
    void addRun(int x0, int x1, int event, double duration, bool wide) {
        flush();
        place(x0, x1, event, duration, 0, wide);
    }

    void flush() {
        if (shares_.empty()) return;
        const Share* best = &shares_.front();
        for (const Share& share : shares_)
            if (share.weight > best->weight ||
                (share.weight == best->weight && share.category < best->category))
                best = &share;
        place(column_, column_ + 1, best->event, best->duration, starts_, false);
        shares_.clear();
        starts_ = 0;
    }

private:
    struct Share {
        int category = 0, event = -1;
        double duration = 0, weight = 0;
    };

    void place(int x0, int x1, int event, double duration, int starts, bool wide) {
        if (!out_.empty()) {
            BarSpan& previous = out_.back();
            const bool sameColour = timeline_.categoryOf(event, colouring_) ==
                                    timeline_.categoryOf(previous.event, colouring_);
            if (previous.x1 == x0 && sameColour && (previous.event == event || !wide)) {
                previous.x1 = x1;
                previous.count += starts;
                if (duration > longest_) {
                    longest_ = duration;
                    previous.event = event;
                }
                return;
            }
        }
        out_.push_back({x0, x1, event, starts});
        longest_ = duration;
    }

    const TraceTimeline& timeline_;
    TraceColouring colouring_;
    std::vector<BarSpan>& out_;
    std::vector<Share> shares_;  // the open column's categories
    int column_ = 0, starts_ = 0;
    double longest_ = -1;  // of the last bar's events
};

}  // namespace

void rowBars(const TraceTimeline& timeline, int row, const TimeAxis& axis, TraceColouring colouring,
             std::vector<BarSpan>& out) {
    out.clear();
    if (row < 0 || row >= timeline.rowCount() || axis.width <= 0 || axis.t1 <= axis.t0) return;
    const TraceTimeline::Row& r = timeline.row(row);
    const auto [first, last] = timeline.visible(row, axis.t0, axis.t1);
    const int right = static_cast<int>(std::ceil(axis.left + axis.width));
    const int left = static_cast<int>(std::floor(axis.left));
    RowBarBuilder builder(timeline, colouring, out);
    for (int i = first; i < last; ++i) {
        const auto k = static_cast<size_t>(i);
        const double xs = std::max<double>(left, axis.x(r.start[k]));
        const double xe = std::min<double>(right, axis.x(r.end[k]));
        const int x0 = std::max(left, static_cast<int>(std::floor(xs)));
        const int x1 = std::max(std::min(right, static_cast<int>(std::ceil(xe))), x0 + 1);
        const int event = r.events[k];
        const double duration = r.end[k] - r.start[k];
        if (x1 - x0 == 1) {
            builder.addToColumn(x0, event, duration, std::max(kLeastWeight, xe - xs), 1);
            continue;
        }
        builder.addToColumn(x0, event, duration, std::max(kLeastWeight, x0 + 1 - xs), 1);
        if (x1 - x0 > 2) builder.addRun(x0 + 1, x1 - 1, event, duration, x1 - x0 >= kSliver);
        builder.addToColumn(x1 - 1, event, duration, std::max(kLeastWeight, xe - (x1 - 1)), 0);
    }
    builder.flush();
}

}  // namespace hsdp
