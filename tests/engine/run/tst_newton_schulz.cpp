// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <Eigen/Dense>
#include <cmath>

#include "collectives/newton_schulz.h"
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
