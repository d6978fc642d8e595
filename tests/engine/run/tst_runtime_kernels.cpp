// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <bit>
#include <cmath>
#include <limits>

#include "runtime/reduce_kernels.h"
#include "runtime/wire_bytes.h"
#include "types/float16.h"

using namespace hsdp;

// The pure pieces under the collectives: 16-bit conversions, reduction
// kernels and the wire-byte model.
class TestRuntimeKernels : public QObject {
    Q_OBJECT
private slots:
    void bf16RoundsToNearestEven_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("bits");
        QTest::addRow("one") << 1.0f << 0x3F80;
        QTest::addRow("tie down to even") << std::bit_cast<float>(0x3F808000u) << 0x3F80;
        QTest::addRow("tie up to even") << std::bit_cast<float>(0x3F818000u) << 0x3F82;
        QTest::addRow("above tie") << std::bit_cast<float>(0x3F808001u) << 0x3F81;
        QTest::addRow("negative") << -2.5f << 0xC020;
        QTest::addRow("max rounds to inf") << std::numeric_limits<float>::max() << 0x7F80;
    }
    void bf16RoundsToNearestEven() {
        QFETCH(float, value);
        QFETCH(int, bits);
        QCOMPARE(int(floatToBf16(value)), bits);
    }

    void f16Conversions_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("bits");
        QTest::addRow("one") << 1.0f << 0x3C00;
        QTest::addRow("max") << 65504.0f << 0x7BFF;
        QTest::addRow("overflow") << 65520.0f << 0x7C00;
        QTest::addRow("below overflow tie") << 65519.0f << 0x7BFF;
        QTest::addRow("smallest subnormal") << std::ldexp(1.0f, -24) << 0x0001;
        QTest::addRow("subnormal tie to even") << std::ldexp(3.0f, -25) << 0x0002;
        QTest::addRow("underflow tie to zero") << std::ldexp(1.0f, -25) << 0x0000;
        QTest::addRow("smallest normal") << std::ldexp(1.0f, -14) << 0x0400;
        QTest::addRow("tie to even") << 1.0f + std::ldexp(1.0f, -11) << 0x3C00;
        QTest::addRow("negative") << -0.3125f << 0xB500;
    }
    void f16Conversions() {
        QFETCH(float, value);
        QFETCH(int, bits);
        QCOMPARE(int(floatToF16(value)), bits);
    }

    void f16Decodes() {
        QCOMPARE(f16ToFloat(0x0001), std::ldexp(1.0f, -24));
        QCOMPARE(f16ToFloat(0x03FF), std::ldexp(1023.0f, -24));
        QCOMPARE(f16ToFloat(0xB500), -0.3125f);
        QCOMPARE(f16ToFloat(0x7BFF), 65504.0f);
        QVERIFY(std::isinf(f16ToFloat(0xFC00)) && f16ToFloat(0xFC00) < 0);
        QVERIFY(std::isnan(f16ToFloat(0x7E00)));
        QVERIFY(std::signbit(f16ToFloat(0x8000)));
    }

    void f16RoundTripsEveryFiniteValue() {
        for (uint32_t bits = 0; bits < 0x10000; ++bits) {
            if ((bits & 0x7C00) == 0x7C00) continue;  // inf / NaN
            const float value = f16ToFloat(static_cast<uint16_t>(bits));
            if (floatToF16(value) != bits) QFAIL(qPrintable(QString::number(bits, 16)));
        }
        for (uint32_t bits = 0; bits < 0x10000; ++bits) {
            if ((bits & 0x7F80) == 0x7F80) continue;
            if (floatToBf16(bf16ToFloat(static_cast<uint16_t>(bits))) != bits)
                QFAIL("bf16 round trip");
        }
    }

    void reduceElementsBf16() {
        const uint16_t a[3] = {floatToBf16(1.5f), floatToBf16(-2.0f), floatToBf16(256.0f)};
        const uint16_t b[3] = {floatToBf16(0.25f), floatToBf16(3.0f), floatToBf16(1.0f)};
        uint16_t out[3];
        reduceElements(DType::BF16, ReduceOp::Sum, out, a, b, 3);
        QCOMPARE(bf16ToFloat(out[0]), 1.75f);
        QCOMPARE(bf16ToFloat(out[1]), 1.0f);
        QCOMPARE(bf16ToFloat(out[2]), 256.0f);  // 257 is not a bf16: ties to even
        reduceElements(DType::BF16, ReduceOp::Max, out, a, b, 3);
        QCOMPARE(bf16ToFloat(out[1]), 3.0f);
        reduceElements(DType::BF16, ReduceOp::Min, out, a, b, 3);
        QCOMPARE(bf16ToFloat(out[0]), 0.25f);
        reduceElements(DType::BF16, ReduceOp::Product, out, a, b, 3);
        QCOMPARE(bf16ToFloat(out[1]), -6.0f);
    }

    void reduceBlocksRoundsOnce() {
        // 256 + 1 + 1 in bf16: per-step rounding gives 256, one rounding 258.
        const uint16_t x = floatToBf16(256.0f), one = floatToBf16(1.0f);
        const void* blocks[3] = {&x, &one, &one};
        uint16_t out = 0;
        reduceBlocks(DType::BF16, ReduceOp::Sum, &out, blocks, 3, 1);
        QCOMPARE(bf16ToFloat(out), 258.0f);
        const float f[3] = {1, 2, 6};
        const void* fb[3] = {&f[0], &f[1], &f[2]};
        float avg = 0;
        reduceBlocks(DType::F32, ReduceOp::Avg, &avg, fb, 3, 1);
        QCOMPARE(avg, 3.0f);
    }

    void broadcastBytesSumToSizeMinusOne() {
        for (int size = 1; size <= 9; ++size)
            for (int root = 0; root < size; ++root) {
                int64_t total = 0;
                for (int r = 0; r < size; ++r) total += wire_bytes::broadcast(10, size, r, root);
                QCOMPARE(total, int64_t(10 * (size - 1)));
                int dim = 0;
                while ((1 << dim) < size) ++dim;
                QCOMPARE(wire_bytes::broadcast(10, size, root, root), int64_t(10 * dim));
            }
    }

    void allGatherVBytes() {
        const std::vector<size_t> sizes{4, 0, 8, 2};
        QCOMPARE(wire_bytes::allGatherV(sizes, 0), int64_t(14));  // all but rank 1's block
        QCOMPARE(wire_bytes::allGatherV(sizes, 3), int64_t(10));  // all but rank 0's
        int64_t total = 0;
        for (int r = 0; r < 4; ++r) total += wire_bytes::allGatherV(sizes, r);
        QCOMPARE(total, int64_t(14 * 3));  // every block reaches the 3 other ranks
    }
};

QTEST_APPLESS_MAIN(TestRuntimeKernels)
#include "tst_runtime_kernels.moc"
