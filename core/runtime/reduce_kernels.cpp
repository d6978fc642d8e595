#include "runtime/reduce_kernels.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/float16.h"

namespace hsdp {
namespace {

template <typename T>
T combine(ReduceOp op, T a, T b) {
    switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Avg: return a + b;
        case ReduceOp::Product: return a * b;
        case ReduceOp::Max: return std::max(a, b);
        case ReduceOp::Min: return std::min(a, b);
    }
    return a;
}

// Element access in the compute type: fp32 for f32/bf16/f16, fp64 for f64.
template <typename Wide>
Wide load(DType dtype, const void* base, size_t i) {
    switch (dtype) {
        case DType::F32: return static_cast<Wide>(static_cast<const float*>(base)[i]);
        case DType::F64: return static_cast<Wide>(static_cast<const double*>(base)[i]);
        case DType::BF16: return bf16ToFloat(static_cast<const uint16_t*>(base)[i]);
        case DType::F16: return f16ToFloat(static_cast<const uint16_t*>(base)[i]);
    }
    return Wide{};
}

template <typename Wide>
void store(DType dtype, void* base, size_t i, Wide value) {
    switch (dtype) {
        case DType::F32: static_cast<float*>(base)[i] = static_cast<float>(value); return;
        case DType::F64: static_cast<double*>(base)[i] = static_cast<double>(value); return;
        case DType::BF16: static_cast<uint16_t*>(base)[i] = floatToBf16(static_cast<float>(value)); return;
        case DType::F16: static_cast<uint16_t*>(base)[i] = floatToF16(static_cast<float>(value)); return;
    }
}

template <typename Wide>
void reduceTyped(DType dtype, ReduceOp op, void* out, const void* a, const void* b, size_t count) {
    for (size_t i = 0; i < count; ++i)
        store<Wide>(dtype, out, i, combine<Wide>(op, load<Wide>(dtype, a, i), load<Wide>(dtype, b, i)));
}

template <typename Wide>
void reduceBlocksTyped(DType dtype, ReduceOp op, void* out, const void* const* blocks,
                       size_t blockCount, size_t count) {
    std::vector<Wide> acc(count);
    for (size_t i = 0; i < count; ++i) acc[i] = load<Wide>(dtype, blocks[0], i);
    for (size_t b = 1; b < blockCount; ++b)
        for (size_t i = 0; i < count; ++i) acc[i] = combine<Wide>(op, acc[i], load<Wide>(dtype, blocks[b], i));
    if (op == ReduceOp::Avg)
        for (auto& value : acc) value /= static_cast<Wide>(blockCount);
    for (size_t i = 0; i < count; ++i) store<Wide>(dtype, out, i, acc[i]);
}

}  // namespace

void reduceElements(DType dtype, ReduceOp op, void* out, const void* a, const void* b,
                    size_t count) {
    if (dtype == DType::F64)
        reduceTyped<double>(dtype, op, out, a, b, count);
    else
        reduceTyped<float>(dtype, op, out, a, b, count);
}

void divideElements(DType dtype, void* buffer, size_t count, int divisor) {
    for (size_t i = 0; i < count; ++i) {
        if (dtype == DType::F64)
            store<double>(dtype, buffer, i, load<double>(dtype, buffer, i) / divisor);
        else
            store<float>(dtype, buffer, i, load<float>(dtype, buffer, i) / static_cast<float>(divisor));
    }
}

void reduceBlocks(DType dtype, ReduceOp op, void* out, const void* const* blocks, size_t blockCount,
                  size_t count) {
    if (blockCount == 0 || count == 0) return;
    if (dtype == DType::F64)
        reduceBlocksTyped<double>(dtype, op, out, blocks, blockCount, count);
    else
        reduceBlocksTyped<float>(dtype, op, out, blocks, blockCount, count);
}

}  // namespace hsdp
