// SPDX-License-Identifier: Apache-2.0
#include "job_check/job_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "job_check/member_alignment.h"

namespace hsdp {

std::string_view divergenceKindName(DivergenceKind kind) {
    switch (kind) {
        case DivergenceKind::Missing:
            return "missing";
        case DivergenceKind::Unexpected:
            return "unexpected";
        case DivergenceKind::Size:
            return "size";
        case DivergenceKind::Dtype:
            return "dtype";
        case DivergenceKind::Stuck:
            return "stuck";
        case DivergenceKind::Order:
            return "order";
    }
    return "missing";
}

namespace {

int64_t startedNs(const FlightRecorderEntry& e) {
    return e.timeDiscoveredStartedNs.value_or(e.timeCreatedNs);
}

int64_t newestNs(const FlightRecorderEntry& e) {
    return std::max({e.timeCreatedNs, e.timeDiscoveredStartedNs.value_or(0),
                     e.timeDiscoveredCompletedNs.value_or(0)});
}

// A world group's barrier (c10d's barrier is NCCL's all-reduce of one
// element): the job's own synchronisation, outside the optimizer step.
bool isWorldBarrier(const ProcessGroupRecord& group, const FlightRecorderEntry& e,
                    int64_t worldSize) {
    const bool world =
        group.name == "0" || group.desc == "default_pg" || int64_t(group.ranks.size()) == worldSize;
    const bool barrier =
        e.operation() == "barrier" ||
        (e.operation() == "all_reduce" && e.inputSizes == std::vector<std::vector<int64_t>>{{1}});
    return world && barrier;
}

// One recorded process group held against the plan's group with its members.
class GroupCheck {
public:
    GroupCheck(const PlannedStep& step, const Scenario& scenario, const Plan& plan,
               const ProcessGroupRecord& record, const PlannedGroup& planned,
               const std::set<int64_t>& hung, JobCheck& out)
        : step_(step),
          scenario_(scenario),
          plan_(plan),
          record_(record),
          planned_(planned),
          hung_(hung),
          out_(out),
          recordedAt_(planned.ranks.size()) {}

    void run() {
        std::vector<std::vector<AlignedItem>> items(planned_.ranks.size());
        for (size_t m = 0; m < planned_.ranks.size(); ++m) {
            const auto entries = record_.entriesByRank.find(planned_.ranks[m]);
            if (entries == record_.entriesByRank.end()) continue;  // no dump, or not its group
            const auto forms = formsOf(m);
            items[m] = alignMember(entries->second, int64_t(forms.size()), [&](int64_t j) {
                return forms[size_t(j % int64_t(forms.size()))];
            });
            for (const AlignedItem& item : items[m]) noteRecorded(m, item);
        }
        for (size_t m = 0; m < items.size(); ++m) {
            for (size_t k = 0; k < items[m].size(); ++k) report(m, items[m], k);
            // A hung rank never got further: its stuck entry says so, and
            // what its peers went on to record is no news about it.
            if (record_.entriesByRank.count(planned_.ranks[m]) && !hung_.count(planned_.ranks[m]))
                trailingMissing(m, items[m]);
        }
    }

private:
    // How member m records each collective of its program.
    std::vector<RecordedForm> formsOf(size_t m) const {
        std::vector<RecordedForm> forms;
        for (int c : planned_.programs[m])
            forms.push_back(recordedForm(
                scheduledBuffers(scenario_, plan_, step_.schedule, c, int(planned_.ranks[m]))));
        return forms;
    }

    void noteRecorded(size_t m, const AlignedItem& item) {
        if (item.kind == AlignKind::Missing || item.kind == AlignKind::Unexpected) return;
        if (item.kind != AlignKind::Order) return place(m, item.position, item.entry);
        place(m, item.position, item.second);
        place(m, item.position + 1, item.entry);
    }

    void place(size_t m, int64_t j, const FlightRecorderEntry* entry) {
        recordedAt_[m][j] = entry;
        const int64_t length = int64_t(planned_.programs[m].size());
        out_.placed.push_back({planned_.ranks[m], collectiveAt(m, j), j / length + 1, entry});
    }

    int collectiveAt(size_t m, int64_t j) const {
        const auto& program = planned_.programs[m];
        return program[size_t(j % int64_t(program.size()))];
    }

    JobDivergence divergence(DivergenceKind kind, size_t m, int64_t j) const {
        JobDivergence d;
        d.kind = kind;
        d.rank = planned_.ranks[m];
        d.groupRanks = record_.ranks;
        d.groupDesc = record_.desc;
        if (j >= 0) {
            d.seqId = j + 1;
            d.trainingStep = j / int64_t(planned_.programs[m].size()) + 1;
            d.expected = collectiveAt(m, j);
        }
        return d;
    }

    // The entry recorded after item k (what dates a missing one), or nullptr.
    static const FlightRecorderEntry* nextEntry(const std::vector<AlignedItem>& items, size_t k) {
        for (size_t n = k + 1; n < items.size(); ++n)
            if (items[n].entry) return items[n].entry;
        return nullptr;
    }

    void report(size_t m, const std::vector<AlignedItem>& items, size_t k) {
        const AlignedItem& item = items[k];
        switch (item.kind) {
            case AlignKind::Match:
                if (!stuck(m, item)) ++out_.matched;
                return;
            case AlignKind::Size:
            case AlignKind::Dtype: {
                auto d = divergence(
                    item.kind == AlignKind::Size ? DivergenceKind::Size : DivergenceKind::Dtype, m,
                    item.position);
                d.recorded = item.entry;
                d.seqId = item.entry->collectiveSeqId;
                d.timeNs = item.entry->timeCreatedNs;
                out_.divergences.push_back(std::move(d));
                stuck(m, item);
                return;
            }
            case AlignKind::Unexpected:
                return unexpected(m, *item.entry);
            case AlignKind::Missing:
                return missing(m, item.position, nextEntry(items, k));
            case AlignKind::Order: {
                auto d = divergence(DivergenceKind::Order, m, item.position);
                d.expectedSecond = collectiveAt(m, item.position + 1);
                d.recorded = item.entry;
                d.recordedSecond = item.second;
                d.seqId = item.entry->collectiveSeqId;
                d.timeNs = item.entry->timeCreatedNs;
                out_.divergences.push_back(std::move(d));
                return;
            }
        }
    }

    void unexpected(size_t m, const FlightRecorderEntry& e) {
        JobDivergence d = divergence(DivergenceKind::Unexpected, m, -1);
        d.recorded = &e;
        d.seqId = e.collectiveSeqId;
        d.timeNs = e.timeCreatedNs;
        out_.divergences.push_back(std::move(d));
    }

    // Position j, which member m never recorded: when its peers recorded it
    // (the earliest of them dates it), else the member's next entry.
    void missing(size_t m, int64_t j, const FlightRecorderEntry* next) {
        JobDivergence d = divergence(DivergenceKind::Missing, m, j);
        d.timeNs = next ? next->timeCreatedNs : 0;
        bool dated = false;
        for (size_t p = 0; p < recordedAt_.size(); ++p) {
            const auto at = recordedAt_[p].find(j);
            if (p == m || at == recordedAt_[p].end()) continue;
            d.peers.push_back(planned_.ranks[p]);
            d.timeNs =
                dated ? std::min(d.timeNs, at->second->timeCreatedNs) : at->second->timeCreatedNs;
            dated = true;
        }
        out_.divergences.push_back(std::move(d));
    }

    // Past a member's last entry: the first position a peer recorded (what
    // it stopped before; the ones after it follow from it).
    void trailingMissing(size_t m, const std::vector<AlignedItem>& items) {
        int64_t next = 0;
        for (const AlignedItem& item : items)
            if (item.position >= 0)
                next = std::max(next, item.position + (item.kind == AlignKind::Order ? 2 : 1));
        if (items.empty()) next = firstRecordedByPeers();
        for (size_t p = 0; p < recordedAt_.size(); ++p)
            if (p != m && recordedAt_[p].count(next)) return missing(m, next, nullptr);
    }

    int64_t firstRecordedByPeers() const {
        int64_t first = -1;
        for (const auto& at : recordedAt_)
            for (const auto& [j, entry] : at) first = first < 0 ? j : std::min(first, j);
        return std::max<int64_t>(first, 0);
    }

    // Not completed while a peer completed it, or as the member's last
    // entry: a hang's trace. Reports it; whether it was.
    bool stuck(size_t m, const AlignedItem& item) {
        if (item.entry->state == CollectiveState::Completed) return false;
        JobDivergence d = divergence(DivergenceKind::Stuck, m, item.position);
        for (size_t p = 0; p < recordedAt_.size(); ++p) {
            const auto at = recordedAt_[p].find(item.position);
            if (p != m && at != recordedAt_[p].end() &&
                at->second->state == CollectiveState::Completed)
                d.peers.push_back(planned_.ranks[p]);
        }
        const auto& entries = record_.entriesByRank.at(planned_.ranks[m]);
        if (d.peers.empty() && entries.back() != item.entry) return false;
        d.recorded = item.entry;
        d.seqId = item.entry->collectiveSeqId;
        d.timeNs = startedNs(*item.entry);
        out_.divergences.push_back(std::move(d));
        return true;
    }

    const PlannedStep& step_;
    const Scenario& scenario_;
    const Plan& plan_;
    const ProcessGroupRecord& record_;
    const PlannedGroup& planned_;
    const std::set<int64_t>& hung_;
    JobCheck& out_;
    // [member]: position -> the entry recorded there
    std::vector<std::unordered_map<int64_t, const FlightRecorderEntry*>> recordedAt_;
};

// A recorded group the plan has no group for: every entry unexpected (the
// world's barriers aside).
void checkUnplannedGroup(const ProcessGroupRecord& record, int64_t worldSize, JobCheck& out) {
    for (const auto& [rank, entries] : record.entriesByRank)
        for (const FlightRecorderEntry* e : entries) {
            if (isWorldBarrier(record, *e, worldSize)) {
                ++out.ignored;
                continue;
            }
            JobDivergence d;
            d.kind = DivergenceKind::Unexpected;
            d.rank = rank;
            d.groupRanks = record.ranks;
            d.groupDesc = record.desc;
            d.seqId = e->collectiveSeqId;
            d.recorded = e;
            d.timeNs = e->timeCreatedNs;
            out.divergences.push_back(std::move(d));
        }
}

// The ranks whose newest entry never completed: hung in it when they dumped.
std::set<int64_t> hungRanks(const JobRecord& job) {
    std::set<int64_t> out;
    for (const auto& [rank, dump] : job.dumps)
        if (!dump.entries.empty() && dump.entries.back().state != CollectiveState::Completed)
            out.insert(rank);
    return out;
}

int kindOrder(DivergenceKind kind) {  // at one time, the cause before what it leaves
    switch (kind) {
        case DivergenceKind::Missing:
            return 0;
        case DivergenceKind::Order:
            return 1;
        case DivergenceKind::Unexpected:
            return 2;
        case DivergenceKind::Size:
            return 3;
        case DivergenceKind::Dtype:
            return 4;
        case DivergenceKind::Stuck:
            return 5;
    }
    return 5;
}

// Where each divergence falls in its rank's own program: (training step,
// the planned collective's place among the rank's collectives); an
// unexpected one, which has no place, sorts last.
std::vector<std::pair<int64_t, int64_t>> programPlaces(const JobCheck& out,
                                                       const StepSchedule& schedule) {
    std::map<int64_t, std::unordered_map<int, int64_t>> placeOf;  // rank -> collective -> place
    std::vector<std::pair<int64_t, int64_t>> places;
    for (const JobDivergence& d : out.divergences) {
        if (!d.expected || d.rank < 0 || size_t(d.rank) >= schedule.ranks.size()) {
            places.emplace_back(INT64_MAX, INT64_MAX);
            continue;
        }
        auto [it, added] = placeOf.try_emplace(d.rank);
        if (added) {
            int64_t k = 0;
            for (const RankWork& w : schedule.ranks[size_t(d.rank)])
                if (w.kind == WorkKind::Collective) it->second.emplace(w.collective, k++);
        }
        const auto at = it->second.find(*d.expected);
        places.emplace_back(d.trainingStep, at == it->second.end() ? INT64_MAX : at->second);
    }
    return places;
}

// The one to look at first: the earliest that is neither stuck (ranks stuck
// in a collective are what a missing or mismatched call leaves behind) nor
// after another divergence of its own rank in that rank's program (a rank
// that failed at its third collective never records its fourth either, and
// a peer that raced ahead can date the fourth's absence first); else the
// earliest that is not stuck, else the earliest.
void chooseFirst(JobCheck& out, const StepSchedule& schedule) {
    const auto places = programPlaces(out, schedule);
    std::map<int64_t, std::pair<int64_t, int64_t>> earliestOfRank;
    for (size_t i = 0; i < out.divergences.size(); ++i) {
        const JobDivergence& d = out.divergences[i];
        if (d.kind == DivergenceKind::Stuck) continue;
        auto [it, added] = earliestOfRank.try_emplace(d.rank, places[i]);
        if (!added) it->second = std::min(it->second, places[i]);
    }
    for (size_t i = 0; i < out.divergences.size() && !out.first; ++i) {
        const JobDivergence& d = out.divergences[i];
        if (d.kind != DivergenceKind::Stuck && places[i] == earliestOfRank.at(d.rank))
            out.first = i;
    }
    for (size_t i = 0; i < out.divergences.size() && !out.first; ++i)
        if (out.divergences[i].kind != DivergenceKind::Stuck) out.first = i;
    if (!out.first && !out.divergences.empty()) out.first = 0;
}

void orderByTime(JobCheck& out, const StepSchedule& schedule) {
    std::stable_sort(out.divergences.begin(), out.divergences.end(),
                     [](const JobDivergence& a, const JobDivergence& b) {
                         return std::tuple(a.timeNs, kindOrder(a.kind), a.rank, a.seqId) <
                                std::tuple(b.timeNs, kindOrder(b.kind), b.rank, b.seqId);
                     });
    chooseFirst(out, schedule);
}

}  // namespace

JobCheck checkJob(const PlannedStep& step, const Scenario& scenario, const Plan& plan,
                  const JobRecord& job) {
    JobCheck out;
    out.ranksWithoutDump = job.ranksWithoutDump;
    out.ranksFromTrace = job.ranksFromTrace;
    out.recordWorldSize = job.worldSize;
    for (const auto& [rank, dump] : job.dumps) {
        out.ranks.push_back(rank);
        for (const auto& e : dump.entries) out.nowNs = std::max(out.nowNs, newestNs(e));
    }
    std::map<std::vector<int64_t>, size_t> plannedByMembers;
    for (size_t g = 0; g < step.groups.size(); ++g) {
        auto members = step.groups[g].ranks;
        std::sort(members.begin(), members.end());
        plannedByMembers.emplace(std::move(members), g);
    }
    const std::set<int64_t> hung = hungRanks(job);
    for (const ProcessGroupRecord& record : processGroupRecords(job)) {
        auto members = record.ranks;
        std::sort(members.begin(), members.end());
        const auto planned = plannedByMembers.find(members);
        if (planned == plannedByMembers.end())
            checkUnplannedGroup(record, std::max(job.worldSize, int64_t(scenario.worldSize)), out);
        else
            GroupCheck(step, scenario, plan, record, step.groups[planned->second], hung, out).run();
    }
    orderByTime(out, step.schedule);
    return out;
}

}  // namespace hsdp
