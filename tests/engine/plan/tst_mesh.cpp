// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <stdexcept>

#include "types/mesh.h"

using namespace hsdp;

// A mesh is made with its ranks, and the rank -> position index is built right
// there: every way of making one answers coordinateOf from the index, and a
// rank list the index cannot represent is refused when the mesh is made.
class TestMesh : public QObject {
    Q_OBJECT
private slots:
    void coordinatesOfPermutedRanks() {
        const Mesh mesh("m", {2, 3}, {"a", "b"}, {10, 4, 7, 0, 2, 12});
        QCOMPARE(*mesh.coordinateOf(10), (Coord{0, 0}));
        QCOMPARE(*mesh.coordinateOf(7), (Coord{0, 2}));
        QCOMPARE(*mesh.coordinateOf(0), (Coord{1, 0}));
        QCOMPARE(*mesh.coordinateOf(12), (Coord{1, 2}));
        for (int outside : {-1, 1, 3, 11, 13, 1000}) {
            QVERIFY(!mesh.coordinateOf(outside));
            QVERIFY(!mesh.contains(outside));
        }
        for (int r : mesh.ranks) QCOMPARE(mesh.rankAt(*mesh.coordinateOf(r)), r);
    }

    void rowMajorRanksAndDefaultDimNames() {
        const Mesh mesh("m", {2, 2, 3});
        QCOMPARE(mesh.ranks, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
        QCOMPARE(mesh.dimNames, (std::vector<std::string>{"dim0", "dim1", "dim2"}));
        QCOMPARE(*mesh.coordinateOf(7), (Coord{1, 0, 1}));
        QCOMPARE(mesh.groupAlong(1, {1, 0, 1}), (std::vector<int>{7, 10}));
    }

    void copiesKeepTheIndex() {
        const Mesh original("m", {4}, {"x"}, {3, 1, 0, 2});
        const Mesh copy = original;  // NOLINT(performance-unnecessary-copy-initialization)
        QCOMPARE(*copy.coordinateOf(2), (Coord{3}));
        std::vector<Mesh> meshes{original, copy};
        QCOMPARE(*meshes.back().coordinateOf(3), (Coord{0}));
    }

    void refusesRankListsWithoutAnIndex_data() {
        QTest::addColumn<std::vector<int>>("ranks");
        QTest::newRow("duplicate rank") << std::vector<int>{0, 1, 1, 3};
        QTest::newRow("too few ranks") << std::vector<int>{0, 1, 2};
        QTest::newRow("too many ranks") << std::vector<int>{0, 1, 2, 3, 4};
        QTest::newRow("negative rank") << std::vector<int>{0, -1, 2, 3};
    }

    void refusesRankListsWithoutAnIndex() {
        QFETCH(std::vector<int>, ranks);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Mesh("m", {2, 2}, {}, ranks));
    }

    void refusesDimNamesOfAnotherRank() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Mesh("m", {2, 2}, {"only"}));
    }
};

QTEST_APPLESS_MAIN(TestMesh)
#include "tst_mesh.moc"
