// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_row_layout.h"

namespace hsdp {

TraceRowLayout::TraceRowLayout(int rowCount, std::vector<Group> groups)
    : rowCount_(rowCount), groups_(std::move(groups)) {
    groupOfRow_.assign(static_cast<size_t>(rowCount_), -1);
    for (size_t g = 0; g < groups_.size(); ++g)
        for (int row : groups_[g].rows)
            if (row >= 0 && row < rowCount_) groupOfRow_[static_cast<size_t>(row)] = int(g);
    relayout();
}

void TraceRowLayout::relayout() {
    lines_.clear();
    lineOfRow_.assign(static_cast<size_t>(rowCount_), -1);
    lineOfGroup_.assign(groups_.size(), -1);
    if (groups_.empty()) {
        for (int row = 0; row < rowCount_; ++row) {
            lineOfRow_[static_cast<size_t>(row)] = row;
            lines_.push_back({-1, row});
        }
        return;
    }
    for (size_t g = 0; g < groups_.size(); ++g) {
        const int summary = lineCount();
        lineOfGroup_[g] = summary;
        lines_.push_back({int(g), -1});
        for (int row : groups_[g].rows) {
            if (row < 0 || row >= rowCount_) continue;
            if (groups_[g].collapsed) {
                lineOfRow_[static_cast<size_t>(row)] = summary;
                continue;
            }
            lineOfRow_[static_cast<size_t>(row)] = lineCount();
            lines_.push_back({int(g), row});
        }
    }
}

int TraceRowLayout::groupOfRow(int row) const {
    return row >= 0 && row < rowCount_ ? groupOfRow_[static_cast<size_t>(row)] : -1;
}

int TraceRowLayout::lineOfRow(int row) const {
    return row >= 0 && row < rowCount_ ? lineOfRow_[static_cast<size_t>(row)] : -1;
}

int TraceRowLayout::lineOfGroup(int g) const {
    return g >= 0 && static_cast<size_t>(g) < groups_.size() ? lineOfGroup_[static_cast<size_t>(g)]
                                                             : -1;
}

bool TraceRowLayout::isShown(int row) const {
    const int l = lineOfRow(row);
    return l >= 0 && line(l).row == row;
}

void TraceRowLayout::setCollapsed(int g, bool collapsed) {
    if (g < 0 || static_cast<size_t>(g) >= groups_.size()) return;
    if (groups_[static_cast<size_t>(g)].collapsed == collapsed) return;
    groups_[static_cast<size_t>(g)].collapsed = collapsed;
    relayout();
}

void TraceRowLayout::setAllCollapsed(bool collapsed) {
    for (Group& group : groups_) group.collapsed = collapsed;
    relayout();
}

bool TraceRowLayout::expandRows(const std::vector<int>& rows) {
    bool changed = false;
    for (int row : rows) {
        const int g = groupOfRow(row);
        if (g < 0 || !groups_[static_cast<size_t>(g)].collapsed) continue;
        groups_[static_cast<size_t>(g)].collapsed = false;
        changed = true;
    }
    if (changed) relayout();
    return changed;
}

}  // namespace hsdp
