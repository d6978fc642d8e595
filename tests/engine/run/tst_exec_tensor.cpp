// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "tensor/tensor.h"

using namespace hsdp;

namespace {
Tensor arange(std::vector<int64_t> shape) {
    Tensor t(std::move(shape));
    for (int64_t i = 0; i < t.numel(); ++i) t.data[size_t(i)] = float(i);
    return t;
}
}  // namespace

class TestExecTensor : public QObject {
    Q_OBJECT
private slots:
    void movedimRoundTrip() {
        Tensor t = arange({2, 3, 4});
        for (int d = 0; d < 3; ++d) {
            Tensor m = movedimTo0(t, d);
            QCOMPARE(m.shape[0], t.shape[size_t(d)]);
            QCOMPARE(movedimFrom0(m, d), t);
        }
        Tensor m = movedimTo0(t, 2);  // m[c][a][b] = t[a][b][c]
        QCOMPARE(m.data[size_t(1 * 6 + 1 * 3 + 2)], t.data[size_t(1 * 12 + 2 * 4 + 1)]);
    }

    void extractInsertStrided() {
        Tensor t = arange({8, 3});
        IndexSet have{{0, 8}};
        IndexSet want{{2, 4}, {6, 8}};  // a strided shard's rows
        Positions pos{positionsIn(have, want), iota(3)};
        Tensor block = extract(t, pos);
        QCOMPARE(block.shape, (std::vector<int64_t>{4, 3}));
        QCOMPARE(block.data[3], 9.0f);   // row 3
        QCOMPARE(block.data[6], 18.0f);  // row 6
        Tensor back({8, 3}, -1);
        insert(back, pos, block);
        QCOMPARE(back.data[9], 9.0f);
        QCOMPARE(back.data[0], -1.0f);
    }

    void positionsInRejectsMissing() {
        QVERIFY_THROWS_EXCEPTION(std::out_of_range,
                                 positionsIn(IndexSet{{0, 4}}, IndexSet{{3, 6}}));
        QCOMPARE(positionsIn(IndexSet{{4, 6}, {0, 2}}, IndexSet{{0, 1}, {5, 6}}),
                 (std::vector<int64_t>{2, 1}));
    }

    void narrowColumns() {
        Tensor t = arange({2, 4});
        Tensor n = narrow(t, 1, 1, 2);
        QCOMPARE(n.data, (std::vector<float>{1, 2, 5, 6}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, narrow(t, 1, 3, 2));
    }
};

QTEST_APPLESS_MAIN(TestExecTensor)
#include "tst_exec_tensor.moc"
