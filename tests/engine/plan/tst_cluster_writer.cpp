// SPDX-License-Identifier: Apache-2.0
// writeCluster writes what readCluster reads back (docs/cluster-format.md),
// and the keys a calibrated cluster adds are read as strictly as the others.
#include <QtTest>

#include "cluster/reader.h"
#include "cluster/writer.h"

using namespace hsdp;

namespace {

const char* const kMinimal = R"({"format": "hsdp-cluster/1", "name": "x", "nodes": 1,
  "devices_per_node": 2, %1
  "links": {"intra_node": {"bandwidth_gigabytes_per_s": 1, "latency_us": 50},
            "inter_node": {"bandwidth_gigabytes_per_s": 1, "latency_us": 50}},
  "device": {"memory_bytes": 1, "peak_tflops": {"float32": 0.01, "bfloat16": 0.01, "float16": 0.01}}})";

std::string withKeys(const char* keys) {
    return QString::fromLatin1(kMinimal).arg(QString::fromLatin1(keys)).toStdString();
}

QString errorOf(const std::string& text) {
    try {
        readCluster(text);
    } catch (const ClusterError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestClusterWriter : public QObject {
    Q_OBJECT
private slots:
    void everyPresetRoundTrips_data() {
        QTest::addColumn<QString>("preset");
        for (const auto& name : clusterPresetNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void everyPresetRoundTrips() {
        QFETCH(QString, preset);
        const Cluster c = readClusterPreset(preset.toStdString());
        const std::string once = writeCluster(c);
        const Cluster back = readCluster(once);
        QCOMPARE(writeCluster(back), once);
        QCOMPARE(back.name, c.name);
        QCOMPARE(back.nodes, c.nodes);
        QCOMPARE(back.devicesPerNode, c.devicesPerNode);
        QCOMPARE(back.algorithms, c.algorithms);
        QCOMPARE(back.calibration, c.calibration);
        QCOMPARE(back.device.memoryBytes, c.device.memoryBytes);
        // The presets' figures have at most 4 significant digits: exact.
        QCOMPARE(back.intraNode.latencySeconds, c.intraNode.latencySeconds);
        QCOMPARE(back.interNode.bandwidthBytesPerSecond, c.interNode.bandwidthBytesPerSecond);
        QCOMPARE(back.device.peakFlops.float32, c.device.peakFlops.float32);
        QCOMPARE(back.sharedCores, c.sharedCores);
    }

    void theNewKeysRead() {
        const Cluster c = readCluster(withKeys(
            R"("collective_algorithms": "gloo", "shared_cores": 2, "calibration": {"host": "vm"},)"));
        QCOMPARE(c.algorithms, CollectiveAlgorithms::Gloo);
        QCOMPARE(c.sharedCores, 2.0);
        QCOMPARE(c.calibration, std::string(R"({"host":"vm"})"));
        const Cluster plain = readCluster(withKeys(""));
        QCOMPARE(plain.algorithms, CollectiveAlgorithms::NcclRing);
        QCOMPARE(plain.sharedCores, 0.0);
        QVERIFY(plain.calibration.empty());
    }

    void theNewKeysAreStrict_data() {
        QTest::addColumn<QString>("keys");
        QTest::addColumn<QString>("error");
        QTest::newRow("algorithms")
            << R"("collective_algorithms": "mpi",)"
            << R"(/collective_algorithms: expected "nccl_ring" or "gloo", got "mpi")";
        QTest::newRow("algorithms type")
            << R"("collective_algorithms": 1,)"
            << R"(/collective_algorithms: expected "nccl_ring" or "gloo", got 1)";
        QTest::newRow("cores zero") << R"("shared_cores": 0,)"
                                    << "/shared_cores: expected a number > 0";
        QTest::newRow("cores text") << R"("shared_cores": "2",)"
                                    << "/shared_cores: expected a number > 0";
        QTest::newRow("calibration") << R"("calibration": [1],)"
                                     << "/calibration: expected an object";
        QTest::newRow("member load") << R"("collective_member_load": 1.5,)"
                                     << "/collective_member_load: expected a number in (0, 1]";
    }
    void perOpLinkFigures() {
        const std::string text = R"({"format": "hsdp-cluster/1", "name": "x", "nodes": 1,
  "devices_per_node": 2,
  "links": {"intra_node": {"bandwidth_gigabytes_per_s": 1, "latency_us": 50, "latency_us_per_rank": 2,
                           "by_op": {"broadcast": {"latency_us": 5}}},
            "inter_node": {"bandwidth_gigabytes_per_s": 1, "latency_us": 50}},
  "device": {"memory_bytes": 1, "peak_tflops": {"float32": 0.01, "bfloat16": 0.01, "float16": 0.01}}})";
        const Cluster c = readCluster(text);
        QCOMPARE(c.intraNode.latencyPerRankSeconds, 2e-6);
        const LinkSpec& tree = c.link(LinkLevel::IntraNode, "broadcast");
        QCOMPARE(tree.latencySeconds, 5e-6);
        QCOMPARE(tree.latencyPerRankSeconds, 2e-6);  // the level's, not replaced
        QCOMPARE(tree.bandwidthBytesPerSecond, 1e9);
        QCOMPARE(c.link(LinkLevel::IntraNode, "all_gather").latencySeconds, 50e-6);
        QVERIFY(c.interNodeByOp.empty());
        QCOMPARE(writeCluster(readCluster(writeCluster(c))), writeCluster(c));
        std::string bad = text;
        bad.replace(bad.find("\"broadcast\": {"), 14, "\"bcast\": {");
        QVERIFY2(errorOf(bad).contains("/links/intra_node/by_op/bcast: unknown key"),
                 qPrintable(errorOf(bad)));
    }

    void theNewKeysAreStrict() {
        QFETCH(QString, keys);
        QFETCH(QString, error);
        const QString message = errorOf(withKeys(qPrintable(keys)));
        QVERIFY2(message.contains(error), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestClusterWriter)
#include "tst_cluster_writer.moc"
