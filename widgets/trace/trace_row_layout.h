// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <vector>

#include "derived/run/trace_grouping.h"

namespace hsdp {

// The rows the trace paints, top to bottom, over the timeline's rank rows.
// Ungrouped: one per rank row, as they are. Grouped: each group opens with
// its summary row (the header: a click folds or unfolds it), followed, when
// the group is expanded, by its members' rank rows.
class TraceRowLayout {
public:
    struct Group {
        QString title;
        std::vector<int> rows;  // timeline rows, ascending
        bool collapsed = true;
    };
    struct Line {
        int group = -1;  // -1: a rank row of an ungrouped layout
        int row = -1;    // the timeline row; -1: the group's summary row
        bool isSummary() const { return row < 0; }
    };

    TraceRowLayout() = default;
    // `rowCount` rank rows; `groups` (from groupRanks over the rows' ranks)
    // must hold each row once, or be empty for one line per row.
    TraceRowLayout(int rowCount, std::vector<Group> groups);

    bool isGrouped() const { return !groups_.empty(); }
    int lineCount() const { return static_cast<int>(lines_.size()); }
    const Line& line(int index) const { return lines_[static_cast<size_t>(index)]; }
    const std::vector<Group>& groups() const { return groups_; }
    const Group& group(int g) const { return groups_[static_cast<size_t>(g)]; }
    int groupOfRow(int row) const;  // -1: ungrouped
    // The line showing timeline row `row`: its own, or its collapsed group's
    // summary; -1 for no such row.
    int lineOfRow(int row) const;
    int lineOfGroup(int g) const;  // the group's summary line
    bool isShown(int row) const;   // a line of its own

    void setCollapsed(int g, bool collapsed);
    void toggle(int g) { setCollapsed(g, !group(g).collapsed); }
    void setAllCollapsed(bool collapsed);
    // Expands the groups of `rows`; true if any was collapsed.
    bool expandRows(const std::vector<int>& rows);

private:
    void relayout();

    int rowCount_ = 0;
    std::vector<Group> groups_;
    std::vector<Line> lines_;
    std::vector<int> groupOfRow_, lineOfRow_, lineOfGroup_;
};

}  // namespace hsdp
