// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <map>

#include "types/geometry.h"

using namespace hsdp;

namespace {

// "8x8" -> {8, 8}; "1,0" -> {1, 0}; "" -> {}.
std::vector<int64_t> ints(const QString& text, QChar sep) {
    std::vector<int64_t> out;
    for (const auto& part : text.split(sep, Qt::SkipEmptyParts)) out.push_back(part.toLongLong());
    return out;
}

// "SS(0,2);S(0)" -> placements (';' because spellings contain commas).
std::vector<Placement> placements(const QString& text) {
    std::vector<Placement> out;
    for (const auto& part : text.split(';', Qt::SkipEmptyParts)) {
        auto p = parsePlacement(part.toStdString());
        if (!p) qFatal("bad placement in test table: %s", qPrintable(part));
        out.push_back(*p);
    }
    return out;
}

// "[0,2)+[4,6)" per dim, "{}" for an empty set, dims joined by " x ".
QString format(const IndexSet& set) {
    if (set.empty()) return "{}";
    QStringList parts;
    for (const auto& r : set) parts << QString("[%1,%2)").arg(r.begin).arg(r.end);
    return parts.join('+');
}

QString format(const ShardLayout& layout) {
    QStringList dims;
    for (const auto& d : layout.dims) dims << format(d);
    return dims.join(" x ");
}

void addLayoutColumns() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("placements");
    QTest::addColumn<QString>("mesh");
    QTest::addColumn<QString>("coord");
    QTest::addColumn<QString>("expected");
}

void row(const char* shape, const char* pls, const char* mesh, const char* coord,
         const char* expected) {
    QTest::addRow("%s %s on %s @(%s)", shape, pls, mesh, coord)
        << QString(shape) << QString(pls) << QString(mesh) << QString(coord) << QString(expected);
}

}  // namespace

class TestGeometry : public QObject {
    Q_OBJECT
private slots:
    void shardLayout_data() {
        addLayoutColumns();
        // docs/run.md §1: placements left to right, mesh dim 0 first, each splitting the piece.
        // 8x8 on 2x2, nested [S(0), S(0)]: dim 0 halves the rows, dim 1 halves each half.
        row("8x8", "S(0);S(0)", "2x2", "0,0", "[0,2) x [0,8)");
        row("8x8", "S(0);S(0)", "2x2", "0,1", "[2,4) x [0,8)");
        row("8x8", "S(0);S(0)", "2x2", "1,0", "[4,6) x [0,8)");
        row("8x8", "S(0);S(0)", "2x2", "1,1", "[6,8) x [0,8)");
        // [SS(0,2), S(0)]: dim 0 cuts 4 chunks of 2 rows, coord i takes chunks i and i+2
        // ({0,1,4,5} / {2,3,6,7}); dim 1 then halves that local piece.
        row("8x8", "SS(0,2);S(0)", "2x2", "0,0", "[0,2) x [0,8)");
        row("8x8", "SS(0,2);S(0)", "2x2", "0,1", "[4,6) x [0,8)");
        row("8x8", "SS(0,2);S(0)", "2x2", "1,0", "[2,4) x [0,8)");
        row("8x8", "SS(0,2);S(0)", "2x2", "1,1", "[6,8) x [0,8)");
        // PyTorch's printed spelling means the same.
        row("8x8", "_StridedShard(dim=0, sf=2);Shard(dim=0)", "2x2", "0,1", "[4,6) x [0,8)");
        // [S(0), SS(0,2)]: halves first, then 4 one-row chunks of each half, chunks i, i+2.
        row("8x8", "S(0);SS(0,2)", "2x2", "0,0", "[0,1)+[2,3) x [0,8)");
        row("8x8", "S(0);SS(0,2)", "2x2", "0,1", "[1,2)+[3,4) x [0,8)");
        row("8x8", "S(0);SS(0,2)", "2x2", "1,0", "[4,5)+[6,7) x [0,8)");
        row("8x8", "S(0);SS(0,2)", "2x2", "1,1", "[5,6)+[7,8) x [0,8)");
        // Row-wise: each mesh dim shards its own tensor dim.
        row("8x8", "S(0);S(1)", "2x2", "0,0", "[0,4) x [0,4)");
        row("8x8", "S(0);S(1)", "2x2", "0,1", "[0,4) x [4,8)");
        row("8x8", "S(0);S(1)", "2x2", "1,0", "[4,8) x [0,4)");
        row("8x8", "S(0);S(1)", "2x2", "1,1", "[4,8) x [4,8)");
        row("8x8", "S(1);S(0)", "2x2", "1,0", "[0,4) x [4,8)");
        // Replicate and Partial keep the whole piece.
        row("8x8", "R;S(0)", "2x2", "1,1", "[4,8) x [0,8)");
        row("8x8", "R;R", "2x2", "1,0", "[0,8) x [0,8)");
        row("8x8", "P(sum);S(0)", "2x2", "1,0", "[0,4) x [0,8)");
        row("8x8", "S(0);P(avg)", "2x2", "1,1", "[4,8) x [0,8)");
        row("8x8", "P(max);P(min)", "2x2", "0,1", "[0,8) x [0,8)");
        // Uneven, torch.chunk rule: chunk size ceil(len/n), trailing chunks short or empty.
        row("5", "S(0)", "4", "0", "[0,2)");
        row("5", "S(0)", "4", "1", "[2,4)");
        row("5", "S(0)", "4", "2", "[4,5)");
        row("5", "S(0)", "4", "3", "{}");
        row("5", "S(0)", "2", "0", "[0,3)");
        row("5", "S(0)", "2", "1", "[3,5)");
        row("3", "S(0)", "4", "0", "[0,1)");
        row("3", "S(0)", "4", "1", "[1,2)");
        row("3", "S(0)", "4", "2", "[2,3)");
        row("3", "S(0)", "4", "3", "{}");
        row("6", "S(0)", "4", "2", "[4,6)");  // 2,2,2,0 — not 2,2,1,1
        row("6", "S(0)", "4", "3", "{}");
        row("8", "S(0)", "3", "0", "[0,3)");
        row("8", "S(0)", "3", "2", "[6,8)");
        row("0", "S(0)", "2", "0", "{}");     // an empty tensor: every shard empty
        row("7", "S(0)", "1", "0", "[0,7)");  // a mesh dim of size 1 keeps everything
        // Uneven nested shards split the uneven piece again.
        row("5x8", "S(0);S(0)", "2x2", "0,0", "[0,2) x [0,8)");
        row("5x8", "S(0);S(0)", "2x2", "0,1", "[2,3) x [0,8)");
        row("5x8", "S(0);S(0)", "2x2", "1,0", "[3,4) x [0,8)");
        row("5x8", "S(0);S(0)", "2x2", "1,1", "[4,5) x [0,8)");
        row("3x4", "S(0);S(0)", "2x2", "1,0", "[2,3) x [0,4)");
        row("3x4", "S(0);S(0)", "2x2", "1,1", "{} x [0,4)");  // an empty shard
        row("5x8", "S(0);S(1)", "2x2", "1,1", "[3,5) x [4,8)");
        // Strided and uneven: 5 rows in 4 chunks of 2 -> [0,2) [2,4) [4,5) {}.
        row("5x2", "SS(0,2)", "2", "0", "[0,2)+[4,5) x [0,2)");
        row("5x2", "SS(0,2)", "2", "1", "[2,4) x [0,2)");
        row("3", "SS(0,2)", "2", "0", "[0,1)+[2,3)");
        row("3", "SS(0,2)", "2", "1", "[1,2)");
        row("12", "SS(0,3)", "2", "1", "[2,4)+[6,8)+[10,12)");
        row("8", "SS(0,1)", "2", "1", "[4,8)");  // split factor 1 is a plain shard
        // Negative dims count from the end.
        row("4x8", "S(-1)", "2", "1", "[0,4) x [4,8)");
        row("4x8", "S(-2)", "2", "1", "[2,4) x [0,8)");
        row("4x8", "SS(-1,2)", "2", "0", "[0,4) x [0,2)+[4,6)");
        row("4x6x8", "S(-3);S(-1)", "2x2", "1,0", "[2,4) x [0,6) x [0,4)");
        // 3-D experts and a 3-D mesh.
        row("4x6x8", "S(0);R", "2x2", "1,1", "[2,4) x [0,6) x [0,8)");
        row("8x8", "R;S(0);S(1)", "2x2x2", "1,1,0", "[4,8) x [0,4)");
        row("8x8", "S(0);S(0);S(0)", "2x2x2", "1,0,1", "[5,6) x [0,8)");
    }

    void shardLayout() {
        QFETCH(QString, shape);
        QFETCH(QString, placements);
        QFETCH(QString, mesh);
        QFETCH(QString, coord);
        QFETCH(QString, expected);
        auto layout = hsdp::shardLayout(ints(shape, 'x'), ::placements(placements), ints(mesh, 'x'),
                                        ints(coord, ','));
        QCOMPARE(format(layout), expected);
        // The local shape follows the index sets.
        QCOMPARE(int(layout.dims.size()), int(ints(shape, 'x').size()));
        int64_t numel = 1;
        for (const auto& d : layout.dims) numel *= indexCount(d);
        QCOMPARE(layout.localNumel(), numel);
    }

    void partialLayout_data() {
        addLayoutColumns();
        QTest::addColumn<int>("upTo");
        auto prow = [](const char* pls, const char* coord, int upTo, const char* expected) {
            QTest::addRow("%s @(%s) up to %d", pls, coord, upTo)
                << QString("8x8") << QString(pls) << QString("2x2") << QString(coord)
                << QString(expected) << upTo;
        };
        prow("SS(0,2);S(0)", "1,1", 0, "[0,8) x [0,8)");  // nothing applied yet
        prow("SS(0,2);S(0)", "0,1", 1, "[0,2)+[4,6) x [0,8)");
        prow("SS(0,2);S(0)", "1,0", 1, "[2,4)+[6,8) x [0,8)");
        prow("SS(0,2);S(0)", "0,1", 2, "[4,6) x [0,8)");  // = shardLayout
        prow("S(0);S(0)", "1,0", 1, "[4,8) x [0,8)");
        prow("S(0);S(1)", "0,1", 1, "[0,4) x [0,8)");
        prow("R;S(0)", "1,1", 1, "[0,8) x [0,8)");
        prow("S(0);S(0)", "1,1", 5, "[6,8) x [0,8)");  // past the end: all placements
    }

    void partialLayout() {
        QFETCH(QString, shape);
        QFETCH(QString, placements);
        QFETCH(QString, mesh);
        QFETCH(QString, coord);
        QFETCH(QString, expected);
        QFETCH(int, upTo);
        auto layout = hsdp::partialLayout(ints(shape, 'x'), ::placements(placements),
                                          ints(mesh, 'x'), ints(coord, ','), upTo);
        QCOMPARE(format(layout), expected);
    }

    // Independent of the tables: over all coordinates, every element is held by
    // exactly prod(sizes of non-shard mesh dims) ranks.
    void everyElementCoveredExactly_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("placements");
        QTest::addColumn<QString>("mesh");
        const char* rows[][3] = {
            {"8x8", "S(0);S(0)", "2x2"},           {"8x8", "SS(0,2);S(0)", "2x2"},
            {"5x3", "S(0);S(0)", "2x3"},           {"7x5", "SS(0,3);S(1)", "2x2"},
            {"3x9", "S(1);SS(1,2)", "3x2"},        {"5", "S(0)", "4"},
            {"1x2", "S(0);S(-1)", "4x3"},          {"6x6", "R;S(0)", "3x4"},
            {"10x4x3", "S(0);P;SS(0,2)", "2x2x3"},
        };
        for (const auto& r : rows)
            QTest::addRow("%s %s on %s", r[0], r[1], r[2])
                << QString(r[0]) << QString(r[1]) << QString(r[2]);
    }

    void everyElementCoveredExactly() {
        QFETCH(QString, shape);
        QFETCH(QString, placements);
        QFETCH(QString, mesh);
        auto global = ints(shape, 'x');
        auto pls = ::placements(placements);
        auto meshShape = ints(mesh, 'x');
        int64_t copies = 1;
        for (size_t m = 0; m < pls.size(); ++m)
            if (!pls[m].isShard()) copies *= meshShape[m];
        std::map<std::vector<int64_t>, int64_t> held;  // global element -> holders
        for (const auto& c : allCoordinates(meshShape)) {
            auto layout = hsdp::shardLayout(global, pls, meshShape, c);
            for (const auto& local : allCoordinates(layout.localShape())) {
                std::vector<int64_t> element;
                for (size_t d = 0; d < local.size(); ++d)
                    element.push_back(globalIndexAt(layout.dims[d], local[d]));
                ++held[element];
            }
        }
        const auto all = allCoordinates(global);
        QCOMPARE(held.size(), all.size());
        for (const auto& e : all) QCOMPARE(held[e], copies);
    }

    void outOfRangeShardDimThrows_data() {
        QTest::addColumn<QString>("placements");
        QTest::newRow("S(2) on 2-D") << "S(2)";
        QTest::newRow("S(-3) on 2-D") << "S(-3)";
        QTest::newRow("SS(5,2) on 2-D") << "SS(5,2)";
    }

    void outOfRangeShardDimThrows() {
        QFETCH(QString, placements);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 hsdp::shardLayout({4, 4}, ::placements(placements), {2}, {0}));
    }

    void indexSetHelpers() {
        IndexSet set{{0, 2}, {4, 6}, {9, 10}};
        QCOMPARE(indexCount(set), int64_t(5));
        QCOMPARE(globalIndexAt(set, 0), int64_t(0));
        QCOMPARE(globalIndexAt(set, 2), int64_t(4));
        QCOMPARE(globalIndexAt(set, 4), int64_t(9));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, globalIndexAt(set, 5));
        QCOMPARE(format(sliceOf(set, 1, 4)), QString("[1,2)+[4,6)"));
        QCOMPARE(format(sliceOf(set, 2, 2)), QString("{}"));
        QCOMPARE(format(sliceOf(IndexSet{{0, 3}, {3, 5}}, 1, 5)), QString("[1,5)"));  // merged
        QCOMPARE(format(chunkOf(set, 2, 1)), QString("[5,6)+[9,10)"));  // chunk size 3
        QCOMPARE(format(stridedChunkOf(IndexSet{{0, 8}}, 2, 2, 0)), QString("[0,2)+[4,6)"));
        QCOMPARE(normalizeDim(-1, 3), 2);
        QCOMPARE(normalizeDim(1, 3), 1);
        ShardLayout layout{{IndexSet{{0, 3}}, IndexSet{}, IndexSet{{2, 4}}}};
        QCOMPARE(layout.localShape(), (std::vector<int64_t>{3, 0, 2}));
        QCOMPARE(layout.localNumel(), int64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestGeometry)
#include "tst_geometry.moc"
