// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"
#include "types/mesh.h"
#include "types/step_memory.h"
#include "verify/run_result.h"

namespace hsdp {

// What the rank threads report about each parameter and transition while the
// run goes; thread-safe. The runner folds it into a RunResult afterwards.
class RunSink {
public:
    void gathered(int param, int rank, std::optional<Mismatch> mismatch);
    void gatherError(int param, int rank, const std::string& text);
    // After the step and the replica broadcast: the rank's final local tensor.
    void finalState(int param, int rank, std::optional<Mismatch> mismatch, uint64_t hash,
                    const std::string& replicaKey);
    void stepError(int param, int rank, const std::string& text);
    // The update slice a rank applied differs from its part of NS(G).
    void updateMismatch(int param, Mismatch mismatch);
    void tpResult(int transition, int rank, std::optional<Mismatch> mismatch);
    void tpPath(int transition, const std::string& path);  // every rank, its own path
    void tpError(int transition, int rank, const std::string& text);
    // A transition whose dst is partial keeps every rank's output for the
    // semantic check (reduce over the partial dims, compare with the truth).
    void tpOutput(int transition, int rank, const Coord& coord, const Tensor& out);
    // The rank's optimizer step memory, as its ledger counted it.
    void stepMemory(const StepMemory& memory);

    // When `rank`'s optimizer step began (its local tensors built) and ended,
    // in microseconds on the trace's clock.
    void stepTimes(int rank, double startUs, double endUs);
    // The step's makespan over every rank that reported: the latest end minus
    // the earliest start, in seconds; 0 when none did.
    double stepSeconds() const;
    // [rank]: {start, end} microseconds of each rank's step; {0, 0} for a rank
    // that did not report (what a replay starts and ends each rank at).
    std::vector<std::pair<double, double>> rankStepTimes(int worldSize) const;

    struct RankError {
        int rank = -1;
        std::string text;
    };
    struct ParamRecords {
        int gatheredRanks = 0;
        std::vector<Mismatch> gatherMismatches;
        std::vector<RankError> gatherErrors;
        int finalRanks = 0;
        std::vector<Mismatch> stepMismatches;
        std::vector<RankError> stepErrors;
        std::vector<Mismatch> updateMismatches;
        std::map<std::string, std::vector<std::pair<int, uint64_t>>>
            replicaHashes;  // key -> (rank, hash)
    };
    struct TpRecords {
        int ranks = 0;
        std::vector<Mismatch> mismatches;
        std::vector<RankError> errors;
        std::map<int, std::pair<Coord, Tensor>> outputs;  // rank -> (coord, output)
        std::set<std::string> paths;  // as executed: lowered | identity | fallback (+ note)
    };
    // Adds what another process's ranks reported (a run split over processes):
    // counts add up, lists append, maps merge. Not thread-safe: after the run.
    void absorb(const std::map<int, ParamRecords>& params, const std::map<int, TpRecords>& tp,
                const std::map<int, StepMemory>& memory);

    // Read after the run (no lock needed then).
    const std::map<int, ParamRecords>& params() const { return params_; }
    const std::map<int, TpRecords>& transitions() const { return tp_; }
    const std::map<int, StepMemory>& memory() const { return memory_; }  // by rank

private:
    std::mutex mutex_;
    std::map<int, ParamRecords> params_;
    std::map<int, TpRecords> tp_;
    std::map<int, StepMemory> memory_;
    std::map<int, std::pair<double, double>> rankStepUs_;  // rank -> its step's {start, end}
};

// FNV-1a over the fp32 bytes: replicas compare by hash.
uint64_t tensorHash(const Tensor& t);

}  // namespace hsdp
