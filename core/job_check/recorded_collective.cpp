// SPDX-License-Identifier: Apache-2.0
#include "job_check/recorded_collective.h"

#include <map>

namespace hsdp {

std::string torchDtypeName(DType dtype) {
    switch (dtype) {
        case DType::F32:
            return "Float";
        case DType::BF16:
            return "BFloat16";
        case DType::F16:
            return "Half";
        case DType::F64:
            return "Double";
    }
    return "Float";
}

std::string profilingNameOf(std::string_view op) {
    static const std::map<std::string, std::string, std::less<>> names = {
        {"all_gather", "nccl:_all_gather_base"},
        {"all_gather_v", "nccl:all_gather"},
        {"broadcast", "nccl:broadcast"},
        {"all_reduce", "nccl:all_reduce"},
        {"reduce_scatter", "nccl:_reduce_scatter_base"},
        {"all_to_all", "nccl:all_to_all"},
        {"all_to_all_v", "nccl:all_to_all"},
        {"barrier", "nccl:all_reduce"}};
    const auto found = names.find(op);
    return found == names.end() ? "nccl:" + std::string(op) : found->second;
}

namespace {

// The element type the buffers are counted in: a reduction's own (it
// computes in it), else the contents' when they share one and both buffers
// hold whole elements of it; nullopt: bytes.
std::optional<DType> elementOf(const CollectiveBuffers& b) {
    if (b.reduction) return b.reduction;
    if (b.contents.empty()) return std::nullopt;
    const DType shared = b.contents.front();
    for (DType d : b.contents)
        if (d != shared) return std::nullopt;  // a fused buffer of mixed dtypes
    const int64_t size = dtypeSize(shared);
    if (b.inputBytes % size != 0 || b.outputBytes % size != 0) return std::nullopt;
    return shared;
}

}  // namespace

RecordedForm recordedForm(const CollectiveBuffers& buffers) {
    RecordedForm out;
    out.profilingName = profilingNameOf(buffers.op);
    if (buffers.op == "barrier") {  // NCCL's barrier is an all-reduce of one float
        out.inputSizes = out.outputSizes = {{1}};
        out.inputDtypes = out.outputDtypes = {"Float"};
        return out;
    }
    const std::optional<DType> element = elementOf(buffers);
    const int64_t size = element ? dtypeSize(*element) : 1;
    out.inputSizes = {{buffers.inputBytes / size}};
    out.outputSizes = {{buffers.outputBytes / size}};
    out.inputDtypes = out.outputDtypes = {element ? torchDtypeName(*element) : "Byte"};
    return out;
}

}  // namespace hsdp
