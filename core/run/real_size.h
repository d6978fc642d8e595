// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/trace.h"
#include "types/scenario.h"
#include "verify/run_result.h"

namespace hsdp {

// docs/run.md §6: a shrunk run moves the bytes of smaller tensors than the
// model's. Its byte figures at the real shapes scale each parameter's (TP
// transition's) bytes by real numel / run numel, with the run's shapes
// recomputed by the shrink itself (shrinkAtFactor). Exact for shards that
// divide evenly without padding; alignment padding, which is per segment and
// does not grow with the shapes, is kept as the run had it (at the real
// shapes it differs by less than the alignment per segment).
struct RealScale {
    int64_t factor = 1;          // 1: the run used the real shapes
    std::vector<double> params;  // per param index: real numel / run numel
    std::vector<double> tps;     // per TP transition index

    bool shrunk() const { return factor > 1; }
    // `runBytes` of a collective labelled `label` (a multiple of its slot), at
    // the real shapes: its segments' payloads scaled by their params' ratios,
    // their padding kept; a TP transition's or
    // params without segments take their (mean) ratio; nullopt when the label
    // names neither (a barrier).
    std::optional<double> realBytes(const CollectiveLabel& label, double runBytes) const;
};

RealScale realScale(const Scenario& scenario, const std::optional<ShrinkInfo>& shrink);

// Every event's bytes at the real shapes, each rounded to a byte and summed
// (so the total does not depend on the events' order): the real-size
// RunResult::bytes.
int64_t realWireBytes(const Trace& trace, const RealScale& scale);

}  // namespace hsdp
