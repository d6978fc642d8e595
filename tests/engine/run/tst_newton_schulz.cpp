// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <Eigen/Dense>
#include <cmath>

#include "collectives/newton_schulz.h"
#include "tensor/dtype_codec.h"
#include "verify/truth.h"

using namespace hsdp;

namespace {
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
Eigen::VectorXf singularValues(const float* data, int64_t rows, int64_t cols) {
    Matrix m = Eigen::Map<const Matrix>(data, rows, cols);
    return Eigen::JacobiSVD<Matrix>(m).singularValues();
}
}  // namespace

class TestNewtonSchulz : public QObject {
    Q_OBJECT
private slots:
    void orthogonalises_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::newRow("square") << 16 << 16;
        QTest::newRow("tall") << 24 << 8;  // transposed inside
        QTest::newRow("wide") << 8 << 32;
    }
    void orthogonalises() {
        QFETCH(int, rows);
        QFETCH(int, cols);
        Tensor g = globalTensor(Truth::grad(1), {rows, cols});
        Tensor u = newtonSchulz(g);
        auto before = singularValues(g.data.data(), rows, cols);
        auto after = singularValues(u.data.data(), rows, cols);
        // The quintic iteration pushes singular values into roughly [0.7, 1.2]
        // (Muon's design); the input spreads over orders of magnitude.
        double spreadBefore = before.maxCoeff() / std::max(1e-6f, before.minCoeff());
        double spreadAfter = after.maxCoeff() / std::max(1e-6f, after.minCoeff());
        QVERIFY2(spreadAfter < spreadBefore, qPrintable(QString::number(spreadAfter)));
        for (int i = 0; i < after.size(); ++i) {
            if (before(i) < 1e-3f * before(0)) continue;  // (near) null directions stay small
            QVERIFY2(after(i) > 0.5f && after(i) < 1.3f, qPrintable(QString::number(after(i))));
        }
    }

    void batchedEqualsPerSlice() {
        Tensor g = globalTensor(Truth::grad(4), {3, 6, 10});
        Tensor u = newtonSchulz(g);
        for (int s = 0; s < 3; ++s) {
            Tensor slice({6, 10});
            std::copy_n(g.data.begin() + s * 60, 60, slice.data.begin());
            Tensor us = newtonSchulz(slice);
            for (int i = 0; i < 60; ++i) QCOMPARE(u.data[size_t(s * 60 + i)], us.data[size_t(i)]);
        }
    }

    void deterministicWhateverTheBuffer() {
        // The same values at a different (odd) offset of another buffer give the same bits.
        Tensor g = globalTensor(Truth::grad(2), {12, 20});
        std::vector<float> shifted(g.data.size() + 1);
        std::copy(g.data.begin(), g.data.end(), shifted.begin() + 1);
        newtonSchulz2d(shifted.data() + 1, 12, 20);
        Tensor u = newtonSchulz(g);
        QCOMPARE(std::vector<float>(shifted.begin() + 1, shifted.end()), u.data);
        QCOMPARE(newtonSchulz(g), u);
    }

    // options.newton_schulz: the defaults are exactly the five fp32 steps;
    // bf16 rounds every product (each value a bf16 one), and other steps or
    // coefficients change the result.
    void optionsChangeWhatRuns() {
        Tensor g = globalTensor(Truth::grad(3), {10, 14});
        QCOMPARE(newtonSchulz(g, NewtonSchulzOptions{}), newtonSchulz(g));
        QVERIFY(NewtonSchulzOptions{}.isDefault());
        NewtonSchulzOptions bf16;
        bf16.dtype = DType::BF16;
        const Tensor ub = newtonSchulz(g, bf16);
        QVERIFY(ub.data != newtonSchulz(g).data);
        for (float v : ub.data) QCOMPARE(roundTo(DType::BF16, v), v);
        // Still an orthogonalisation: the singular values' spread shrinks.
        auto before = singularValues(g.data.data(), 10, 14);
        auto after = singularValues(ub.data.data(), 10, 14);
        QVERIFY(after.maxCoeff() / after.minCoeff() < before.maxCoeff() / before.minCoeff());
        NewtonSchulzOptions three;
        three.steps = 3;
        three.coefficients.assign(3, {3.4445f, -4.775f, 2.0315f});
        QVERIFY(!three.isDefault());
        QVERIFY(newtonSchulz(g, three).data != newtonSchulz(g).data);
        QCOMPARE(newtonSchulz(g, three), newtonSchulz(g, three));  // deterministic
    }

    // The FLOPs are the products newtonSchulz2d runs: per step X·Xᵀ 2·k²·l,
    // A·A 2·k³ and B·X 2·k²·l, k the short side; per slice of a stack.
    void flopsCountTheProducts() {
        const double k = 6, l = 10;
        QCOMPARE(newtonSchulzFlops({6, 10}), 5 * (2 * k * k * l + 2 * k * k * k + 2 * k * k * l));
        QCOMPARE(newtonSchulzFlops({10, 6}), newtonSchulzFlops({6, 10}));
        QCOMPARE(newtonSchulzFlops({3, 10, 6}), 3 * newtonSchulzFlops({6, 10}));
        NewtonSchulzOptions two;
        two.steps = 2;
        two.coefficients.assign(2, {3.f, -3.f, 1.f});
        QCOMPARE(newtonSchulzFlops({6, 10}, two), newtonSchulzFlops({6, 10}) * 2 / 5);
        const NewtonSchulzMatrices m = newtonSchulzMatrices({4, 3, 12, 5});
        QCOMPARE(m.count, int64_t(12));
        QCOMPARE(m.shortSide, int64_t(5));
        QCOMPARE(m.longSide, int64_t(12));
    }

    void oneDimensionalIsScaledCopy() {
        Tensor g = globalTensor(Truth::grad(0), {16});
        Tensor u = newtonSchulz(g);
        double norm = 0;
        for (float v : u.data) norm += double(v) * v;
        QVERIFY(std::abs(std::sqrt(norm) - 1.0) < 1e-5);
        QCOMPARE(u.data[3] / u.data[5], g.data[3] / g.data[5]);
    }

    void applyUpdateRoundsToDtype() {
        Tensor p({2}, 1.0f), u({2}, 1.0f);
        applyUpdate(p, u, 0.02, DType::BF16);
        QCOMPARE(p.data[0], 0.98046875f);  // 0.98 in bf16
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 applyUpdate(p, Tensor({3}), 0.1, DType::F32));
    }
};

QTEST_APPLESS_MAIN(TestNewtonSchulz)
#include "tst_newton_schulz.moc"
