// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tensor/tensor.h"
#include "types/dtype.h"
#include "types/scenario.h"

namespace hsdp {

// Muon's quintic Newton–Schulz orthogonalisation (docs/run.md §2), as
// `options` (the scenario's options.newton_schulz) say: its steps, their
// coefficients, fp32 or bf16 products; over the last two dims and batched
// over the leading ones; 1-D (and 0-D) tensors take
// the plain scaled copy G / (||G|| + 1e-7). The distributed run and the
// single-device reference both call this one function on freshly copied
// slices, so equal inputs give bit-identical outputs.
Tensor newtonSchulz(const Tensor& grad, const NewtonSchulzOptions& options = {});
// The same on `matrix` itself (a fresh fp32 copy the caller owns).
void newtonSchulzInPlace(Tensor& matrix, const NewtonSchulzOptions& options = {});

// The steps on one rows x cols row-major matrix, in place. Its workspace
// (newtonSchulzWorkspaceBytes) is counted on the thread's memory ledger.
void newtonSchulz2d(float* data, int64_t rows, int64_t cols,
                    const NewtonSchulzOptions& options = {});
// The workspace one 2-D slice of `shape` takes, while it runs (0 for 1-D).
int64_t newtonSchulzWorkspaceBytes(const std::vector<int64_t>& shape);

// param = round_dtype(param - lr * update), the arithmetic in fp32.
void applyUpdate(Tensor& param, const Tensor& update, double lr, DType dtype);

// The 2-D matrices newtonSchulz orthogonalises in a tensor of `shape`:
// `count` slices of shortSide x longSide (none for fewer than 2 dims).
struct NewtonSchulzMatrices {
    int64_t count = 0;
    int64_t shortSide = 0;
    int64_t longSide = 0;
};
NewtonSchulzMatrices newtonSchulzMatrices(const std::vector<int64_t>& shape);

// The FLOPs of the products newtonSchulz2d runs on one k x l slice (k the
// short side): per step X·Xᵀ 2·k²·l, A·A 2·k³, B·X 2·k²·l.
double newtonSchulzSliceFlops(int64_t shortSide, int64_t longSide, int steps);
// The FLOPs newtonSchulz runs on `shape` (3 per element for 1-D).
double newtonSchulzFlops(const std::vector<int64_t>& shape,
                         const NewtonSchulzOptions& options = {});
// The size budget's approximate count (run/shrink.h), 20·m·n·min(m, n) per
// slice: kept as it was so that what a run shrinks does not change.
double newtonSchulzBudgetFlops(const std::vector<int64_t>& shape);

}  // namespace hsdp
