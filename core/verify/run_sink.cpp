#include "verify/run_sink.h"

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
