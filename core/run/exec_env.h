// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "run/run_observer.h"
#include "runtime/memory_ledger.h"
#include "tensor/tensor.h"
#include "types/scenario.h"
#include "verify/run_result.h"
#include "verify/run_sink.h"

namespace hsdp {

// Read-only inputs every rank thread of one run shares.
struct ExecEnv {
    const Scenario* scenario = nullptr;
    const Plan* plan = nullptr;
    RunMode mode = RunMode::Corrected;
    std::vector<std::vector<int64_t>> paramShapes;  // data shape per param (maybe shrunk)
    std::vector<std::vector<int64_t>> tpShapes;     // data shape per transition
    std::vector<Tensor> expected;  // per param: the single-device result (empty: not run)
    // per param: NS(G) on the full tensor, AdamW's update for an AdamW param (empty: frozen)
    std::vector<Tensor> expectedUpdate;
    RunSink* sink = nullptr;
    RunObserver* observer = nullptr;  // optional: sees gathered and final tensors
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double, const std::string&)> progress;  // called from rank 0's thread
};

// What one rank holds of one parameter while the step runs; each tensor is
// counted on the rank's memory ledger at its dtype's size (the host computes
// in fp32, the device holds the dtype).
struct ParamState {
    bool held = false;
    Coord coord;          // on the parameter's mesh (plain tensors: empty)
    Tensor grad;          // local shard of G (frozen params: none)
    Tensor momentum;      // Muon's buffer after this step, mu·0 + G: the first step from zero
                          // (AdamW: its first moment)
    Tensor secondMoment;  // AdamW only: its second moment
    Tensor weight;        // local parameter
    std::vector<MemoryCharge> resident;
};

}  // namespace hsdp
