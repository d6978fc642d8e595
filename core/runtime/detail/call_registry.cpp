// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/call_registry.h"

namespace hsdp {

std::optional<CallRegistry::Mismatch> CallRegistry::arrive(const std::string& groupKey,
                                                           int groupSize, int64_t groupSeq,
                                                           int rank, const std::string& signature) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = entries_.try_emplace({groupKey, groupSeq});
    Entry& entry = it->second;
    if (inserted) {
        entry.signature = signature;
        entry.firstRank = rank;
    }
    std::optional<Mismatch> mismatch;
    if (entry.signature != signature) mismatch = Mismatch{entry.firstRank, entry.signature};
    if (++entry.arrived == groupSize) entries_.erase(it);
    return mismatch;
}

}  // namespace hsdp
