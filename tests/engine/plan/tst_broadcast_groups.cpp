// SPDX-License-Identifier: Apache-2.0
// BroadcastGroups (core/cost/detail/broadcast_groups.h): the fused broadcasts
// a rank joins along each dim of a hierarchical broadcast, grouped once for
// every rank instead of each rank scanning every item.
#include <QtTest>

#include "cost/detail/broadcast_groups.h"

using namespace hsdp;

namespace {

// Mesh [4, 3, 2]; broadcast over dims {0, 1} (dim 2 shards, its coordinate
// never matters).
const std::vector<int64_t> kShape = {4, 3, 2};
const std::vector<int> kDims = {0, 1};

// Each group as (root, items), for comparing.
using Flat = std::vector<std::pair<int64_t, std::vector<int>>>;

Flat flat(const std::vector<BroadcastGroups::RootGroup>* groups) {
    Flat out;
    if (groups)
        for (const auto& g : *groups) out.emplace_back(g.root, g.items);
    return out;
}

}  // namespace

class TestBroadcastGroups : public QObject {
    Q_OBJECT
private slots:
    void theOuterDimGroupsEveryItemByRoot() {
        const BroadcastGroups g({{2, 0}, {0, 1}, {2, 2}, {1, 1}}, kDims, kShape);
        // Along dims[0] nothing is outer: every rank sees every item, roots ascending.
        const Flat expected = {{0, {1}}, {1, {3}}, {2, {0, 2}}};
        QCOMPARE(flat(g.along(0, {0, 0, 0})), expected);
        QCOMPARE(flat(g.along(0, {3, 2, 1})), expected);
    }

    void anInnerDimSeesTheItemsRootedOnItsLine() {
        const BroadcastGroups g({{2, 0}, {0, 1}, {2, 2}, {1, 1}, {2, 0}}, kDims, kShape);
        // Along dims[1], the items whose root shares the rank's dims[0] coordinate.
        QCOMPARE(flat(g.along(1, {2, 1, 0})), (Flat{{0, {0, 4}}, {2, {2}}}));
        QCOMPARE(flat(g.along(1, {2, 0, 1})), (Flat{{0, {0, 4}}, {2, {2}}}));
        QCOMPARE(flat(g.along(1, {0, 2, 0})), (Flat{{1, {1}}}));
        QVERIFY(!g.along(1, {3, 0, 0}));  // no item rooted at dims[0] = 3
    }

    void aRootOutsideTheMeshIsOnNoLine() {
        // Root coordinate 5 on dims[0] (size 4) matches no rank on the inner
        // dim; along the outer dim it is still its own root, as it is given.
        const BroadcastGroups g({{5, 0}, {1, 0}}, kDims, kShape);
        QCOMPARE(flat(g.along(0, {1, 0, 0})), (Flat{{1, {1}}, {5, {0}}}));
        QCOMPARE(flat(g.along(1, {1, 0, 0})), (Flat{{0, {1}}}));
        QVERIFY(!g.along(1, {0, 0, 0}));
    }

    void noItemsNoGroups() {
        const BroadcastGroups g({}, kDims, kShape);
        QVERIFY(!g.along(0, {0, 0, 0}));
        QVERIFY(!g.along(1, {0, 0, 0}));
    }
};

QTEST_APPLESS_MAIN(TestBroadcastGroups)
#include "tst_broadcast_groups.moc"
