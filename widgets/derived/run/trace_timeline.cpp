// SPDX-License-Identifier: Apache-2.0
#include "derived/run/trace_timeline.h"

#include <algorithm>

#include "job_check/recorded_timeline.h"
#include "types/collective_op.h"
#include "types/mesh.h"

namespace hsdp {

namespace {

uint8_t categoryIndex(const std::vector<QString>& names, const std::string& name) {
    QString text = QString::fromStdString(name);
    auto it = std::find(names.begin(), names.end(), text);
    return static_cast<uint8_t>(it == names.end() ? names.size() - 1 : it - names.begin());
}

}  // namespace

const std::vector<QString>& tracePhaseNames() {
    static const std::vector<QString> names{
        QStringLiteral("gather"), QStringLiteral("update-broadcast"),
        QStringLiteral("replica-broadcast"), QStringLiteral("tp"),
        // Compute is no phase's wire: each kind is coloured as itself, as
        // the op colouring does, so Newton-Schulz never reads as traffic.
        QStringLiteral("pack"), QStringLiteral("unpack"), QStringLiteral("newton_schulz"),
        QStringLiteral("update"),
        // A job's record: a collective that never completed (a hang).
        QString::fromLatin1(kNeverCompletedPhase), QStringLiteral("other")};
    return names;
}

const std::vector<QString>& traceOpNames() {
    static const std::vector<QString> names = [] {
        std::vector<QString> out;
        for (const CollectiveOpInfo& info : collectiveOps())
            out.push_back(QString::fromLatin1(info.name.data(), qsizetype(info.name.size())));
        // The compute between collectives (TraceEvent, isCompute), as the
        // cost model's schedule spells its work kinds.
        for (const char* compute : {"pack", "unpack", "newton_schulz", "update", "other"})
            out.push_back(QString::fromLatin1(compute));
        return out;
    }();
    return names;
}

TraceTimeline::TraceTimeline(std::shared_ptr<const RunResult> run, int worldSize, const Mesh* mesh)
    : run_(std::move(run)) {
    if (!run_) return;
    int rows = worldSize;
    for (const TraceEvent& e : events()) rows = std::max(rows, e.rank + 1);
    rows_.resize(static_cast<size_t>(rows));
    rowOfRank_.resize(static_cast<size_t>(rows));
    for (int r = 0; r < rows; ++r) {
        rows_[static_cast<size_t>(r)].rank = r;
        rowOfRank_[static_cast<size_t>(r)] = r;
    }
    begin_ = events().empty() ? 0 : events().front().startUs;
    phase_.reserve(events().size());
    op_.reserve(events().size());
    for (int i = 0; i < eventCount(); ++i) {
        const TraceEvent& e = event(i);
        Row& row = rows_[static_cast<size_t>(e.rank)];
        row.start.push_back(e.startUs);
        row.end.push_back(e.endUs);
        row.events.push_back(i);
        if (!isCompute(e)) bySeq_[e.seq].push_back(i);  // a compute span is no collective
        phase_.push_back(categoryIndex(tracePhaseNames(), isCompute(e) ? e.op : e.label.phase));
        op_.push_back(categoryIndex(traceOpNames(), e.op));
        phaseSeen_ |= 1u << phase_.back();
        opSeen_ |= 1u << op_.back();
        begin_ = std::min(begin_, e.startUs);
        end_ = std::max(end_, e.endUs);
    }
    // The trace is sorted by (rank, start); a hand-made one may not be.
    for (Row& row : rows_) {
        if (std::is_sorted(row.start.begin(), row.start.end())) continue;
        std::vector<size_t> order(row.events.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return row.start[a] < row.start[b]; });
        Row sorted{row.rank, {}, {}, {}};
        for (size_t i : order) {
            sorted.start.push_back(row.start[i]);
            sorted.end.push_back(row.end[i]);
            sorted.events.push_back(row.events[i]);
        }
        row = std::move(sorted);
    }
    if (mesh && mesh->ndim() > 1 && mesh->size() == rows) {
        int64_t previous = -1;
        for (int r = 0; r < rows; ++r) {
            auto coord = mesh->coordinateOf(r);
            if (!coord || (*coord)[0] == previous) continue;
            previous = (*coord)[0];
            groups_.push_back({r, QStringLiteral("%1=%2")
                                      .arg(QString::fromStdString(mesh->dimNames[0]))
                                      .arg(previous)});
        }
    }
}

int TraceTimeline::rowOfRank(int rank) const {
    if (rank < 0 || static_cast<size_t>(rank) >= rowOfRank_.size()) return -1;
    return rowOfRank_[static_cast<size_t>(rank)];
}

std::pair<int, int> TraceTimeline::visible(int r, double t0, double t1) const {
    const Row& row = rows_[static_cast<size_t>(r)];
    // Ends are sorted too (no overlap): the first event ending at or after t0.
    auto first = std::lower_bound(row.end.begin(), row.end.end(), t0) - row.end.begin();
    auto last = std::upper_bound(row.start.begin(), row.start.end(), t1) - row.start.begin();
    return {static_cast<int>(first), static_cast<int>(std::max(first, last))};
}

int TraceTimeline::eventNear(int r, double t, double toleranceUs) const {
    if (r < 0 || r >= rowCount()) return -1;
    auto [first, last] = visible(r, t - toleranceUs, t + toleranceUs);
    const Row& row = rows_[static_cast<size_t>(r)];
    int best = -1;
    double bestDistance = toleranceUs;
    for (int i = first; i < last; ++i) {
        double distance =
            t < row.start[static_cast<size_t>(i)] ? row.start[static_cast<size_t>(i)] - t
            : t > row.end[static_cast<size_t>(i)] ? t - row.end[static_cast<size_t>(i)]
                                                  : 0.0;
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = row.events[static_cast<size_t>(i)];
            if (distance == 0) break;
        }
    }
    return best;
}

const std::vector<int>& TraceTimeline::eventsOfSeq(int64_t seq) const {
    static const std::vector<int> none;
    auto it = bySeq_.find(seq);
    return it == bySeq_.end() ? none : it->second;
}

int TraceTimeline::categoryOf(int event, TraceColouring colouring) const {
    const auto& categories = colouring == TraceColouring::Phase ? phase_ : op_;
    return categories[static_cast<size_t>(event)];
}

bool TraceTimeline::hasCategory(int category, TraceColouring colouring) const {
    const uint32_t seen = colouring == TraceColouring::Phase ? phaseSeen_ : opSeen_;
    return category >= 0 && category < 32 && (seen >> category & 1u);
}

std::shared_ptr<const TraceTimeline> timelineOfRun(const RunData& run) {
    if (!run.isValid()) return nullptr;
    const Mesh* mesh = nullptr;
    for (const Mesh& m : run.plan.scenario->meshes)
        if (m.size() == run.run->worldSize && !mesh) mesh = &m;
    return std::make_shared<const TraceTimeline>(run.run, run.run->worldSize, mesh);
}

}  // namespace hsdp
