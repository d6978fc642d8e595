// SPDX-License-Identifier: Apache-2.0
#include "collectives/newton_schulz.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "runtime/memory_ledger.h"
#include "tensor/dtype_codec.h"

namespace hsdp {

namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr float kEps = 1e-7f;

// The Frobenius norm summed in a fixed order (double), independent of how
// Eigen vectorises a reduction for a given alignment.
float frobenius(const float* data, int64_t n) {
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += double(data[i]) * double(data[i]);
    return static_cast<float>(std::sqrt(sum));
}

// Every entry rounded to bf16 (round to nearest even), kept in fp32.
void roundToBf16(Matrix& m) {
    float* v = m.data();
    for (Eigen::Index i = 0; i < m.size(); ++i) v[i] = roundTo(DType::BF16, v[i]);
}

}  // namespace

void newtonSchulz2d(float* data, int64_t rows, int64_t cols, const NewtonSchulzOptions& options) {
    if (rows == 0 || cols == 0) return;
    // A freshly allocated (aligned) copy, short side first, so the products
    // see the same memory layout whatever slice of which buffer the data came
    // from. Built straight from the source: no transposed temporary.
    const bool transposed = rows > cols;
    const auto source = Eigen::Map<const Matrix>(data, rows, cols);
    Matrix x = transposed ? Matrix(source.transpose()) : Matrix(source);
    const int64_t k = x.rows(), n = x.cols();
    x /= frobenius(x.data(), x.size()) + kEps;
    {
        // The workspace, allocated once: A = X·Xᵀ and B are k x k, B·X is k x n;
        // the products write into them (noalias), no hidden temporaries.
        Matrix a(k, k), b(k, k), bx(k, n);
        const MemoryCharge workspace(
            MemoryKind::NewtonSchulz,
            int64_t(x.size() + a.size() + b.size() + bx.size()) * int64_t(sizeof(float)));
        const bool bf16 = options.dtype == DType::BF16;
        if (bf16) roundToBf16(x);
        for (int step = 0; step < options.steps; ++step) {
            const auto& c = options.coefficients.at(size_t(step));
            if (!bf16) {
                a.noalias() = x * x.transpose();
                b.noalias() = c[1] * a;
                b.noalias() += c[2] * (a * a);
                bx.noalias() = b * x;
                x = c[0] * x + bx;
                continue;
            }
            // bf16 operands, fp32 accumulation, each result rounded to bf16
            // (a tensor-core GEMM's output in bf16); the sums are elementwise
            // in fp32, rounded as a bf16 tensor stores them.
            a.noalias() = x * x.transpose();
            roundToBf16(a);
            b.noalias() = a * a;
            roundToBf16(b);
            b = c[1] * a + c[2] * b;
            roundToBf16(b);
            bx.noalias() = b * x;
            roundToBf16(bx);
            x = c[0] * x + bx;
            roundToBf16(x);
        }
    }
    auto target = Eigen::Map<Matrix>(data, rows, cols);
    if (transposed)
        target = x.transpose();
    else
        target = x;
}

void newtonSchulzInPlace(Tensor& matrix, const NewtonSchulzOptions& options) {
    if (matrix.ndim() <= 1) {
        float scale = frobenius(matrix.data.data(), matrix.numel()) + kEps;
        for (auto& v : matrix.data) v /= scale;
        return;
    }
    int64_t rows = matrix.shape[matrix.ndim() - 2], cols = matrix.shape[matrix.ndim() - 1];
    int64_t slice = rows * cols;
    if (slice == 0) return;
    for (int64_t off = 0; off < matrix.numel(); off += slice)
        newtonSchulz2d(matrix.data.data() + off, rows, cols, options);
}

Tensor newtonSchulz(const Tensor& grad, const NewtonSchulzOptions& options) {
    Tensor out = grad;
    newtonSchulzInPlace(out, options);
    return out;
}

void applyUpdate(Tensor& param, const Tensor& update, double lr, DType dtype) {
    if (param.shape != update.shape)
        throw std::invalid_argument("update shape differs from the parameter");
    const float lrf = static_cast<float>(lr);
    for (size_t i = 0; i < param.data.size(); ++i) {
        float step = lrf * update.data[i];  // two statements: no fused multiply-add
        param.data[i] = roundTo(dtype, param.data[i] - step);
    }
}

int64_t newtonSchulzWorkspaceBytes(const std::vector<int64_t>& shape) {
    if (shape.size() < 2) return 0;
    const int64_t rows = shape[shape.size() - 2], cols = shape.back();
    if (rows == 0 || cols == 0) return 0;
    const int64_t k = std::min(rows, cols), n = std::max(rows, cols);
    return (2 * k * n + 2 * k * k) * int64_t(sizeof(float));  // X and B·X, A and B
}

NewtonSchulzMatrices newtonSchulzMatrices(const std::vector<int64_t>& shape) {
    if (shape.size() < 2) return {};
    NewtonSchulzMatrices out;
    const int64_t rows = shape[shape.size() - 2], cols = shape.back();
    out.shortSide = std::min(rows, cols);
    out.longSide = std::max(rows, cols);
    out.count = 1;
    for (size_t i = 0; i + 2 < shape.size(); ++i) out.count *= shape[i];
    if (out.shortSide == 0) out.count = 0;
    return out;
}

double newtonSchulzSliceFlops(int64_t shortSide, int64_t longSide, int steps) {
    const double k = double(shortSide), l = double(longSide);
    // A = X·Xᵀ: 2k²l; A·A: 2k³; B·X: 2k²l (newtonSchulz2d's three products).
    return double(steps) * (2 * k * k * l + 2 * k * k * k + 2 * k * k * l);
}

double newtonSchulzFlops(const std::vector<int64_t>& shape, const NewtonSchulzOptions& options) {
    if (shape.size() < 2) {
        double n = 1;
        for (auto s : shape) n *= double(s);
        return 3 * n;
    }
    const NewtonSchulzMatrices m = newtonSchulzMatrices(shape);
    return double(m.count) * newtonSchulzSliceFlops(m.shortSide, m.longSide, options.steps);
}

double newtonSchulzBudgetFlops(const std::vector<int64_t>& shape) {
    if (shape.size() < 2) {
        double n = 1;
        for (auto s : shape) n *= double(s);
        return 3 * n;
    }
    double m = double(shape[shape.size() - 2]), n = double(shape.back());
    double batch = 1;
    for (size_t i = 0; i + 2 < shape.size(); ++i) batch *= double(shape[i]);
    return batch * 5.0 * 4.0 * m * n * std::min(m, n);
}

}  // namespace hsdp
