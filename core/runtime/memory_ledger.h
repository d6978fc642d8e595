// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "types/step_memory.h"

namespace hsdp {

// The measured side of the step's memory: each rank thread counts the
// buffers it allocates for the optimizer step on its own tally, where they are
// allocated and freed (docs/cost-model.md "Memory" lists the sites and what is
// not counted). Nothing is counted on a thread without a ledger.

// The tally of the rank this thread runs, or null.
MemoryTally* threadLedger();

// Makes `tally` this thread's ledger for the scope's lifetime.
class LedgerScope {
public:
    explicit LedgerScope(MemoryTally& tally);
    ~LedgerScope();
    LedgerScope(const LedgerScope&) = delete;
    LedgerScope& operator=(const LedgerScope&) = delete;

private:
    MemoryTally* previous_;
};

// One buffer's bytes, counted on this thread's ledger from construction to
// destruction (or reset). Construct it right after allocating the buffer,
// from the buffer's own size.
class MemoryCharge {
public:
    MemoryCharge() = default;
    MemoryCharge(MemoryKind kind, int64_t bytes);
    ~MemoryCharge() { reset(); }
    MemoryCharge(MemoryCharge&& other) noexcept;
    MemoryCharge& operator=(MemoryCharge&& other) noexcept;
    MemoryCharge(const MemoryCharge&) = delete;
    MemoryCharge& operator=(const MemoryCharge&) = delete;
    void reset();

private:
    MemoryTally* tally_ = nullptr;  // the ledger it was charged to: freed there
    MemoryKind kind_ = MemoryKind::Param;
    int64_t bytes_ = 0;
};

// `storage` as a handle that also holds a charge of `bytes`: the charge ends
// when the last copy of the handle (every view of the buffer) is gone.
std::shared_ptr<float> chargedStorage(std::shared_ptr<float> storage, MemoryKind kind,
                                      int64_t bytes);

}  // namespace hsdp
