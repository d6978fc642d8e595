// SPDX-License-Identifier: Apache-2.0
// The collective cost model (docs/cost-model.md): every op on both link
// levels against numbers worked out by hand, and the invariants any
// alpha-beta model must keep.
#include <QtTest>

#include <limits>
#include <set>

#include "cluster/reader.h"
#include "cost/collective_cost.h"
#include "runtime/wire_bytes.h"

using namespace hsdp;

namespace {

constexpr CollectiveOp kAllOps[] = {CollectiveOp::AllGather,     CollectiveOp::AllGatherV,
                                    CollectiveOp::ReduceScatter, CollectiveOp::AllReduce,
                                    CollectiveOp::Broadcast,     CollectiveOp::AllToAll,
                                    CollectiveOp::AllToAllV,     CollectiveOp::Barrier};

// 2 nodes x 4 devices. Intra: 450 GB/s at efficiency 0.8 = 360e9 B/s, 3 us.
// Inter: 50 GB/s at efficiency 1 = 50e9 B/s, 10 us.
Cluster testCluster() {
    return readCluster(R"({
      "format": "hsdp-cluster/1", "name": "hand", "nodes": 2, "devices_per_node": 4,
      "links": {
        "intra_node": {"bandwidth_gigabytes_per_s": 450, "latency_us": 3, "efficiency": 0.8},
        "inter_node": {"bandwidth_gigabytes_per_s": 50, "latency_us": 10, "efficiency": 1}
      },
      "device": {"memory_bytes": 80000000000,
                 "peak_tflops": {"float32": 67, "bfloat16": 989, "float16": 989}}
    })");
}

const std::vector<int> kOneNode = {0, 1, 2, 3};
const std::vector<int> kAcrossNodes = {0, 4};
const std::vector<int> kEveryRank = {0, 1, 2, 3, 4, 5, 6, 7};

const std::vector<std::vector<int>>& groups() {
    static const std::vector<std::vector<int>> all = {{1},          {0, 1}, kOneNode,  {4, 5, 6, 7},
                                                      kAcrossNodes, {3, 4}, kEveryRank};
    return all;
}

}  // namespace

Q_DECLARE_METATYPE(CollectiveOp)

class TestCollectiveCost : public QObject {
    Q_OBJECT
private slots:
    void handComputed_data() {
        QTest::addColumn<CollectiveOp>("op");
        QTest::addColumn<int>("group");  // 0: ranks 0-3 (one node), 1: ranks 0,4, 2: all 8
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<double>("seconds");
        // One node, n = 4, 360e6 bytes at 360e9 B/s effective, alpha 3 us.
        //   all_gather: 3 x 3us + 3/4 x 360e6 / 360e9 = 9us + 750us
        QTest::newRow("all_gather intra")
            << CollectiveOp::AllGather << 0 << qint64(360e6) << 759e-6;
        QTest::newRow("all_gather_v intra")
            << CollectiveOp::AllGatherV << 0 << qint64(360e6) << 759e-6;
        QTest::newRow("reduce_scatter intra")
            << CollectiveOp::ReduceScatter << 0 << qint64(360e6) << 759e-6;
        //   all_reduce: 6 x 3us + 2 x 3/4 x 360e6 / 360e9 = 18us + 1500us
        QTest::newRow("all_reduce intra")
            << CollectiveOp::AllReduce << 0 << qint64(360e6) << 1518e-6;
        //   broadcast: 3 x 3us + 1 x 360e6 / 360e9 = 9us + 1000us
        QTest::newRow("broadcast intra")
            << CollectiveOp::Broadcast << 0 << qint64(360e6) << 1009e-6;
        QTest::newRow("all_to_all intra") << CollectiveOp::AllToAll << 0 << qint64(360e6) << 759e-6;
        //   barrier: latency only, 6 x 3us
        QTest::newRow("barrier intra") << CollectiveOp::Barrier << 0 << qint64(0) << 18e-6;
        // Across nodes, n = 2, 100e6 bytes at 50e9 B/s, alpha 10 us.
        //   all_gather: 1 x 10us + 1/2 x 100e6 / 50e9 = 10us + 1000us
        QTest::newRow("all_gather inter")
            << CollectiveOp::AllGather << 1 << qint64(100e6) << 1010e-6;
        QTest::newRow("all_gather_v inter")
            << CollectiveOp::AllGatherV << 1 << qint64(100e6) << 1010e-6;
        QTest::newRow("reduce_scatter inter")
            << CollectiveOp::ReduceScatter << 1 << qint64(100e6) << 1010e-6;
        //   all_reduce: 2 x 10us + 2 x 1/2 x 100e6 / 50e9 = 20us + 2000us
        QTest::newRow("all_reduce inter")
            << CollectiveOp::AllReduce << 1 << qint64(100e6) << 2020e-6;
        //   broadcast: 1 x 10us + 100e6 / 50e9 = 10us + 2000us
        QTest::newRow("broadcast inter")
            << CollectiveOp::Broadcast << 1 << qint64(100e6) << 2010e-6;
        QTest::newRow("all_to_all inter")
            << CollectiveOp::AllToAll << 1 << qint64(100e6) << 1010e-6;
        QTest::newRow("barrier inter") << CollectiveOp::Barrier << 1 << qint64(0) << 20e-6;
        // All 8 ranks (spans both nodes: the inter-node figures), 800e6 bytes,
        // 4 members on each node: 4 rails, 4 x 50e9 = 200e9 B/s (under the
        // intra-node link's 360e9).
        //   all_gather: 7 x 10us + 7/8 x 800e6 / 200e9 = 70us + 3500us
        QTest::newRow("all_gather 8 ranks")
            << CollectiveOp::AllGather << 2 << qint64(800e6) << 3570e-6;
        //   all_reduce: 14 x 10us + 2 x 7/8 x 800e6 / 200e9 = 140us + 7000us
        QTest::newRow("all_reduce 8 ranks")
            << CollectiveOp::AllReduce << 2 << qint64(800e6) << 7140e-6;
        //   broadcast: 7 x 10us + 800e6 / 200e9 = 70us + 4000us
        QTest::newRow("broadcast 8 ranks")
            << CollectiveOp::Broadcast << 2 << qint64(800e6) << 4070e-6;
    }

    // Rails: a group's inter-node bandwidth is one NIC's times its most
    // members on one node, capped by the intra-node link.
    void railsMultiplyTheNicUpToTheNvlink() {
        const Cluster c = testCluster();
        QCOMPARE(railsOf({0, 4}, c), 1);
        QCOMPARE(railsOf({0, 1, 4}, c), 2);
        QCOMPARE(railsOf(kEveryRank, c), 4);
        QCOMPARE(railsOf(kOneNode, c), 4);
        Cluster fat = c;
        fat.interNode.bandwidthBytesPerSecond = 200e9;  // 4 x 200e9 > the 360e9 of NVLink
        const CollectiveCost cost =
            collectiveCost(CollectiveOp::AllGather, 800'000'000, kEveryRank, fat);
        QCOMPARE(cost.rails, 4);
        QCOMPARE(cost.bandwidthSeconds, 7.0 / 8 * 800e6 / 360e9);
    }

    void handComputed() {
        QFETCH(CollectiveOp, op);
        QFETCH(int, group);
        QFETCH(qint64, bytes);
        QFETCH(double, seconds);
        const std::vector<int>& ranks = group == 0   ? kOneNode
                                        : group == 1 ? kAcrossNodes
                                                     : kEveryRank;
        const CollectiveCost cost = collectiveCost(op, bytes, ranks, testCluster());
        QCOMPARE(cost.seconds, seconds);
        QCOMPARE(cost.seconds, cost.latencySeconds + cost.bandwidthSeconds);
        QCOMPARE(cost.level, group == 0 ? LinkLevel::IntraNode : LinkLevel::InterNode);
        QCOMPARE(collectiveSeconds(op, bytes, ranks, testCluster()), cost.seconds);
    }

    void factorsAndSteps() {
        QCOMPARE(busBandwidthFactor(CollectiveOp::AllGather, 8), 7.0 / 8);
        QCOMPARE(busBandwidthFactor(CollectiveOp::ReduceScatter, 8), 7.0 / 8);
        QCOMPARE(busBandwidthFactor(CollectiveOp::AllReduce, 8), 14.0 / 8);
        QCOMPARE(busBandwidthFactor(CollectiveOp::Broadcast, 8), 1.0);
        QCOMPARE(busBandwidthFactor(CollectiveOp::Barrier, 8), 0.0);
        QCOMPARE(ringSteps(CollectiveOp::AllGather, 8), 7);
        QCOMPARE(ringSteps(CollectiveOp::ReduceScatter, 8), 7);
        QCOMPARE(ringSteps(CollectiveOp::AllReduce, 8), 14);
        QCOMPARE(ringSteps(CollectiveOp::Broadcast, 8), 7);
        for (CollectiveOp op : kAllOps) {
            QCOMPARE(busBandwidthFactor(op, 1), 0.0);
            QCOMPARE(ringSteps(op, 1), 0);
        }
    }

    // The bytes a rank sends in the model are the bytes the runner's trace
    // records for the same collective under Gloo's ring (all_reduce's trace
    // figure is rounded down).
    void busBytesMatchTheTracesWireBytes() {
        const Cluster c = testCluster();
        const int64_t block = 1000;
        for (int n : {2, 4, 8}) {
            std::vector<int> ranks;
            for (int r = 0; r < n; ++r) ranks.push_back(r);
            const int64_t size = block * n;
            QCOMPARE(collectiveCost(CollectiveOp::AllGather, size, ranks, c).busBytes,
                     double(wire_bytes::allGather(block, n)));
            QCOMPARE(collectiveCost(CollectiveOp::AllToAll, size, ranks, c).busBytes,
                     double(wire_bytes::allToAll(block, n)));
            QCOMPARE(int64_t(collectiveCost(CollectiveOp::AllReduce, size, ranks, c).busBytes),
                     wire_bytes::allReduce(size, n));
        }
    }

    // One row per op, in the order the trace palette colours them, each
    // name once: the table every reader of an op goes through.
    void theTableHasOneRowPerOp() {
        QCOMPARE(collectiveOps().size(), std::size(kAllOps));
        std::set<std::string_view> names;
        for (CollectiveOp op : kAllOps) {
            QCOMPARE(collectiveOpInfo(op).op, op);
            QVERIFY(!collectiveOpInfo(op).meaning.empty());
            names.insert(collectiveOpInfo(op).name);
        }
        QCOMPARE(names.size(), std::size(kAllOps));
        QCOMPARE(busBandwidthFactor("all_to_all_v", 4), 3.0 / 4);
        QCOMPARE(busBandwidthFactor("not_an_op", 4), 0.0);
        QCOMPARE(wireBytes(CollectiveOp::AllReduce, 800, 8), 1400.0);
    }

    void traceNames() {
        for (CollectiveOp op : kAllOps) {
            const auto named = collectiveOpNamed(traceNameOf(op));
            QVERIFY(named.has_value());
            QCOMPARE(*named, op);
        }
        QCOMPARE(collectiveOpNamed("all_gather").value_or(CollectiveOp::Barrier),
                 CollectiveOp::AllGather);
        QCOMPARE(collectiveOpNamed("reduce_scatter").value_or(CollectiveOp::Barrier),
                 CollectiveOp::ReduceScatter);
        QVERIFY(!collectiveOpNamed("all_reduce_shard").has_value());
        QVERIFY(!collectiveOpNamed("").has_value());
    }

    void aSingleRankGroupCostsNothing() {
        const Cluster c = testCluster();
        for (CollectiveOp op : kAllOps) {
            for (int rank : {0, 5}) {
                const CollectiveCost cost = collectiveCost(op, int64_t(1) << 40, {rank}, c);
                QCOMPARE(cost.seconds, 0.0);
                QCOMPARE(cost.steps, 0);
            }
            QCOMPARE(collectiveSeconds(op, 1000, {}, c), 0.0);
        }
    }

    void zeroBytesCostNothingButABarrier() {
        const Cluster c = testCluster();
        for (CollectiveOp op : kAllOps)
            QCOMPARE(collectiveSeconds(op, 0, kOneNode, c) > 0, op == CollectiveOp::Barrier);
    }

    void fasterInterNodeNeverSlowsACollective() {
        const Cluster slow = testCluster();
        std::vector<Cluster> faster(3, slow);
        faster[0].interNode.bandwidthBytesPerSecond *= 2;
        faster[1].interNode.latencySeconds /= 2;
        faster[2].interNode.efficiency = 1;  // already 1: unchanged is "not slower" too
        faster[2].interNode.bandwidthBytesPerSecond = slow.intraNode.bandwidthBytesPerSecond;
        for (const Cluster& fast : faster)
            for (CollectiveOp op : kAllOps)
                for (const auto& ranks : groups())
                    for (int64_t bytes : {int64_t(0), int64_t(1), int64_t(4096), int64_t(1e9)})
                        QVERIFY2(collectiveSeconds(op, bytes, ranks, fast) <=
                                     collectiveSeconds(op, bytes, ranks, slow),
                                 qPrintable(QString::fromUtf8(traceNameOf(op).data()) + " " +
                                            QString::number(bytes)));
    }

    void aGroupInsideOneNodeIgnoresTheInterNodeFigures() {
        const Cluster base = testCluster();
        Cluster changed = base;
        changed.interNode.bandwidthBytesPerSecond = 1;
        changed.interNode.latencySeconds = 1;
        changed.interNode.efficiency = 0.01;
        for (CollectiveOp op : kAllOps)
            for (const std::vector<int>& ranks : {kOneNode, std::vector<int>{4, 5, 6, 7}})
                for (int64_t bytes : {int64_t(0), int64_t(4096), int64_t(1e9)})
                    QCOMPARE(collectiveSeconds(op, bytes, ranks, changed),
                             collectiveSeconds(op, bytes, ranks, base));
        // ...and a group across nodes does see them.
        QVERIFY(collectiveSeconds(CollectiveOp::AllGather, 4096, kAcrossNodes, changed) >
                collectiveSeconds(CollectiveOp::AllGather, 4096, kAcrossNodes, base));
    }

    void doublingTheBytesDoublesABandwidthBoundCollective() {
        Cluster c = testCluster();
        c.intraNode.latencySeconds = 0;
        c.interNode.latencySeconds = 0;
        for (CollectiveOp op : kAllOps) {
            if (op == CollectiveOp::Barrier) continue;  // moves no bytes
            for (const auto& ranks : groups()) {
                if (ranks.size() < 2) continue;
                for (int64_t bytes : {int64_t(1), int64_t(12345), int64_t(1e9), int64_t(3) << 40}) {
                    const double once = collectiveSeconds(op, bytes, ranks, c);
                    QVERIFY(once > 0);
                    QCOMPARE(collectiveSeconds(op, 2 * bytes, ranks, c), 2 * once);
                    // Exactly, not only within QCOMPARE's tolerance.
                    QVERIFY(collectiveSeconds(op, 2 * bytes, ranks, c) == 2 * once);
                }
            }
        }
    }

    void moreBytesOrMoreLatencyNeverCostLess() {
        const Cluster c = testCluster();
        for (CollectiveOp op : kAllOps)
            for (const auto& ranks : groups())
                QVERIFY(collectiveSeconds(op, 2000, ranks, c) >=
                        collectiveSeconds(op, 1000, ranks, c));
    }

    void badArguments() {
        const Cluster c = testCluster();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 collectiveCost(CollectiveOp::AllGather, -1, kOneNode, c));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range,
                                 collectiveCost(CollectiveOp::AllGather, 8, {0, 8}, c));
    }
};

QTEST_APPLESS_MAIN(TestCollectiveCost)
#include "tst_collective_cost.moc"
