// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "derived/run/run_data.h"
#include "verify/run_result.h"

namespace hsdp {

class Mesh;

// What colours a bar: the label's phase or the collective's op.
enum class TraceColouring { Phase, Op };

// The known phases and ops in legend order; anything else is "other" (last).
const std::vector<QString>& tracePhaseNames();
const std::vector<QString>& traceOpNames();

// Every recorded event of a run, indexed for painting and picking: one row
// per rank of the world in rank order (a mesh's row-major order, so the
// replicas' blocks sit together), each row's events as flat arrays sorted by
// start. A rank thread runs one collective at a time, so a row's events never
// overlap and both start and end are sorted: a binary search finds the
// visible window. Built once per run (linear: the trace is sorted by rank and
// start already); never recomputes what the engine recorded.
class TraceTimeline {
public:
    struct Row {
        int rank = 0;
        std::vector<double> start, end;  // microseconds, sorted
        std::vector<int> events;         // indices into events()
    };
    // A run of rows that share the coordinate of the mesh's outermost dim
    // ("dp_replicate=1"): the view draws a band title and a rule.
    struct RowGroup {
        int firstRow = 0;
        QString title;
    };

    TraceTimeline() = default;
    // `mesh` (optional) titles the row groups; `worldSize` rows at least.
    TraceTimeline(std::shared_ptr<const RunResult> run, int worldSize, const Mesh* mesh = nullptr);

    bool isEmpty() const { return rows_.empty(); }
    const std::vector<TraceEvent>& events() const { return run_->trace.events; }
    const TraceEvent& event(int index) const { return events()[static_cast<size_t>(index)]; }
    int eventCount() const { return run_ ? static_cast<int>(events().size()) : 0; }
    int rowCount() const { return static_cast<int>(rows_.size()); }
    const Row& row(int r) const { return rows_[static_cast<size_t>(r)]; }
    int rowOfRank(int rank) const;  // -1: no such row
    const std::vector<RowGroup>& rowGroups() const { return groups_; }
    double beginUs() const { return begin_; }
    double endUs() const { return end_; }

    // Row `r`'s events that intersect [t0, t1]: positions [first, last) in the row.
    std::pair<int, int> visible(int r, double t0, double t1) const;
    // The event of row `r` nearest to time `t` within `toleranceUs`, or -1.
    int eventNear(int r, double t, double toleranceUs) const;
    // Every event (all participants) of collective `seq`.
    const std::vector<int>& eventsOfSeq(int64_t seq) const;
    // Category index into tracePhaseNames() / traceOpNames().
    int categoryOf(int event, TraceColouring colouring) const;
    // Whether any event has that category: the legend names only these.
    bool hasCategory(int category, TraceColouring colouring) const;

private:
    std::shared_ptr<const RunResult> run_;
    std::vector<Row> rows_;
    std::vector<int> rowOfRank_;
    std::vector<RowGroup> groups_;
    std::unordered_map<int64_t, std::vector<int>> bySeq_;
    std::vector<uint8_t> phase_, op_;
    uint32_t phaseSeen_ = 0, opSeen_ = 0;  // bit c: some event has category c
    double begin_ = 0, end_ = 0;
};

// The timeline of `run`'s trace, its rows titled by the first mesh of the
// run's world size (null for an invalid run). Runs on any thread.
std::shared_ptr<const TraceTimeline> timelineOfRun(const RunData& run);

}  // namespace hsdp
