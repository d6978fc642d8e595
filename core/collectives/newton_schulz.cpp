// SPDX-License-Identifier: Apache-2.0
#include "collectives/newton_schulz.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

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
    // A freshly allocated (aligned) copy so the products see the same memory
    // layout whatever slice of which buffer the data came from.
    Matrix x = Eigen::Map<Matrix>(data, rows, cols);
    bool transposed = rows > cols;
    if (transposed) x = Matrix(x.transpose());
    x /= frobenius(x.data(), x.size()) + kEps;
    Matrix a, b, bx;
    for (const auto& c : kCoefficients) {
        a.noalias() = x * x.transpose();
        b.noalias() = c[1] * a;
        b.noalias() += c[2] * (a * a);
        bx.noalias() = b * x;
        x = c[0] * x + bx;
    }
    if (transposed) x = Matrix(x.transpose());
    Eigen::Map<Matrix>(data, rows, cols) = x;
}

Tensor newtonSchulz(const Tensor& grad) {
    Tensor out = grad;
    if (grad.ndim() <= 1) {
        float scale = frobenius(out.data.data(), out.numel()) + kEps;
        for (auto& v : out.data) v /= scale;
        return out;
    }
    int64_t rows = grad.shape[grad.ndim() - 2], cols = grad.shape[grad.ndim() - 1];
    int64_t slice = rows * cols;
    if (slice == 0) return out;
    for (int64_t off = 0; off < out.numel(); off += slice)
        newtonSchulz2d(out.data.data() + off, rows, cols);
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
