#include <QtTest>

#include "model/geometry.h"

using namespace hsdp;

class TestGeometry : public QObject {
    Q_OBJECT
private slots:
    void nestedShardOnOneDim() {
        // [S(0), S(0)] on a 2x2 mesh: mesh dim 0 splits 8 rows in halves, mesh dim 1 splits each half.
        auto layout = shardLayout({8, 8}, {Placement::shard(0), Placement::shard(0)}, {2, 2}, {1, 0});
        QCOMPARE(layout.dims[0], (IndexSet{{4, 6}}));
        QCOMPARE(layout.dims[1], (IndexSet{{0, 8}}));
    }
};

QTEST_APPLESS_MAIN(TestGeometry)
#include "tst_geometry.moc"
