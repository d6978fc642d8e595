// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/saved_mesh.h"

#include <algorithm>

namespace hsdp {

int layoutDims(const ParallelLayout& l) {
    return 1 + (l.dpReplicate > 1) + (l.tp > 1);
}

std::string layoutText(const ParallelLayout& l) {
    std::string text;
    if (l.dpReplicate > 1) text += "dp_replicate=" + std::to_string(l.dpReplicate) + ",";
    text += "dp_shard=" + std::to_string(l.dpShard);
    if (l.tp > 1) text += ",tp=" + std::to_string(l.tp);
    if (l.ep > 1) text += ",ep=" + std::to_string(l.ep);
    return text;
}

std::vector<ParallelLayout> savedLayoutCandidates(int64_t writers) {
    std::vector<ParallelLayout> out;
    for (int64_t r = 1; r <= writers; ++r) {
        if (writers % r) continue;
        for (int64_t t = 1; t <= writers / r; ++t)
            if ((writers / r) % t == 0) out.push_back({r, writers / r / t, t, 1});
    }
    std::stable_sort(out.begin(), out.end(), [](const ParallelLayout& a, const ParallelLayout& b) {
        const int da = layoutDims(a), db = layoutDims(b);
        if (da != db) return da < db;
        // dp_replicate x dp_shard (HSDP) before dp_shard x tp.
        if ((a.tp > 1) != (b.tp > 1)) return a.tp == 1;
        return a.dpShard > b.dpShard;
    });
    return out;
}

}  // namespace hsdp
