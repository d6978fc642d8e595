// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "types/placement.h"

using namespace hsdp;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

class TestPlacements : public QObject {
    Q_OBJECT
private slots:
    void acceptedSpellings_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        const std::pair<const char*, const char*> rows[] = {
            // Replicate
            {"R", "R"},
            {"Replicate()", "R"},
            {" Replicate ( ) ", "R"},
            {"Replicate", "R"},  // the class name, as PyTorch users paste it
            // Shard, d as written (negative kept)
            {"S(0)", "S(0)"},
            {"S(1)", "S(1)"},
            {"S(-1)", "S(-1)"},
            {"Shard(0)", "S(0)"},
            {"Shard(-2)", "S(-2)"},
            {"Shard(dim=1)", "S(1)"},
            {"Shard(dim=-1)", "S(-1)"},
            {"Shard( dim = 3 )", "S(3)"},
            {"S( 12 )", "S(12)"},
            // Strided shard
            {"SS(0,2)", "SS(0,2)"},
            {"SS(0, 2)", "SS(0,2)"},
            {"SS(-1,4)", "SS(-1,4)"},
            {"_S(0,2)", "SS(0,2)"},
            {"StridedShard(1,3)", "SS(1,3)"},
            {"_StridedShard(dim=0, sf=2)", "SS(0,2)"},
            {"_StridedShard(dim=0, split_factor=2)", "SS(0,2)"},
            {"_StridedShard(dim=-2,sf=1)", "SS(-2,1)"},
            {"\t_StridedShard( dim = 1 , split_factor = 8 )\n", "SS(1,8)"},
            // Partial
            {"P", "P(sum)"},
            {"P(sum)", "P(sum)"},
            {"P(avg)", "P(avg)"},
            {"P(max)", "P(max)"},
            {"P(min)", "P(min)"},
            {"P(product)", "P(product)"},
            {"Partial()", "P(sum)"},
            {"Partial", "P(sum)"},
            {"Partial(sum)", "P(sum)"},
            {"Partial(avg)", "P(avg)"},
            {"Partial(reduce_op=sum)", "P(sum)"},
            {"Partial(reduce_op=max)", "P(max)"},
            {"Partial( reduce_op = product )", "P(product)"},
        };
        for (const auto& [text, canonical] : rows)
            QTest::newRow(qPrintable(QString(text).simplified())) << text << canonical;
    }

    void acceptedSpellings() {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        auto p = parsePlacement(text.toStdString());
        QVERIFY2(p.has_value(), qPrintable("rejected: " + text));
        QCOMPARE(qs(p->toString()), canonical);
        // The canonical form reads back to the same placement.
        auto again = parsePlacement(p->toString());
        QVERIFY(again.has_value());
        QVERIFY(*again == *p);
    }

    void rejections_data() {
        QTest::addColumn<QString>("text");
        const char* rows[] = {
            "",
            " ",
            "S",
            "S()",
            "S(x)",
            "Shard(0",
            "Shard0)",
            "S(0))",
            "S((0))",
            "S(0)x",
            "S(0,1)",
            "S(1 0)",
            "S(0.5)",
            "S(+1)",
            "S(99999999999)",
            "Shard(sf=0)",
            "Shard(dim=)",
            "Shard(dim=0, dim=1)",
            "SS(0)",
            "SS(0,)",
            "SS(0,2,3)",
            "SS(0,0)",
            "SS(0,-2)",
            "SS(x,2)",
            "_StridedShard(dim=0, sf=0)",
            "_StridedShard(sf=2, dim=0)",
            "_StridedShard(dim=0, k=2)",
            "Strided Shard(0,2)",
            "P(foo)",
            "P(Sum)",
            "P(sum,avg)",
            "Partial(reduce_op=)",
            "Partial(op=sum)",
            "R()",
            "R(0)",
            "Replicate(0)",
            "Replicate(",
            "Replicate)",
            "r",
            "s(0)",
            "X(0)",
            "SS",
            "RR",
        };
        for (const char* text : rows) QTest::newRow(*text ? text : "<empty>") << text;
    }

    void rejections() {
        QFETCH(QString, text);
        auto p = parsePlacement(text.toStdString());
        QVERIFY2(!p.has_value(), qPrintable("accepted as " + (p ? qs(p->toString()) : QString())));
    }

    void equalityByKindAndArgs_data() {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("equal");
        QTest::newRow("R == Replicate()") << "R"
                                          << "Replicate()" << true;
        QTest::newRow("S(0) == Shard(dim=0)") << "S(0)"
                                              << "Shard(dim=0)" << true;
        QTest::newRow("S(0) != S(1)") << "S(0)"
                                      << "S(1)" << false;
        QTest::newRow("S(-1) != S(1)") << "S(-1)"
                                       << "S(1)" << false;
        QTest::newRow("SS(0,2) != S(0)") << "SS(0,2)"
                                         << "S(0)" << false;
        QTest::newRow("SS(0,1) != S(0)") << "SS(0,1)"
                                         << "S(0)" << false;
        QTest::newRow("SS(0,2) != SS(0,4)") << "SS(0,2)"
                                            << "SS(0,4)" << false;
        QTest::newRow("SS(0,2) != SS(1,2)") << "SS(0,2)"
                                            << "SS(1,2)" << false;
        QTest::newRow("SS == _StridedShard") << "SS(1,2)"
                                             << "_StridedShard(dim=1, sf=2)" << true;
        QTest::newRow("P == P(sum)") << "P"
                                     << "P(sum)" << true;
        QTest::newRow("P(sum) != P(avg)") << "P(sum)"
                                          << "P(avg)" << false;
        QTest::newRow("P(max) == Partial(reduce_op=max)") << "P(max)"
                                                          << "Partial(reduce_op=max)" << true;
        QTest::newRow("R != P") << "R"
                                << "P" << false;
        QTest::newRow("R != S(0)") << "R"
                                   << "S(0)" << false;
        QTest::newRow("P(sum) != S(0)") << "P(sum)"
                                        << "S(0)" << false;
    }

    void equalityByKindAndArgs() {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, equal);
        auto pa = parsePlacement(a.toStdString());
        auto pb = parsePlacement(b.toStdString());
        QVERIFY(pa && pb);
        QCOMPARE(*pa == *pb, equal);
        QCOMPARE(*pb == *pa, equal);
    }

    void kindPredicates() {
        QVERIFY(Placement::replicate().isReplicate());
        QVERIFY(Placement::shard(0).isShard());
        QVERIFY(Placement::stridedShard(0, 2).isShard());  // a strided shard counts as a shard
        QVERIFY(!Placement::partial().isShard());
        QVERIFY(Placement::partial(ReduceOp::Max).isPartial());
        QCOMPARE(parsePlacement("SS(-1,3)")->dim, -1);
        QCOMPARE(parsePlacement("SS(-1,3)")->splitFactor, 3);
        QCOMPARE(parsePlacement("P(min)")->reduceOp, ReduceOp::Min);
    }

    void reduceOps() {
        for (auto op :
             {ReduceOp::Sum, ReduceOp::Avg, ReduceOp::Max, ReduceOp::Min, ReduceOp::Product})
            QCOMPARE(parseReduceOp(reduceOpName(op)), std::optional(op));
        QVERIFY(!parseReduceOp("mean").has_value());
    }

    void listToString() {
        std::vector<Placement> list{Placement::replicate(), Placement::shard(-1),
                                    Placement::stridedShard(0, 2),
                                    Placement::partial(ReduceOp::Avg)};
        QCOMPARE(qs(placementsToString(list)), QString("[R, S(-1), SS(0,2), P(avg)]"));
        QCOMPARE(qs(placementsToString({})), QString("[]"));
    }
};

QTEST_APPLESS_MAIN(TestPlacements)
#include "tst_placements.moc"
