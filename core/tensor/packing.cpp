// SPDX-License-Identifier: Apache-2.0
#include "tensor/packing.h"

#include <algorithm>

#include "tensor/dtype_codec.h"
#include "types/scenario.h"

namespace hsdp {

int64_t alignmentElements(int64_t alignmentBytes, int elementSize) {
    return std::max<int64_t>(1, alignmentBytes / elementSize);
}

int64_t paddedElements(int64_t numel, int64_t alignmentBytes, int elementSize) {
    int64_t a = alignmentElements(alignmentBytes, elementSize);
    return (numel + a - 1) / a * a;
}

std::vector<BufferSegment> PackLayout::segments(const std::vector<int>& params) const {
    std::vector<BufferSegment> out;
    for (size_t i = 0; i < offset.size(); ++i)
        out.push_back({params.at(i), offset[i], length[i], capacity[i] - length[i]});
    return out;
}

PackLayout packLayout(const std::vector<int64_t>& lengths, const std::vector<int64_t>& capacities) {
    PackLayout layout;
    for (size_t i = 0; i < lengths.size(); ++i) {
        layout.offset.push_back(layout.total);
        layout.length.push_back(lengths[i]);
        layout.capacity.push_back(capacities[i]);
        layout.total += capacities[i];
    }
    return layout;
}

void encodeTensor(const Tensor& t, DType dtype, std::byte* dst) {
    encodeValues(dtype, t.data.data(), t.numel(), dst);
}

Tensor decodeTensor(const std::byte* src, DType dtype, std::vector<int64_t> shape) {
    Tensor t(std::move(shape));
    decodeValues(dtype, src, t.numel(), t.data.data());
    return t;
}

std::vector<std::byte> poisonBuffer(int64_t bytes) {
    return std::vector<std::byte>(static_cast<size_t>(std::max<int64_t>(bytes, 0)), kPoisonByte);
}

}  // namespace hsdp
