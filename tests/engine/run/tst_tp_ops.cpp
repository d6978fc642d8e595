// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "planner_fixtures.h"

#include <mutex>

#include "plan/tp_lowering.h"
#include "redistribute/redistribute.h"
#include "runtime/world.h"
#include "verify/truth.h"
#include "verify/verify.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

struct TpCase {
    std::vector<int64_t> meshShape;
    std::vector<Placement> src, dst;
    std::vector<int64_t> shape;
    QString lowered;  // "" = fallback only; else the op run on the last mesh dim (the tp dim)
};

// The last mesh dim is the tp dim.
Mesh tpMeshOf(const std::vector<int64_t>& shape) {
    std::vector<std::string> names(shape.size(), "");
    for (size_t d = 0; d < names.size(); ++d)
        names[d] = d + 1 == names.size() ? "tp" : "d" + std::to_string(d);
    return meshOf(shape, names);
}

// Runs `steps` on every rank; returns per rank "" when its output is the
// truth laid out by dst (Partial dims: the truth model's split), else why not.
std::vector<std::string> runSteps(const TpCase& c, DType dtype,
                                  const std::vector<RedistributionStep>& steps,
                                  OpForm form = OpForm::Geometric) {
    const Mesh mesh = tpMeshOf(c.meshShape);
    std::vector<std::vector<int>> groups;
    for (int d = 0; d < mesh.ndim(); ++d)
        if (mesh.shape[size_t(d)] > 1)
            for (auto& g : mesh.groupsAlong(d)) groups.push_back(g);
    std::vector<std::string> out(size_t(mesh.size()));
    std::mutex mutex;
    WorldOptions options;
    options.worldSize = int(mesh.size());
    options.timeout = std::chrono::milliseconds(20000);
    runWorld(options, groups, [&](RankContext& ctx) {
        const Coord coord = *mesh.coordinateOf(ctx.rank());
        RankRedistribution redist{&ctx, &mesh, coord, c.shape, dtype, {}};
        redist.label.phase = "tp";
        std::string verdict;
        try {
            Tensor in = localTensor(Truth::tp(3), c.shape, c.src, mesh.shape, coord, dtype);
            Tensor got = executeSteps(redist, steps, in, form);
            Tensor want = localTensor(Truth::tp(3), c.shape, c.dst, mesh.shape, coord, dtype);
            if (!bitEqual(got, want))
                verdict = "rank " + std::to_string(ctx.rank()) + " got " + shapeText(got.shape) +
                          " want " + shapeText(want.shape);
        } catch (const ReferenceRaise& e) {
            verdict = std::string("raise: ") + e.what();
        }
        std::lock_guard lock(mutex);
        out[size_t(ctx.rank())] = verdict;
    });
    return out;
}

TpLoweredOp loweredOpNamed(const QString& name) {
    for (auto op : {TpLoweredOp::AllGather, TpLoweredOp::AllReduce, TpLoweredOp::ReduceScatter,
                    TpLoweredOp::AllReduceShard})
        if (name.toStdString() == tpLoweredOpName(op)) return op;
    qFatal("unknown lowered op %s", qPrintable(name));
}

QString firstProblem(const std::vector<std::string>& v) {
    for (const auto& s : v)
        if (!s.empty()) return QString::fromStdString(s);
    return {};
}

}  // namespace

Q_DECLARE_METATYPE(TpCase)

class TestTpOps : public QObject {
    Q_OBJECT
private slots:
    void transitions_data() {
        QTest::addColumn<TpCase>("c");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<bool>(
            "referenceExact");  // does the reference's lowered op give the dst layout?
        for (DType dt : {DType::F32, DType::BF16}) {
            const QString t = dt == DType::F32 ? "-f32" : "-bf16";
            auto row = [&](const char* name, TpCase c, bool ref) {
                QTest::newRow(qPrintable(name + t)) << c << int(dt) << ref;
            };
            row("tp1-gather", {{1}, {S(0)}, {R()}, {3, 4}, "all_gather"}, true);
            row("tp2-gather-dim1", {{2}, {S(1)}, {R()}, {4, 8}, "all_gather"}, true);
            row("tp3-gather-uneven", {{3}, {S(0)}, {R()}, {7, 2}, "all_gather"}, false);
            row("tp4-gather-strided", {{4}, {SS(0, 2)}, {R()}, {16, 2}, "all_gather"}, false);
            row("2x4-gather", {{2, 4}, {R(), S(1)}, {R(), R()}, {4, 8}, "all_gather"}, true);
            row("tp2-allreduce", {{2}, {P()}, {R()}, {4, 8}, "all_reduce"}, true);
            row("4x2-allreduce-sharded", {{4, 2}, {S(0), P()}, {S(0), R()}, {8, 6}, "all_reduce"},
                true);
            row("2x2-allreduce-nested-partial",
                {{2, 2}, {P(), P()}, {P(), R()}, {4, 4}, "all_reduce"}, true);
            row("tp4-allreduce-shard", {{4}, {P()}, {S(0)}, {8, 3}, "all_reduce_shard"}, true);
            row("tp3-allreduce-shard-uneven", {{3}, {P()}, {S(0)}, {7, 3}, "all_reduce_shard"},
                true);
            row("tp2-allreduce-shard-strided", {{2}, {P()}, {SS(0, 2)}, {8, 3}, "all_reduce_shard"},
                false);
            row("2x2-reduce-scatter", {{2, 2}, {R(), P()}, {R(), S(1)}, {4, 8}, "reduce_scatter"},
                true);
            row("tp3-reduce-scatter-uneven", {{3}, {P()}, {S(0)}, {7, 2}, "reduce_scatter"}, false);
            row("2x2x2-allreduce",
                {{2, 2, 2}, {R(), S(1), P()}, {R(), S(1), R()}, {4, 6}, "all_reduce"}, true);
            // Fallback only: the generic redistribution.
            row("tp3-alltoall-uneven", {{3}, {S(0)}, {S(1)}, {7, 5}, ""}, true);
            row("2x2-nested-to-replicate", {{2, 2}, {S(0), S(0)}, {R(), R()}, {8, 4}, ""}, true);
            row("2x2-nested-outer-only", {{2, 2}, {S(0), S(0)}, {R(), S(0)}, {8, 4}, ""}, true);
            row("2x4-move-shard-dim", {{2, 4}, {R(), S(0)}, {S(0), R()}, {9, 4}, ""}, true);
            row("2x2-partial-to-shard", {{2, 2}, {P(), R()}, {R(), S(0)}, {5, 4}, ""}, true);
            row("tp2-strided-to-plain", {{2}, {SS(0, 2)}, {S(0)}, {8, 2}, ""}, true);
            row("tp3-avg", {{3}, {P(ReduceOp::Avg)}, {R()}, {4, 4}, ""}, true);
            row("tp2-sum-to-max", {{2}, {P()}, {P(ReduceOp::Max)}, {4, 4}, ""}, true);
            row("2x2-partials-reorder", {{2, 2}, {P(), P()}, {R(), P()}, {4, 4}, ""}, true);
            row("tp4-replicate-to-partial", {{4}, {R()}, {P()}, {4, 4}, ""}, true);
            row("2x3-2d", {{2, 3}, {S(0), S(1)}, {S(1), S(0)}, {5, 7}, ""}, true);
            row("8-uneven-empty", {{8}, {S(0)}, {S(1)}, {5, 3}, ""}, true);
            row("2x2x2-everything", {{2, 2, 2}, {S(0), P(), S(1)}, {R(), S(1), S(0)}, {6, 10}, ""},
                true);
        }
    }
    void transitions() {
        QFETCH(TpCase, c);
        QFETCH(int, dtype);
        QFETCH(bool, referenceExact);
        const int ndim = int(c.shape.size());
        const int tpDim = int(c.meshShape.size()) - 1;
        // The generic redistribution is always right.
        QCOMPARE(firstProblem(runSteps(c, DType(dtype), planRedistribution(c.src, c.dst, ndim))),
                 QString());
        if (c.lowered.isEmpty()) return;
        const auto steps = loweredSteps(loweredOpNamed(c.lowered), tpDim, c.src, c.dst);
        QCOMPARE(firstProblem(runSteps(c, DType(dtype), steps)), QString());
        const QString ref = firstProblem(runSteps(c, DType(dtype), steps, OpForm::Seed));
        QVERIFY2(ref.isEmpty() == referenceExact, qPrintable(ref));
    }

    void planUndoesLaterDims() {
        using Op = RedistributionOp;
        auto steps = planRedistribution({S(0), S(0)}, {R(), S(0)}, 2);
        QList<int> kinds, dims;
        for (const auto& s : steps) {
            kinds << int(s.op);
            dims << s.meshDim;
        }
        QCOMPARE(kinds, (QList<int>{int(Op::AllGather), int(Op::AllGather), int(Op::LocalChunk)}));
        QCOMPARE(dims, (QList<int>{1, 0, 1}));
        auto direct = planRedistribution({R(), P()}, {R(), S(1)}, 2);
        QCOMPARE(direct.size(), size_t(1));
        QCOMPARE(direct[0].op, Op::ReduceScatter);
        QVERIFY(planRedistribution({S(0), R()}, {S(0), R()}, 2).empty());
    }

    void referenceGatherRaisesOnUnequalShards() {
        TpCase c{{3}, {S(0)}, {R()}, {7, 2}, "all_gather"};
        QString problem = firstProblem(runSteps(
            c, DType::F32, loweredSteps(TpLoweredOp::AllGather, 0, c.src, c.dst), OpForm::Seed));
        QVERIFY2(problem.startsWith("raise:") && problem.contains("equal"), qPrintable(problem));
    }
};

QTEST_APPLESS_MAIN(TestTpOps)
#include "tst_tp_ops.moc"
