// SPDX-License-Identifier: Apache-2.0
#include "runtime/reduce_kernels.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "types/float16.h"

namespace hsdp {
namespace {

// Storage type <-> compute type per dtype, resolved at compile time so the
// element loops carry no per-element dispatch.
struct F32Codec {
    using Wide = float;
    static float load(const void* base, size_t i) { return static_cast<const float*>(base)[i]; }
    static void store(void* base, size_t i, float v) { static_cast<float*>(base)[i] = v; }
};
struct F64Codec {
    using Wide = double;
    static double load(const void* base, size_t i) { return static_cast<const double*>(base)[i]; }
    static void store(void* base, size_t i, double v) { static_cast<double*>(base)[i] = v; }
};
struct Bf16Codec {
    using Wide = float;
    static float load(const void* base, size_t i) {
        return bf16ToFloat(static_cast<const uint16_t*>(base)[i]);
    }
    static void store(void* base, size_t i, float v) {
        static_cast<uint16_t*>(base)[i] = floatToBf16(v);
    }
};
struct F16Codec {
    using Wide = float;
    static float load(const void* base, size_t i) {
        return f16ToFloat(static_cast<const uint16_t*>(base)[i]);
    }
    static void store(void* base, size_t i, float v) {
        static_cast<uint16_t*>(base)[i] = floatToF16(v);
    }
};

template <typename Fn>
void withCodec(DType dtype, Fn&& fn) {
    switch (dtype) {
        case DType::F32:
            fn(F32Codec{});
            return;
        case DType::F64:
            fn(F64Codec{});
            return;
        case DType::BF16:
            fn(Bf16Codec{});
            return;
        case DType::F16:
            fn(F16Codec{});
            return;
    }
}

template <typename Wide>
Wide combine(ReduceOp op, Wide a, Wide b) {
    switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Avg:
            return a + b;
        case ReduceOp::Product:
            return a * b;
        case ReduceOp::Max:
            return std::max(a, b);
        case ReduceOp::Min:
            return std::min(a, b);
    }
    return a;
}

template <typename Codec, ReduceOp Op>
void reduceLoop(void* out, const void* a, const void* b, size_t count) {
    for (size_t i = 0; i < count; ++i)
        Codec::store(out, i, combine(Op, Codec::load(a, i), Codec::load(b, i)));
}

}  // namespace

void reduceElements(DType dtype, ReduceOp op, void* out, const void* a, const void* b,
                    size_t count) {
    withCodec(dtype, [&](auto codec) {
        using Codec = decltype(codec);
        switch (op) {
            case ReduceOp::Sum:
            case ReduceOp::Avg:
                reduceLoop<Codec, ReduceOp::Sum>(out, a, b, count);
                return;
            case ReduceOp::Product:
                reduceLoop<Codec, ReduceOp::Product>(out, a, b, count);
                return;
            case ReduceOp::Max:
                reduceLoop<Codec, ReduceOp::Max>(out, a, b, count);
                return;
            case ReduceOp::Min:
                reduceLoop<Codec, ReduceOp::Min>(out, a, b, count);
                return;
        }
    });
}

void divideElements(DType dtype, void* buffer, size_t count, int divisor) {
    withCodec(dtype, [&](auto codec) {
        using Codec = decltype(codec);
        using Wide = typename Codec::Wide;
        for (size_t i = 0; i < count; ++i)
            Codec::store(buffer, i, Codec::load(buffer, i) / static_cast<Wide>(divisor));
    });
}

void reduceBlocks(DType dtype, ReduceOp op, void* out, const void* const* blocks, size_t blockCount,
                  size_t count) {
    if (blockCount == 0 || count == 0) return;
    withCodec(dtype, [&](auto codec) {
        using Codec = decltype(codec);
        using Wide = typename Codec::Wide;
        std::vector<Wide> acc(count);
        for (size_t i = 0; i < count; ++i) acc[i] = Codec::load(blocks[0], i);
        for (size_t b = 1; b < blockCount; ++b)
            for (size_t i = 0; i < count; ++i)
                acc[i] = combine(op, acc[i], Codec::load(blocks[b], i));
        if (op == ReduceOp::Avg)
            for (auto& value : acc) value /= static_cast<Wide>(blockCount);
        for (size_t i = 0; i < count; ++i) Codec::store(out, i, acc[i]);
    });
}

}  // namespace hsdp
