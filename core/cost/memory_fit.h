// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "plan/plan.h"
#include "types/gather_strategy.h"
#include "types/scenario.h"
#include "types/step_memory.h"

namespace hsdp {

// Whether a plan's optimizer step fits its devices' memory, and what would
// make it fit (docs/cost-model.md, "Does it fit").

// A change of the scenario's options under which every rank's predicted
// peak fits: found by planning the changed scenario and running the memory
// model on that plan, never estimated.
struct MemoryRemedy {
    // options.max_batch_numel to set; nullopt: the scenario's own.
    std::optional<int64_t> maxBatchNumel;
    // options.gather_strategy to set for every gathered group; nullopt: as the plan has them.
    std::optional<GatherStrategy> gatherStrategy;
    int peakRank = 0;  // the rank that peaks highest under it (the first)
    int64_t peakBytes = 0;
};

// The share of a device's memory a step's predicted peak should leave free:
// the CUDA context, the caching allocator's fragmentation and whatever else
// the job keeps beside the optimizer step are not in the prediction (a new
// user read a peak at 98.5 % of the device as "fits").
inline constexpr double kMemoryHeadroom = 0.10;

// The peak a remedy must stay under: the device's memory less the headroom,
// so that a remedy never lands on the warning memory-tight (a cap that just
// fit left a step at 99.9 % of the device).
inline int64_t remedyBudget(int64_t deviceBytes) {
    return int64_t(double(deviceBytes) * (1 - kMemoryHeadroom));
}

struct MemoryFit {
    int64_t deviceBytes = 0;  // the device's memory; 0: the cluster does not say
    std::string deviceName;   // as the cluster names it ("" : none)
    int peakRank = 0;         // the rank with the highest peak (the first)
    int64_t peakBytes = 0;
    int64_t residentBytes = 0;  // of the peak rank, held all step long
    int ranks = 0;              // ranks predicted
    int ranksOver = 0;          // of which peak above deviceBytes
    int peakEntry = -1;         // the schedule entry of the peak rank's peak (-1: none or local)
    // When it does not fit and the step was predicted at the scenario's real
    // shapes: every remedy that fits, the batch cap first. Empty with
    // `floorBytes` set: none does.
    bool searched = false;
    std::vector<MemoryRemedy> remedies;
    // The lightest step tried (one param per batch, the lighter strategy):
    // its peak and the resident bytes of that rank, when no remedy fits.
    int floorRank = 0;
    int64_t floorBytes = 0;
    int64_t floorResidentBytes = 0;

    bool fits() const { return deviceBytes <= 0 || peakBytes <= deviceBytes; }
    int64_t overBytes() const { return fits() ? 0 : peakBytes - deviceBytes; }
    // Fits, but within kMemoryHeadroom of the device's memory.
    bool tight() const {
        return fits() && deviceBytes > 0 &&
               double(peakBytes) > (1 - kMemoryHeadroom) * double(deviceBytes);
    }
};

// Every rank's predicted step memory (`memory`, predictStepMemory of `plan`)
// against `cluster`'s device memory; no remedy looked for.
MemoryFit memoryFitOf(const Plan& plan, const std::vector<StepMemory>& memory,
                      const Cluster& cluster);

// The same, and when the step does not fit, its remedies, each verified by
// the memory model at the scenario's real shapes and each leaving the
// headroom (remedyBudget): the largest options.max_batch_numel that does
// under the plan's gather strategies
// (bisected between one param per batch and the plan's cap, each candidate
// re-planned and predicted; the cap returned fits and the next one up does
// not), the other gather strategy for every gathered group at the plan's
// cap, and only when neither fits, the largest cap under the other
// strategy. A plan that fits costs nothing more than memoryFitOf. Throws
// Stopped (types/stopped.h) once `stop` is requested.
MemoryFit memoryFit(const Scenario& scenario, const Plan& plan,
                    const std::vector<StepMemory>& memory, const Cluster& cluster,
                    std::stop_token stop = {});

// The out-of-memory error for a step that does not fit (nullopt when it
// fits): the worst rank, its peak, the bytes over the device, how many
// ranks are over, where it peaks, and the remedies (or that none fits).
// Its params are those of the batch where the worst rank peaks.
std::optional<Diagnostic> outOfMemoryDiagnostic(const MemoryFit& fit, const Plan& plan);

// The warning memory-tight for a step that fits within kMemoryHeadroom of
// the device (nullopt otherwise): the rank, its peak's share of the device,
// what is left, where it peaks.
std::optional<Diagnostic> memoryTightDiagnostic(const MemoryFit& fit, const Plan& plan);

// Whichever of the two applies (at most one does).
std::optional<Diagnostic> memoryDiagnostic(const MemoryFit& fit, const Plan& plan);

}  // namespace hsdp
