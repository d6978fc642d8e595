// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "trace/trace_bars.h"

namespace hsdp {

// One run of pixel columns [x0, x1) of a group's summary row: `busy` of the
// group's ranks (the most in any of its columns) have a bar there, most of
// them of colour category `category`.
struct DensitySpan {
    int x0 = 0, x1 = 0;
    int busy = 0;
    int category = 0;
};

// Arrays reused from one summary row to the next while painting.
struct GroupBarsScratch {
    std::vector<int> busy, categories;
    std::vector<BarSpan> bars;
};

// The summary of timeline rows `rows` inside `axis`: the union of their
// rowBars, with how many ranks are busy in each column. A column is covered
// exactly when one of the rows has a bar there; neighbouring columns of one
// category and about the same density (eighths of the group) merge, so a
// summary row paints at most axis.width rectangles however many ranks it
// holds. Costs one rowBars per row plus (categories x width) per group.
void groupBars(const TraceTimeline& timeline, const std::vector<int>& rows, const TimeAxis& axis,
               TraceColouring colouring, std::vector<DensitySpan>& out, GroupBarsScratch& scratch);

// The density level (1..8) of `busy` of `members` ranks: what the paint shades by.
int densityLevel(int busy, int members);

}  // namespace hsdp
