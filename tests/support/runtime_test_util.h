// SPDX-License-Identifier: Apache-2.0
#pragma once

// Helpers shared by the runtime and run tests: typed buffers in a wire dtype and
// values that are exact in bf16, f16 and f32 (so are their sums over <= 8
// ranks), making every comparison bit-exact.

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "types/dtype.h"
#include "types/float16.h"
#include "verify/run_result.h"

namespace hsdp::testing {

// The event of collective `seq` on `rank`, or null.
inline const TraceEvent* eventOf(const RunResult& run, int64_t seq, int rank) {
    for (const auto& e : run.trace.events)
        if (e.seq == seq && e.rank == rank) return &e;
    return nullptr;
}

// A multiple of 1/16 in [-30/16, 30/16]: 5 significant bits at most.
inline float valueFor(int rank, int index, int salt = 0) {
    return static_cast<float>(((rank * 7 + index * 3 + salt * 11) % 61) - 30) / 16.0f;
}

inline void storeValue(DType dtype, std::vector<uint8_t>& bytes, size_t i, float value) {
    switch (dtype) {
        case DType::F32:
            std::memcpy(bytes.data() + 4 * i, &value, 4);
            break;
        case DType::F64: {
            const double wide = value;
            std::memcpy(bytes.data() + 8 * i, &wide, 8);
            break;
        }
        case DType::BF16: {
            const uint16_t bits = floatToBf16(value);
            std::memcpy(bytes.data() + 2 * i, &bits, 2);
            break;
        }
        case DType::F16: {
            const uint16_t bits = floatToF16(value);
            std::memcpy(bytes.data() + 2 * i, &bits, 2);
            break;
        }
    }
}

inline float loadValue(DType dtype, const std::vector<uint8_t>& bytes, size_t i) {
    uint16_t bits = 0;
    switch (dtype) {
        case DType::F32: {
            float value;
            std::memcpy(&value, bytes.data() + 4 * i, 4);
            return value;
        }
        case DType::F64: {
            double value;
            std::memcpy(&value, bytes.data() + 8 * i, 8);
            return static_cast<float>(value);
        }
        case DType::BF16:
            std::memcpy(&bits, bytes.data() + 2 * i, 2);
            return bf16ToFloat(bits);
        case DType::F16:
            std::memcpy(&bits, bytes.data() + 2 * i, 2);
            return f16ToFloat(bits);
    }
    return 0;
}

// `count` elements of `dtype` holding valueFor(rank, firstIndex + i, salt).
inline std::vector<uint8_t> rankData(DType dtype, int rank, size_t count, int firstIndex = 0,
                                     int salt = 0) {
    std::vector<uint8_t> bytes(count * static_cast<size_t>(dtypeSize(dtype)));
    for (size_t i = 0; i < count; ++i)
        storeValue(dtype, bytes, i, valueFor(rank, firstIndex + static_cast<int>(i), salt));
    return bytes;
}

}  // namespace hsdp::testing

namespace hsdp::testing {

// A parameter a run verified: exact step, identical replicas, gather exact or not needed.
inline bool paramVerified(const ParamRunResult& p) {
    return p.step == CheckVerdict::Exact && p.replicas == ReplicaVerdict::Identical &&
           (p.gather == GatherVerdict::Exact || p.gather == GatherVerdict::NotGathered);
}

// The indices of the parameters a run did not verify.
inline std::set<int> failedParams(const RunResult& run) {
    std::set<int> out;
    for (const auto& p : run.params)
        if (!paramVerified(p)) out.insert(p.index);
    return out;
}

}  // namespace hsdp::testing
