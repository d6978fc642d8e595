// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "planner_fixtures.h"

#include <mutex>

#include "collectives/replicate_broadcast.h"
#include "runtime/world.h"
#include "tensor/packing.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

struct Item {
    int param;
    Coord root;
    int bytes;
};

// Every rank starts with poison except the root coordinate of each item, which
// holds bytes (param + i); after the broadcast all must hold them.
std::pair<bool, Trace> broadcastAll(const std::vector<int64_t>& meshShape,
                                    const std::vector<int>& dims, const std::vector<Item>& items,
                                    int64_t cap) {
    const Mesh mesh = meshOf(meshShape);
    std::vector<std::vector<int>> groups;
    for (int d = 0; d < mesh.ndim(); ++d)
        for (auto& g : mesh.groupsAlong(d)) groups.push_back(g);
    TraceRecorder trace;
    WorldOptions options;
    options.worldSize = int(mesh.size());
    options.trace = &trace;
    bool ok = true;
    std::mutex mutex;
    runWorld(options, groups, [&](RankContext& ctx) {
        const Coord coord = *mesh.coordinateOf(ctx.rank());
        std::vector<std::vector<std::byte>> payloads;
        for (const auto& it : items) {
            bool root = true;
            for (size_t i = 0; i < dims.size(); ++i)
                root = root && coord[size_t(dims[i])] == it.root[i];
            payloads.push_back(poisonBuffer(it.bytes));
            if (root)
                for (int i = 0; i < it.bytes; ++i)
                    payloads.back()[size_t(i)] = std::byte(uint8_t(it.param + i));
        }
        std::vector<BroadcastItem> bitems;
        for (size_t i = 0; i < items.size(); ++i)
            bitems.push_back({items[i].param, items[i].root, &payloads[i]});
        BroadcastSetup setup{&mesh, coord, dims, 64, cap, {}};
        setup.label.phase = "replica-broadcast";
        hierarchicalBroadcast(ctx, setup, bitems);
        bool mine = true;
        for (size_t k = 0; k < items.size(); ++k)
            for (int i = 0; i < items[k].bytes; ++i)
                mine = mine && payloads[k][size_t(i)] == std::byte(uint8_t(items[k].param + i));
        std::lock_guard lock(mutex);
        ok = ok && mine;
    });
    return {ok, trace.take()};
}

int broadcastsOf(const Trace& t, int rank) {
    int n = 0;
    for (const auto& e : t.events) n += e.rank == rank && e.op == "broadcast";
    return n;
}

}  // namespace

class TestExecBroadcast : public QObject {
    Q_OBJECT
private slots:
    void everyoneReceives_data() {
        QTest::addColumn<std::vector<int64_t>>("meshShape");
        QTest::addColumn<std::vector<int>>("dims");
        QTest::newRow("1d-4") << std::vector<int64_t>{4} << std::vector<int>{0};
        QTest::newRow("2x3-both") << std::vector<int64_t>{2, 3} << std::vector<int>{0, 1};
        QTest::newRow("2x2x2-outer-two") << std::vector<int64_t>{2, 2, 2} << std::vector<int>{0, 1};
        QTest::newRow("2x2x2-split") << std::vector<int64_t>{2, 2, 2} << std::vector<int>{0, 2};
        QTest::newRow("4x2-second") << std::vector<int64_t>{4, 2} << std::vector<int>{1};
    }
    void everyoneReceives() {
        QFETCH(std::vector<int64_t>, meshShape);
        QFETCH(std::vector<int>, dims);
        std::vector<Item> items;
        for (int p = 0; p < 5; ++p) {
            Coord root;
            for (size_t i = 0; i < dims.size(); ++i)
                root.push_back((p + int(i)) % meshShape[size_t(dims[i])]);
            items.push_back({p, root, 10 + 37 * p});
        }
        for (int64_t cap : {int64_t(0), int64_t(100)})
            QVERIFY(broadcastAll(meshShape, dims, items, cap).first);
    }

    void fusesPerRootAndCaps() {
        // Two params with the same root on a line of 4: one fused broadcast.
        std::vector<Item> items{{0, {1}, 100}, {1, {1}, 50}};
        auto [ok, trace] = broadcastAll({4}, {0}, items, 0);
        QVERIFY(ok);
        QCOMPARE(broadcastsOf(trace, 0), 1);
        // Segments aligned to 64: 100 -> 128, then 50; a cap of 64 bytes cuts 178 into 3 chunks.
        auto [ok2, trace2] = broadcastAll({4}, {0}, items, 64);
        QVERIFY(ok2);
        QCOMPARE(broadcastsOf(trace2, 0), 3);
        // Different roots: one broadcast each.
        auto [ok3, trace3] = broadcastAll({4}, {0}, {{0, {1}, 8}, {1, {2}, 8}}, 0);
        QVERIFY(ok3);
        QCOMPARE(broadcastsOf(trace3, 0), 2);
    }

    void hierarchicalLastDimFirst() {
        // 2x2 over both dims from root (1, 0): first along dim 1 inside row 1,
        // then along dim 0 in both columns. Rank 0 = (0, 0) takes part only in the second step.
        auto [ok, trace] = broadcastAll({2, 2}, {0, 1}, {{0, {1, 0}, 16}}, 0);
        QVERIFY(ok);
        QCOMPARE(broadcastsOf(trace, 0), 1);
        QCOMPARE(broadcastsOf(trace, 2), 2);  // (1, 0): root of both steps
        QList<int> dimsOfRank2;               // events are ordered by (rank, start)
        for (const auto& e : trace.events)
            if (e.rank == 2) dimsOfRank2 << e.label.meshDim;
        QCOMPARE(dimsOfRank2, (QList<int>{1, 0}));
    }

    void chunks() {
        auto c = chunksOf(10, 4);
        QCOMPARE(c.size(), size_t(3));
        QCOMPARE(c.back().begin, int64_t(8));
        QCOMPARE(chunksOf(10, 0).size(), size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestExecBroadcast)
#include "tst_exec_broadcast.moc"
