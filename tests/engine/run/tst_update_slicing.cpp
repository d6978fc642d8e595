// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "planner_fixtures.h"

#include "collectives/update_slicing.h"
#include "types/geometry.h"
#include "verify/truth.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

std::vector<std::pair<int, int>> axesOf(const std::vector<Placement>& pl, int ndim) {
    std::vector<std::pair<int, int>> axes;
    for (int m = 0; m < int(pl.size()); ++m)
        if (pl[size_t(m)].isShard()) axes.push_back({m, normalizeDim(pl[size_t(m)].dim, ndim)});
    return axes;
}
}  // namespace

class TestUpdateSlicing : public QObject {
    Q_OBJECT
private slots:
    void slices_data() {
        QTest::addColumn<std::vector<int64_t>>("meshShape");
        QTest::addColumn<std::vector<Placement>>("placements");
        QTest::addColumn<std::vector<int64_t>>("shape");
        QTest::addColumn<bool>(
            "referenceRight");  // does the reference's narrow give every rank its shard?
        QTest::newRow("even") << std::vector<int64_t>{4} << std::vector<Placement>{S(0)}
                              << std::vector<int64_t>{8, 3} << true;
        QTest::newRow("even-dim1")
            << std::vector<int64_t>{2, 2} << std::vector<Placement>{R(), S(1)}
            << std::vector<int64_t>{3, 8} << true;
        QTest::newRow("nested-even")
            << std::vector<int64_t>{2, 2} << std::vector<Placement>{S(0), S(0)}
            << std::vector<int64_t>{8, 8} << true;
        QTest::newRow("2d-even") << std::vector<int64_t>{2, 2} << std::vector<Placement>{S(0), S(1)}
                                 << std::vector<int64_t>{8, 8} << true;
        QTest::newRow("uneven") << std::vector<int64_t>{3} << std::vector<Placement>{S(0)}
                                << std::vector<int64_t>{7, 2} << false;
        QTest::newRow("strided") << std::vector<int64_t>{2, 2}
                                 << std::vector<Placement>{SS(0, 2), S(0)}
                                 << std::vector<int64_t>{8, 8} << false;
        QTest::newRow("strided-1d-mesh")
            << std::vector<int64_t>{2} << std::vector<Placement>{SS(1, 3)}
            << std::vector<int64_t>{2, 12} << false;
        QTest::newRow("size1-mesh-dim")
            << std::vector<int64_t>{1, 4} << std::vector<Placement>{SS(0, 2), S(0)}
            << std::vector<int64_t>{8, 2} << true;
    }
    void slices() {
        QFETCH(std::vector<int64_t>, meshShape);
        QFETCH(std::vector<Placement>, placements);
        QFETCH(std::vector<int64_t>, shape);
        QFETCH(bool, referenceRight);
        Tensor full = globalTensor(Truth::weight(1), shape);
        bool allRight = true;
        for (const auto& coord : allCoordinates(meshShape)) {
            Tensor expected =
                localTensor(Truth::weight(1), shape, placements, meshShape, coord, DType::F32);
            QCOMPARE(sliceUpdateCorrected(full, placements, meshShape, coord), expected);
            Tensor ref =
                sliceUpdateReference(full, axesOf(placements, int(shape.size())), meshShape, coord);
            allRight = allRight && ref == expected;
        }
        QCOMPARE(allRight, referenceRight);
    }

    void referenceStridedPicksContiguousRows() {
        // SS(0,2) then S(0) on 2x2 over 8 rows: coordinate (0,1) should hold
        // rows 4,5 but the reference narrows to rows 2,3.
        auto ranges = referenceSliceRanges({8, 8}, {{0, 0}, {1, 0}}, {2, 2}, {0, 1});
        QCOMPARE(ranges[0], (IndexRange{2, 4}));
        auto layout = shardLayout({8, 8}, {SS(0, 2), S(0)}, {2, 2}, {0, 1});
        QCOMPARE(layout.dims[0], (IndexSet{{4, 6}}));
    }

    void referenceUnevenShrinksLastShard() {
        // 7 rows over 3: torch.chunk gives 3,3,1; size // n gives 2,2,2.
        auto ranges = referenceSliceRanges({7, 2}, {{0, 0}}, {3}, {2});
        QCOMPARE(ranges[0], (IndexRange{4, 6}));
    }
};

QTEST_APPLESS_MAIN(TestUpdateSlicing)
#include "tst_update_slicing.moc"
