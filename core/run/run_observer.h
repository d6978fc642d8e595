// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tensor/tensor.h"
#include "types/scenario.h"

namespace hsdp {

// Hooks a run calls while it goes, so a front end can keep what the ranks
// hold without core/ knowing where it goes (the CLI writes .npy files, a GUI
// may keep tensors in memory). Called from the rank threads, several at once:
// implementations must be thread-safe. An exception thrown here stops the run
// with that error, like a failed collective.
class RunObserver {
public:
    virtual ~RunObserver() = default;
    // The full gradient `rank` gathered for `param` (owners in gathered batches).
    virtual void gatheredTensor(int rank, const ParamSpec& param, const Tensor& full) = 0;
    // The local tensor `rank` holds of `param` after the step and the replica broadcast.
    virtual void finalTensor(int rank, const ParamSpec& param, const Tensor& local) = 0;
    // `rank` is about to run Newton–Schulz on its tensor of `shape` of `param`
    // (the whole matrix, or the slices of a stack it holds): what it computes.
    virtual void orthogonalising(int rank, const ParamSpec& param,
                                 const std::vector<int64_t>& shape) {
        (void)rank, (void)param, (void)shape;
    }
};

}  // namespace hsdp
