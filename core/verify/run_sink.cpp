// SPDX-License-Identifier: Apache-2.0
#include "verify/run_sink.h"

#include <algorithm>

#include <cstring>

namespace hsdp {

void RunSink::gathered(int param, int rank, std::optional<Mismatch> mismatch) {
    std::lock_guard lock(mutex_);
    auto& r = params_[param];
    ++r.gatheredRanks;
    if (mismatch) r.gatherMismatches.push_back(*mismatch);
    (void)rank;
}

void RunSink::gatherError(int param, int rank, const std::string& text) {
    std::lock_guard lock(mutex_);
    auto& r = params_[param];
    ++r.gatheredRanks;
    r.gatherErrors.push_back({rank, text});
}

void RunSink::finalState(int param, int rank, std::optional<Mismatch> mismatch, uint64_t hash,
                         const std::string& replicaKey) {
    std::lock_guard lock(mutex_);
    auto& r = params_[param];
    ++r.finalRanks;
    if (mismatch) r.stepMismatches.push_back(*mismatch);
    r.replicaHashes[replicaKey].push_back({rank, hash});
}

void RunSink::stepError(int param, int rank, const std::string& text) {
    std::lock_guard lock(mutex_);
    params_[param].stepErrors.push_back({rank, text});
}

void RunSink::updateMismatch(int param, Mismatch mismatch) {
    std::lock_guard lock(mutex_);
    params_[param].updateMismatches.push_back(std::move(mismatch));
}

void RunSink::tpResult(int transition, int rank, std::optional<Mismatch> mismatch) {
    std::lock_guard lock(mutex_);
    auto& r = tp_[transition];
    ++r.ranks;
    if (mismatch) r.mismatches.push_back(*mismatch);
    (void)rank;
}

void RunSink::tpError(int transition, int rank, const std::string& text) {
    std::lock_guard lock(mutex_);
    auto& r = tp_[transition];
    ++r.ranks;
    r.errors.push_back({rank, text});
}

namespace {

template <typename T>
void append(std::vector<T>& into, const std::vector<T>& from) {
    into.insert(into.end(), from.begin(), from.end());
}

}  // namespace

void RunSink::stepMemory(const StepMemory& memory) {
    std::lock_guard lock(mutex_);
    memory_[memory.rank] = memory;
}

void RunSink::absorb(const std::map<int, ParamRecords>& params, const std::map<int, TpRecords>& tp,
                     const std::map<int, StepMemory>& memory) {
    for (const auto& [rank, m] : memory) memory_[rank] = m;
    for (const auto& [index, from] : params) {
        auto& r = params_[index];
        r.gatheredRanks += from.gatheredRanks;
        append(r.gatherMismatches, from.gatherMismatches);
        append(r.gatherErrors, from.gatherErrors);
        r.finalRanks += from.finalRanks;
        append(r.stepMismatches, from.stepMismatches);
        append(r.stepErrors, from.stepErrors);
        append(r.updateMismatches, from.updateMismatches);
        for (const auto& [key, hashes] : from.replicaHashes) append(r.replicaHashes[key], hashes);
    }
    for (const auto& [index, from] : tp) {
        auto& r = tp_[index];
        r.ranks += from.ranks;
        append(r.mismatches, from.mismatches);
        append(r.errors, from.errors);
        for (const auto& [rank, output] : from.outputs) r.outputs[rank] = output;
        r.paths.insert(from.paths.begin(), from.paths.end());
    }
}

void RunSink::stepTimes(int rank, double startUs, double endUs) {
    std::lock_guard lock(mutex_);
    rankStepUs_[rank] = {startUs, endUs};
}

double RunSink::stepSeconds() const {
    if (rankStepUs_.empty()) return 0;
    double start = rankStepUs_.begin()->second.first, end = rankStepUs_.begin()->second.second;
    for (const auto& [rank, times] : rankStepUs_) {
        start = std::min(start, times.first);
        end = std::max(end, times.second);
    }
    return (end - start) / 1e6;
}

std::vector<std::pair<double, double>> RunSink::rankStepTimes(int worldSize) const {
    std::vector<std::pair<double, double>> out(size_t(std::max(worldSize, 0)), {0.0, 0.0});
    for (const auto& [rank, times] : rankStepUs_)
        if (rank >= 0 && rank < worldSize) out[size_t(rank)] = times;
    return out;
}

void RunSink::tpOutput(int transition, int rank, const Coord& coord, const Tensor& out) {
    std::lock_guard lock(mutex_);
    tp_[transition].outputs[rank] = {coord, out};
}

void RunSink::tpPath(int transition, const std::string& path) {
    std::lock_guard lock(mutex_);
    tp_[transition].paths.insert(path);
}

uint64_t tensorHash(const Tensor& t) {
    uint64_t h = 1469598103934665603ull;
    for (float f : t.data) {
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        h = (h ^ bits) * 1099511628211ull;
    }
    for (auto s : t.shape) h = (h ^ uint64_t(s)) * 1099511628211ull;
    return h;
}

}  // namespace hsdp
