// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <QTemporaryDir>
#include <fstream>

#include "export/npy.h"

using namespace hsdp;

class TestNpy : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<std::vector<int64_t>>("shape");
        QTest::newRow("2d") << std::vector<int64_t>{3, 5};
        QTest::newRow("1d") << std::vector<int64_t>{7};
        QTest::newRow("3d") << std::vector<int64_t>{2, 3, 4};
        QTest::newRow("empty") << std::vector<int64_t>{0, 4};
    }
    void roundTrip() {
        QFETCH(std::vector<int64_t>, shape);
        QTemporaryDir dir;
        int64_t n = 1;
        for (auto s : shape) n *= s;
        std::vector<float> data(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) data[size_t(i)] = float(i) * 0.25f - 3;
        const std::string path = dir.filePath("sub/dir/x.npy").toStdString();
        writeNpyFloat32(path, shape, data.data());
        NpyArray a = readNpyFloat32(path);
        QCOMPARE(a.descr, std::string("<f4"));
        QVERIFY(!a.fortranOrder);
        QCOMPARE(a.shape, shape);
        QCOMPARE(a.data, data);
        // Header: magic, v1.0, data starting at a multiple of 64, ends with '\n'.
        std::ifstream in(path, std::ios::binary);
        std::string head(10, '\0');
        in.read(head.data(), 10);
        QCOMPARE(head.substr(1, 5), std::string("NUMPY"));
        QCOMPARE(int(head[6]), 1);
        QCOMPARE(int(head[7]), 0);
        const int len = uint8_t(head[8]) | (uint8_t(head[9]) << 8);
        QCOMPARE((10 + len) % 64, 0);
    }

    void headerText() {
        QVERIFY(QString::fromStdString(npyHeader({7})).contains("'shape': (7,)"));
        QVERIFY(QString::fromStdString(npyHeader({2, 3})).contains("'shape': (2, 3)"));
        QVERIFY(QString::fromStdString(npyHeader({})).contains("'shape': ()"));
    }

    void fileNames() {
        QCOMPARE(npyFileName("layers.0/w"), std::string("layers.0_w"));
        QCOMPARE(npyFileName(".."), std::string("_.."));
    }
};

QTEST_APPLESS_MAIN(TestNpy)
#include "tst_npy.moc"
