// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "tensor/dtype_codec.h"
#include "verify/truth.h"

using namespace hsdp;

class TestTruth : public QObject {
    Q_OBJECT
private slots:
    void formulas() {
        // docs/run.md §1, evaluated by hand for a few (index, k).
        QCOMPARE(Truth::grad(0).at(0), -125.0f / 64);
        QCOMPARE(Truth::grad(1).at(2), float((131 + 14) % 251 - 125) / 64);  // 20/64
        QCOMPARE(Truth::grad(2).at(100), float((262 + 700) % 251 - 125) / 64);
        QCOMPARE(Truth::weight(3).at(5), float((51 + 15) % 61 - 30) / 16);
        QCOMPARE(Truth::tp(1).at(9), float((29 + 99) % 197 - 98) / 64);
    }

    void valuesExactInEveryDtype() {
        for (int p = 0; p < 7; ++p)
            for (int64_t k = 0; k < 600; ++k)
                for (auto t : {Truth::grad(p), Truth::weight(p), Truth::tp(p)})
                    for (auto dt : {DType::BF16, DType::F16})
                        QCOMPARE(roundTo(dt, t.at(k)), t.at(k));
    }

    void partialSplitsSumBack_data() {
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<int>("dtype");
        for (int n : {1, 2, 3, 4, 8})
            for (auto dt : {DType::F32, DType::BF16, DType::F16})
                QTest::addRow("n%d-%s", n, dtypeName(dt).data()) << n << int(dt);
    }
    void partialSplitsSumBack() {
        QFETCH(int, groupSize);
        QFETCH(int, dtype);
        auto dt = DType(dtype);
        for (int64_t k = 0; k < 1000; ++k) {
            float x = Truth::grad(3).at(k);
            // Sum in the dtype, rounding after every add (what a reduction does).
            float sum = 0;
            for (int r = 0; r < groupSize; ++r) {
                float share = partialShare(x, k, r, groupSize, ReduceOp::Sum);
                QCOMPARE(roundTo(dt, share), share);  // every share exact in the dtype
                sum = roundTo(dt, sum + share);
            }
            QCOMPARE(sum, x);
            QCOMPARE(partialShare(x, k, groupSize - 1, groupSize, ReduceOp::Max), x);
        }
    }

    void localTensorFollowsGeometry() {
        // [S(0), S(1)] on 2x2 over a 5x8 tensor: coordinate (1, 1) holds rows 3..5, cols 4..8.
        std::vector<Placement> pl{Placement::shard(0), Placement::shard(1)};
        Tensor t = localTensor(Truth::grad(3), {5, 8}, pl, {2, 2}, {1, 1}, DType::F32);
        QCOMPARE(t.shape, (std::vector<int64_t>{2, 4}));
        QCOMPARE(t.data[0], Truth::grad(3).at(3 * 8 + 4));
        QCOMPARE(t.data[7], Truth::grad(3).at(4 * 8 + 7));
    }

    void stridedLocalTensor() {
        // SS(0,2) on 2 ranks over 8 rows: coordinate 1 holds rows 2,3,6,7.
        std::vector<Placement> pl{Placement::stridedShard(0, 2)};
        Tensor t = localTensor(Truth::grad(0), {8, 2}, pl, {2}, {1}, DType::F32);
        QCOMPARE(t.shape, (std::vector<int64_t>{4, 2}));
        int rows[] = {2, 3, 6, 7};
        for (int i = 0; i < 4; ++i) QCOMPARE(t.data[size_t(i) * 2], Truth::grad(0).at(rows[i] * 2));
    }

    void nestedPartialSumsBack() {
        // [P(sum), P(sum)] on 2x3: the sum over all six ranks is the truth, and
        // summing over mesh dim 1 gives mesh dim 0's split (left to right).
        std::vector<Placement> pl{Placement::partial(), Placement::partial()};
        Tensor total({4, 4});
        for (int a = 0; a < 2; ++a) {
            Tensor inner({4, 4});
            for (int b = 0; b < 3; ++b) {
                Tensor t = localTensor(Truth::tp(2), {4, 4}, pl, {2, 3}, {a, b}, DType::BF16);
                for (int i = 0; i < 16; ++i) inner.data[size_t(i)] += t.data[size_t(i)];
            }
            Tensor outer =
                localTensor(Truth::tp(2), {4, 4}, {Placement::partial()}, {2}, {a}, DType::BF16);
            QCOMPARE(inner.data, outer.data);
            for (int i = 0; i < 16; ++i) total.data[size_t(i)] += inner.data[size_t(i)];
        }
        QCOMPARE(total.data, globalTensor(Truth::tp(2), {4, 4}).data);
    }
};

QTEST_APPLESS_MAIN(TestTruth)
#include "tst_truth.moc"
