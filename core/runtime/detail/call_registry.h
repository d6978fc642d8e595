// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace hsdp {

// In-process check that every member of a group makes the same call as its
// n-th collective on that group (same op, sizes, root, dtype). Gloo cannot
// survive a mismatch: a peer sending more bytes than posted makes its event
// loop throw, which terminates the process. Every rank lives in this
// process, so the check needs no message: the first member to arrive leaves
// its call's signature, the others compare against it, the last one erases it.
class CallRegistry {
public:
    struct Mismatch {
        int firstRank = -1;     // the global rank whose call was registered first
        std::string signature;  // what it called
    };

    std::optional<Mismatch> arrive(const std::string& groupKey, int groupSize, int64_t groupSeq,
                                   int rank, const std::string& signature);

private:
    struct Entry {
        std::string signature;
        int firstRank = -1;
        int arrived = 0;
    };
    std::mutex mutex_;
    std::map<std::pair<std::string, int64_t>, Entry> entries_;
};

}  // namespace hsdp
