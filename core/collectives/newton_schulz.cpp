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

constexpr float kCoefficients[5][3] = {
    {4.0848f, -6.8946f, 2.9270f}, {3.9505f, -6.3029f, 2.6377f}, {3.7418f, -5.5913f, 2.3037f},
    {2.8769f, -3.1427f, 1.2046f}, {2.8366f, -3.0525f, 1.2012f},
};
constexpr float kEps = 1e-7f;

// The Frobenius norm summed in a fixed order (double), independent of how
// Eigen vectorises a reduction for a given alignment.
float frobenius(const float* data, int64_t n) {
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += double(data[i]) * double(data[i]);
    return static_cast<float>(std::sqrt(sum));
}

}  // namespace

void newtonSchulz2d(float* data, int64_t rows, int64_t cols) {
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
        for (const auto& c : kCoefficients) {
            a.noalias() = x * x.transpose();
            b.noalias() = c[1] * a;
            b.noalias() += c[2] * (a * a);
            bx.noalias() = b * x;
            x = c[0] * x + bx;
        }
    }
    auto target = Eigen::Map<Matrix>(data, rows, cols);
    if (transposed)
        target = x.transpose();
    else
        target = x;
}

void newtonSchulzInPlace(Tensor& matrix) {
    if (matrix.ndim() <= 1) {
        float scale = frobenius(matrix.data.data(), matrix.numel()) + kEps;
        for (auto& v : matrix.data) v /= scale;
        return;
    }
    int64_t rows = matrix.shape[matrix.ndim() - 2], cols = matrix.shape[matrix.ndim() - 1];
    int64_t slice = rows * cols;
    if (slice == 0) return;
    for (int64_t off = 0; off < matrix.numel(); off += slice)
        newtonSchulz2d(matrix.data.data() + off, rows, cols);
}

Tensor newtonSchulz(const Tensor& grad) {
    Tensor out = grad;
    newtonSchulzInPlace(out);
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

double newtonSchulzFlops(const std::vector<int64_t>& shape) {
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
