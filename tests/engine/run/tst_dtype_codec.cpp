// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>

#include "tensor/dtype_codec.h"
#include "types/float16.h"

using namespace hsdp;

class TestDtypeCodec : public QObject {
    Q_OBJECT
private slots:
    void bf16RoundsToNearestEven() {
        QCOMPARE(floatToBf16(1.0f), uint16_t(0x3F80));
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1.0).
        QCOMPARE(floatToBf16(1.0f + std::ldexp(1.0f, -8)), uint16_t(0x3F80));
        // 1 + 3*2^-8 is halfway between 1+2^-7 (odd) and 1+2^-6: rounds up to even.
        QCOMPARE(floatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), uint16_t(0x3F82));
        QVERIFY(std::isnan(bf16ToFloat(floatToBf16(NAN))));
    }

    void halfRoundTrip() {
        QCOMPARE(floatToF16(1.0f), uint16_t(0x3C00));
        QCOMPARE(floatToF16(-2.0f), uint16_t(0xC000));
        QCOMPARE(floatToF16(65504.0f), uint16_t(0x7BFF));
        QCOMPARE(floatToF16(1e6f), uint16_t(0x7C00));
        QCOMPARE(f16ToFloat(0x0001), std::ldexp(1.0f, -24));       // smallest subnormal
        QCOMPARE(floatToF16(std::ldexp(1.0f, -25)), uint16_t(0));  // tie to even: 0
        QCOMPARE(floatToF16(std::ldexp(3.0f, -25)), uint16_t(2));  // 1.5 ulp -> 2
        // 1 + 2^-11 ties to even (1.0); 1 + 3*2^-11 rounds up.
        QCOMPARE(floatToF16(1.0f + std::ldexp(1.0f, -11)), uint16_t(0x3C00));
        QCOMPARE(floatToF16(1.0f + 3 * std::ldexp(1.0f, -11)), uint16_t(0x3C02));
        for (uint32_t h = 0; h < 0x7C00; ++h)  // every finite positive half round-trips
            QCOMPARE(floatToF16(f16ToFloat(uint16_t(h))), uint16_t(h));
    }

    void encodeDecode_data() {
        QTest::addColumn<int>("dtype");
        for (auto dt : {DType::F32, DType::BF16, DType::F16, DType::F64})
            QTest::newRow(dtypeName(dt).data()) << int(dt);
    }
    void encodeDecode() {
        QFETCH(int, dtype);
        auto dt = DType(dtype);
        std::vector<float> v{0.5f, -1.25f, 3.0f, 100.0f / 64, 0.0f};
        std::vector<std::byte> wire(v.size() * size_t(dtypeSize(dt)));
        encodeValues(dt, v.data(), int64_t(v.size()), wire.data());
        std::vector<float> back(v.size());
        decodeValues(dt, wire.data(), int64_t(v.size()), back.data());
        QCOMPARE(back, v);
        // Values travel in the real width: bf16 1.0 is 0x3F80 little endian.
        if (dt == DType::BF16) {
            QCOMPARE(wire[4], std::byte{0x40});
            QCOMPARE(wire[5], std::byte{0x40});  // 3.0 = 0x4040
        }
    }

    // An empty tensor's storage is an empty vector, whose data() may be null:
    // converting zero elements must not touch either pointer (memcpy with a
    // null pointer is undefined even for 0 bytes; the asan preset's UBSan
    // aborts on it).
    void emptyTensorsWithNullStorage_data() { encodeDecode_data(); }
    void emptyTensorsWithNullStorage() {
        QFETCH(int, dtype);
        std::vector<float> values;
        std::vector<std::byte> wire;
        encodeValues(DType(dtype), values.data(), 0, wire.data());
        decodeValues(DType(dtype), wire.data(), 0, values.data());
        QVERIFY(values.empty() && wire.empty());
    }

    void poisonDecodesAsNan_data() { encodeDecode_data(); }
    void poisonDecodesAsNan() {
        QFETCH(int, dtype);
        std::vector<std::byte> pad(16);
        fillPoison(pad.data(), 16);
        std::vector<float> out(16 / size_t(dtypeSize(DType(dtype))));
        decodeValues(DType(dtype), pad.data(), int64_t(out.size()), out.data());
        for (float f : out) QVERIFY(std::isnan(f));
    }

    void roundToDtype() {
        QCOMPARE(roundTo(DType::F32, 0.1f), 0.1f);
        QCOMPARE(roundTo(DType::BF16, 0.1f), bf16ToFloat(0x3DCD));
        QCOMPARE(roundTo(DType::F16, 0.1f), f16ToFloat(0x2E66));
    }
};

QTEST_APPLESS_MAIN(TestDtypeCodec)
#include "tst_dtype_codec.moc"
