// SPDX-License-Identifier: Apache-2.0
#include "export/npy_dump.h"

#include <filesystem>

#include "export/npy.h"

namespace hsdp {

void NpyDump::gatheredTensor(int rank, const ParamSpec& param, const Tensor& full) {
    write(rank, "gathered", param, full);
}

void NpyDump::finalTensor(int rank, const ParamSpec& param, const Tensor& local) {
    write(rank, "final", param, local);
}

void NpyDump::write(int rank, const char* kind, const ParamSpec& param, const Tensor& t) const {
    const std::filesystem::path path = std::filesystem::path(dir_) /
                                       ("rank" + std::to_string(rank)) / kind /
                                       (npyFileName(param.name) + ".npy");
    writeNpyFloat32(path.string(), t.shape, t.data.data());
}

}  // namespace hsdp
