// SPDX-License-Identifier: Apache-2.0
#include "runtime/memory_ledger.h"

#include <utility>

namespace hsdp {

namespace {
thread_local MemoryTally* tCurrent = nullptr;
}

MemoryTally* threadLedger() {
    return tCurrent;
}

LedgerScope::LedgerScope(MemoryTally& tally) : previous_(tCurrent) {
    tCurrent = &tally;
}

LedgerScope::~LedgerScope() {
    tCurrent = previous_;
}

MemoryCharge::MemoryCharge(MemoryKind kind, int64_t bytes)
    : tally_(tCurrent), kind_(kind), bytes_(bytes) {
    if (tally_) tally_->add(kind_, bytes_);
}

MemoryCharge::MemoryCharge(MemoryCharge&& other) noexcept
    : tally_(std::exchange(other.tally_, nullptr)), kind_(other.kind_), bytes_(other.bytes_) {}

MemoryCharge& MemoryCharge::operator=(MemoryCharge&& other) noexcept {
    if (this != &other) {
        reset();
        tally_ = std::exchange(other.tally_, nullptr);
        kind_ = other.kind_;
        bytes_ = other.bytes_;
    }
    return *this;
}

void MemoryCharge::reset() {
    if (tally_) tally_->remove(kind_, bytes_);
    tally_ = nullptr;
}

std::shared_ptr<float> chargedStorage(std::shared_ptr<float> storage, MemoryKind kind,
                                      int64_t bytes) {
    struct Held {
        std::shared_ptr<float> storage;
        MemoryCharge charge;
    };
    float* data = storage.get();
    auto held = std::make_shared<Held>(Held{std::move(storage), MemoryCharge(kind, bytes)});
    return std::shared_ptr<float>(held, data);  // aliasing: owns `held`, points at the data
}

}  // namespace hsdp
