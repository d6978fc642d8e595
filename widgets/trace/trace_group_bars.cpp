// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_group_bars.h"

#include <algorithm>
#include <cmath>

namespace hsdp {

namespace {
constexpr int kLevels = 8;
}  // namespace

int densityLevel(int busy, int members) {
    if (busy <= 0) return 0;
    return std::clamp((busy * kLevels + std::max(1, members) - 1) / std::max(1, members), 1,
                      kLevels);
}

void groupBars(const TraceTimeline& timeline, const std::vector<int>& rows, const TimeAxis& axis,
               TraceColouring colouring, std::vector<DensitySpan>& out, GroupBarsScratch& scratch) {
    out.clear();
    if (axis.width <= 0 || axis.t1 <= axis.t0 || rows.empty()) return;
    const int left = static_cast<int>(std::floor(axis.left));
    const int columns = static_cast<int>(std::ceil(axis.left + axis.width)) - left + 1;
    const int categories = static_cast<int>(
        (colouring == TraceColouring::Phase ? tracePhaseNames() : traceOpNames()).size());
    // Difference arrays: +1 where a bar starts, -1 where it ends, per category too.
    scratch.busy.assign(static_cast<size_t>(columns + 1), 0);
    scratch.categories.assign(static_cast<size_t>(categories * (columns + 1)), 0);
    for (int row : rows) {
        rowBars(timeline, row, axis, colouring, scratch.bars);
        for (const BarSpan& bar : scratch.bars) {
            const auto x0 = static_cast<size_t>(bar.x0 - left);
            const auto x1 = static_cast<size_t>(bar.x1 - left);
            const auto base =
                static_cast<size_t>(timeline.categoryOf(bar.event, colouring) * (columns + 1));
            ++scratch.busy[x0];
            --scratch.busy[x1];
            ++scratch.categories[base + x0];
            --scratch.categories[base + x1];
        }
    }
    // Prefix sums in place: each column's busy count and per-category count.
    for (int c = 1; c <= columns; ++c) {
        scratch.busy[static_cast<size_t>(c)] += scratch.busy[static_cast<size_t>(c - 1)];
        for (int k = 0; k < categories; ++k) {
            const auto at = static_cast<size_t>(k * (columns + 1) + c);
            scratch.categories[at] += scratch.categories[at - 1];
        }
    }
    const int members = static_cast<int>(rows.size());
    for (int c = 0; c < columns; ++c) {
        const int busy = scratch.busy[static_cast<size_t>(c)];
        if (busy <= 0) continue;
        int category = 0, most = -1;
        for (int k = 0; k < categories; ++k) {
            const int count = scratch.categories[static_cast<size_t>(k * (columns + 1) + c)];
            if (count > most) {
                most = count;
                category = k;
            }
        }
        const int x = left + c;
        if (!out.empty()) {
            DensitySpan& previous = out.back();
            if (previous.x1 == x && previous.category == category &&
                densityLevel(previous.busy, members) == densityLevel(busy, members)) {
                previous.x1 = x + 1;
                previous.busy = std::max(previous.busy, busy);
                continue;
            }
        }
        out.push_back({x, x + 1, busy, category});
    }
}

}  // namespace hsdp
