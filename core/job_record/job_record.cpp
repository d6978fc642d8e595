// SPDX-License-Identifier: Apache-2.0
#include "job_record/job_record.h"

#include <algorithm>
#include <tuple>

namespace hsdp {

namespace {

// Collectives first in their order, then point-to-point ops in theirs; ops of
// one coalesced launch share a sequence id and keep their op_id order.
bool recordedBefore(const FlightRecorderEntry* a, const FlightRecorderEntry* b) {
    const auto key = [](const FlightRecorderEntry* e) {
        return std::make_tuple(e->isP2P, e->isP2P ? e->p2pSeqId : e->collectiveSeqId, e->opId,
                               e->recordId);
    };
    return key(a) < key(b);
}

using GroupKey = std::pair<std::string, std::vector<int64_t>>;

}  // namespace

std::vector<ProcessGroupRecord> processGroupRecords(const JobRecord& job) {
    std::map<GroupKey, ProcessGroupRecord> groups;
    for (const auto& [rank, dump] : job.dumps) {
        for (const auto& group : dump.groups) {
            auto& record = groups[{group.name, group.ranks}];
            record.name = group.name;
            record.desc = group.desc;
            record.ranks = group.ranks;
            record.entriesByRank[rank];  // a member that recorded nothing still shows
        }
        for (const auto& entry : dump.entries) {
            const FlightRecorderGroup* group = dump.findGroup(entry.pgName);
            if (group) groups[{group->name, group->ranks}].entriesByRank[rank].push_back(&entry);
        }
    }
    std::vector<ProcessGroupRecord> out;
    for (auto& [key, record] : groups) {
        for (auto& [rank, entries] : record.entriesByRank)
            std::stable_sort(entries.begin(), entries.end(), recordedBefore);
        out.push_back(std::move(record));
    }
    return out;
}

}  // namespace hsdp
