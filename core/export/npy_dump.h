// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "run/run_observer.h"

namespace hsdp {

// Writes what the ranks hold as float32 .npy files:
// DIR/rank<r>/gathered/<param>.npy and DIR/rank<r>/final/<param>.npy
// (file names from npyFileName). Each rank thread writes its own files.
class NpyDump : public RunObserver {
public:
    explicit NpyDump(std::string dir) : dir_(std::move(dir)) {}
    void gatheredTensor(int rank, const ParamSpec& param, const Tensor& full) override;
    void finalTensor(int rank, const ParamSpec& param, const Tensor& local) override;

private:
    void write(int rank, const char* kind, const ParamSpec& param, const Tensor& t) const;
    std::string dir_;
};

}  // namespace hsdp
