// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "planner_fixtures.h"

#include <cmath>
#include <mutex>

#include "collectives/fused_gather.h"
#include "runtime/world.h"
#include "types/geometry.h"
#include "verify/truth.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

struct ItemSpec {
    std::vector<int64_t> shape;
    DType dtype;
};

struct Case {
    std::vector<int64_t> meshShape;
    std::vector<int> ranks;  // empty: 0..n-1
    std::vector<Placement> placements;
    std::vector<ItemSpec> items;
    int64_t alignment = 512;
};

struct Outcome {
    std::vector<std::vector<Tensor>> full;  // [rank][item]
    std::vector<std::vector<bool>> views;   // [rank][item]: handed out as a view
    std::vector<std::string> errors;        // [rank]
};

Mesh makeMesh(const Case& c) {
    std::vector<std::string> names;
    for (size_t d = 0; d < c.meshShape.size(); ++d) names.push_back("d" + std::to_string(d));
    if (c.ranks.empty()) return Mesh("main", c.meshShape, std::move(names));
    return Mesh("main", c.meshShape, std::move(names), c.ranks);
}

Outcome runGather(const Case& c, bool reference) {
    const Mesh mesh = makeMesh(c);
    std::vector<std::vector<int>> groups;
    for (int d = 0; d < mesh.ndim(); ++d)
        for (auto& g : mesh.groupsAlong(d)) groups.push_back(g);
    const int world = int(mesh.size());
    Outcome out{std::vector<std::vector<Tensor>>(size_t(world)),
                std::vector<std::vector<bool>>(size_t(world)),
                std::vector<std::string>(size_t(world))};
    std::mutex mutex;
    WorldOptions options;
    options.worldSize = world;
    options.timeout = std::chrono::milliseconds(20000);
    runWorld(options, groups, [&](RankContext& ctx) {
        const Coord coord = *mesh.coordinateOf(ctx.rank());
        GatherSetup setup;
        setup.mesh = &mesh;
        setup.coord = coord;
        setup.alignmentBytes = c.alignment;
        setup.label.phase = "gather";
        int ndim = int(c.items.front().shape.size());
        for (int m = 0; m < int(c.placements.size()); ++m)
            if (c.placements[size_t(m)].isShard())
                setup.shardAxes.push_back({m, normalizeDim(c.placements[size_t(m)].dim, ndim)});
        std::vector<Tensor> locals;
        for (size_t i = 0; i < c.items.size(); ++i)
            locals.push_back(localTensor(Truth::grad(int(i)), c.items[i].shape, c.placements,
                                         mesh.shape, coord, c.items[i].dtype));
        std::vector<GatherItem> items;
        for (size_t i = 0; i < c.items.size(); ++i)
            items.push_back({int(i), c.items[i].shape, c.placements, c.items[i].dtype, &locals[i]});
        auto result = reference ? fusedGatherReference(ctx, setup, items)
                                : fusedGatherCorrected(ctx, setup, items);
        std::lock_guard lock(mutex);
        for (const auto& g : result.full) {
            out.full[size_t(ctx.rank())].push_back(g.toTensor());
            out.views[size_t(ctx.rank())].push_back(g.isView());
        }
        out.errors[size_t(ctx.rank())] = result.error;
    });
    return out;
}

// "exact" when every rank gathered every item's truth, "error" when the
// reference refused, else "mismatch".
QString verdict(const Case& c, const Outcome& o) {
    for (const auto& e : o.errors)
        if (!e.empty()) return "error";
    for (const auto& perRank : o.full)
        for (size_t i = 0; i < c.items.size(); ++i)
            if (perRank[i] != globalTensor(Truth::grad(int(i)), c.items[i].shape))
                return "mismatch";
    return "exact";
}

}  // namespace

Q_DECLARE_METATYPE(Case)

class TestFusedGather : public QObject {
    Q_OBJECT
private slots:
    void gathers_data() {
        QTest::addColumn<Case>("c");
        QTest::addColumn<QString>("reference");  // what the reference as written gives
        const DType f = DType::F32, b = DType::BF16;
        for (DType dt : {f, b}) {
            QString t = dt == f ? "-f32" : "-bf16";
            QTest::newRow(qPrintable("w1" + t)) << Case{{1}, {}, {S(0)}, {{{5, 3}, dt}}} << "exact";
            QTest::newRow(qPrintable("w2-even" + t))
                << Case{{2}, {}, {S(0)}, {{{8, 4}, dt}}} << "exact";
            QTest::newRow(qPrintable("w3-uneven" + t))
                << Case{{3}, {}, {S(0)}, {{{7, 5}, dt}}} << "mismatch";
            QTest::newRow(qPrintable("w3-uneven-1d" + t))
                << Case{{3}, {}, {S(0)}, {{{7}, dt}}} << "mismatch";
            QTest::newRow(qPrintable("w4-uneven-dim1" + t))
                << Case{{4}, {}, {S(1)}, {{{3, 10}, dt}}} << "mismatch";
            QTest::newRow(qPrintable("w4-nested" + t))
                << Case{{2, 2}, {}, {S(0), S(0)}, {{{8, 8}, dt}}} << "mismatch";
            QTest::newRow(qPrintable("w4-strided" + t))
                << Case{{2, 2}, {}, {SS(0, 2), S(0)}, {{{8, 8}, dt}}} << "exact";
            QTest::newRow(qPrintable("w6-2d-uneven" + t))
                << Case{{2, 3}, {}, {S(0), S(1)}, {{{5, 8}, dt}}} << "mismatch";
            QTest::newRow(qPrintable("w8-3d" + t))
                << Case{{2, 2, 2}, {}, {S(0), S(0), S(1)}, {{{9, 6}, dt}}} << "mismatch";
            QTest::newRow(qPrintable("w8-empty-chunks" + t))
                << Case{{8}, {}, {S(0)}, {{{5, 4}, dt}}} << "error";  // empty chunks pack 0
            QTest::newRow(qPrintable("w8-hsdp" + t))
                << Case{{2, 4}, {}, {R(), S(0)}, {{{16, 4}, dt}, {{12, 4}, dt}}} << "exact";
            QTest::newRow(qPrintable("w5-tight-align" + t))
                << Case{{5}, {}, {S(0)}, {{{7, 3}, dt}}, 2} << "error";
            QTest::newRow(qPrintable("w4-permuted" + t))
                << Case{{2, 2}, {3, 1, 2, 0}, {S(0), S(1)}, {{{4, 4}, dt}}} << "mismatch";
            QTest::newRow(qPrintable("w7-strided-uneven" + t))
                << Case{{7}, {}, {SS(1, 2)}, {{{3, 20}, dt}}} << "mismatch";
        }
        QTest::newRow("w4-mixed-dtypes")
            << Case{{4}, {}, {S(0)}, {{{8, 4}, b}, {{4, 6}, f}, {{12}, b}}} << "exact";
        QTest::newRow("w2-many-items-uneven")
            << Case{{2}, {}, {S(0)}, {{{3, 4}, f}, {{5, 2}, f}, {{1, 7}, f}}}
            << "error";  // rank 1's last shard is empty: 256 vs 384
        QTest::newRow("w2-two-items-uneven")
            << Case{{2}, {}, {S(0)}, {{{3, 4}, f}, {{5, 2}, f}}} << "mismatch";
    }
    void gathers() {
        QFETCH(Case, c);
        QFETCH(QString, reference);
        QCOMPARE(verdict(c, runGather(c, false)), QString("exact"));
        QCOMPARE(verdict(c, runGather(c, true)), reference);
    }

    void referenceNestedReordersRows() {
        // [S(0), S(0)] on 2x2 over 8 rows: gathering the outer mesh dim first
        // gives rows 0,1,4,5,2,3,6,7 on every rank.
        Case c{{2, 2}, {}, {S(0), S(0)}, {{{8, 2}, DType::F32}}};
        auto o = runGather(c, true);
        Tensor truth = globalTensor(Truth::grad(0), {8, 2});
        int order[] = {0, 1, 4, 5, 2, 3, 6, 7};
        for (const auto& perRank : o.full)
            for (int r = 0; r < 8; ++r)
                QCOMPARE(perRank[0].data[size_t(r) * 2], truth.data[size_t(order[r]) * 2]);
    }

    void referenceUnevenReadsPadding() {
        // 5 rows over 2 ranks: 3 + 2. Rank 0 unpacks 3 rows from rank 1's slot,
        // whose third row is padding (poison, NaN); rank 1 unpacks 2 + 2 rows.
        Case c{{2}, {}, {S(0)}, {{{5, 4}, DType::F32}}};
        auto o = runGather(c, true);
        QCOMPARE(o.full[0][0].shape, (std::vector<int64_t>{6, 4}));
        QVERIFY(std::isnan(o.full[0][0].data[5 * 4]));
        QVERIFY(!std::isnan(o.full[0][0].data[4 * 4]));
        QCOMPARE(o.full[1][0].shape, (std::vector<int64_t>{4, 4}));
    }

    // Where the members' blocks tile the tensor (plain, uneven, nested S(0)
    // shards in f32), the corrected gather hands out views of its gathered
    // buffer; reordered rows, a moved dim and a 16-bit wire need copies.
    void correctedHandsOutViewsWhereBlocksTile() {
        const DType f = DType::F32, b = DType::BF16;
        struct Expect {
            Case c;
            std::vector<bool> views;  // per item, on every rank
        };
        const std::vector<Expect> cases{
            {{{4}, {}, {S(0)}, {{{8, 4}, f}, {{12, 3}, f}, {{8, 2}, b}}}, {true, true, false}},
            {{{3}, {}, {S(0)}, {{{7, 5}, f}}}, {true}},
            {{{2, 2}, {}, {S(0), S(0)}, {{{8, 8}, f}}}, {true}},  // 2nd gather packs a view
            {{{2, 4}, {}, {R(), S(0)}, {{{16, 4}, f}}}, {true}},
            {{{4}, {}, {S(1)}, {{{3, 10}, f}}}, {false}},
            {{{2, 2}, {}, {SS(0, 2), S(0)}, {{{8, 8}, f}}}, {false}},
        };
        for (const auto& [c, views] : cases) {
            const auto o = runGather(c, false);
            QCOMPARE(verdict(c, o), QString("exact"));
            for (const auto& perRank : o.views) QCOMPARE(perRank, views);
        }
    }

    // A view keeps its gathered buffer: the next gather on the same thread
    // writes another one, and a buffer is reused once its views are gone.
    void viewsOutliveTheNextGather() {
        const Case c{{2}, {}, {S(0)}, {{{8, 4}, DType::F32}}};
        const Mesh mesh = makeMesh(c);
        struct Seen {
            bool firstIntact = false, secondExact = false, distinct = false, reused = false;
        };
        std::vector<Seen> seen(2);
        WorldOptions options;
        options.worldSize = 2;
        options.timeout = std::chrono::milliseconds(20000);
        runWorld(options, mesh.groupsAlong(0), [&](RankContext& ctx) {
            const Coord coord = *mesh.coordinateOf(ctx.rank());
            const auto& shape = c.items[0].shape;
            const Tensor grad =
                localTensor(Truth::grad(0), shape, c.placements, mesh.shape, coord, DType::F32);
            const Tensor weight =
                localTensor(Truth::weight(0), shape, c.placements, mesh.shape, coord, DType::F32);
            GatherSetup setup{&mesh, coord, {{0, 0}}, 512, {}};
            auto gather = [&](const Tensor& local) {
                return fusedGatherCorrected(ctx, setup,
                                            {{0, shape, c.placements, DType::F32, &local}})
                    .full;
            };
            auto first = gather(grad);
            auto second = gather(weight);
            Seen& s = seen[size_t(ctx.rank())];
            s.firstIntact = first[0] == globalTensor(Truth::grad(0), shape);
            s.secondExact = second[0] == globalTensor(Truth::weight(0), shape);
            const float* buffers[] = {first[0].storage().get(), second[0].storage().get()};
            s.distinct = buffers[0] != buffers[1];
            first.clear();
            second.clear();
            const float* again = gather(grad)[0].storage().get();
            s.reused = again == buffers[0] || again == buffers[1];
        });
        for (const auto& s : seen) {
            QVERIFY(s.firstIntact);
            QVERIFY(s.secondExact);
            QVERIFY(s.distinct);
            QVERIFY(s.reused);
        }
    }

    void preflightNamesRanks() {
        Mesh mesh = makeMesh(Case{{3}, {}, {S(0)}, {}});
        Tensor local;
        GatherItem item{0, {7, 3}, {S(0)}, DType::F32, &local};
        GatherSetup setup{&mesh, {2}, {{0, 0}}, 4, {}};
        QString error = QString::fromStdString(referenceGatherPreflight(setup, {item}));
        QVERIFY2(error.contains("rank 0 packs 9") && error.contains("rank 2 packs 3"),
                 qPrintable(error));
        setup.alignmentBytes = 512;
        QVERIFY(referenceGatherPreflight(setup, {item}).empty());
    }
};

QTEST_APPLESS_MAIN(TestFusedGather)
#include "tst_fused_gather.moc"
