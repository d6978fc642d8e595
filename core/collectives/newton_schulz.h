// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tensor/tensor.h"
#include "types/dtype.h"

namespace hsdp {

// Muon's quintic Newton–Schulz orthogonalisation (docs/run.md §2), fp32, over the
// last two dims and batched over the leading ones; 1-D (and 0-D) tensors take
// the plain scaled copy G / (||G|| + 1e-7). The distributed run and the
// single-device reference both call this one function on freshly copied
// slices, so equal inputs give bit-identical outputs.
Tensor newtonSchulz(const Tensor& grad);
// The same on `matrix` itself (a fresh fp32 copy the caller owns).
void newtonSchulzInPlace(Tensor& matrix);

// Five steps on one rows x cols row-major matrix, in place. Its workspace
// (newtonSchulzWorkspaceBytes) is counted on the thread's memory ledger.
void newtonSchulz2d(float* data, int64_t rows, int64_t cols);
// The workspace one 2-D slice of `shape` takes, while it runs (0 for 1-D).
int64_t newtonSchulzWorkspaceBytes(const std::vector<int64_t>& shape);

// param = round_dtype(param - lr * update), the arithmetic in fp32.
void applyUpdate(Tensor& param, const Tensor& update, double lr, DType dtype);

// The approximate flop count of newtonSchulz on `shape` (for the size budget).
double newtonSchulzFlops(const std::vector<int64_t>& shape);

}  // namespace hsdp
