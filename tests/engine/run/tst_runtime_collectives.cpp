// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "runtime/world.h"
#include "runtime_test_util.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

using Bytes = std::vector<uint8_t>;

void runRanks(int worldSize, const std::vector<std::vector<int>>& groups,
              const std::function<void(RankContext&)>& body, TraceRecorder* trace = nullptr) {
    WorldOptions options;
    options.worldSize = worldSize;
    options.timeout = std::chrono::seconds(20);
    options.trace = trace;
    runWorld(options, groups, body);
}

size_t elementSize(DType dtype) {
    return static_cast<size_t>(dtypeSize(dtype));
}

void addWorldDtypeRows() {
    QTest::addColumn<int>("worldSize");
    QTest::addColumn<int>("dtype");
    for (int size = 1; size <= 8; ++size)
        for (DType dtype : {DType::F32, DType::BF16})
            QTest::addRow("%d ranks %s", size, std::string(dtypeName(dtype)).c_str())
                << size << static_cast<int>(dtype);
}

float reduceRef(ReduceOp op, float a, float b) {
    switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Avg:
            return a + b;
        case ReduceOp::Max:
            return std::max(a, b);
        case ReduceOp::Min:
            return std::min(a, b);
        case ReduceOp::Product:
            return a * b;
    }
    return a;
}

// Values whose products stay exact: +-2^k with small k.
float powerOfTwoValue(int rank, int index) {
    const float magnitude = std::ldexp(1.0f, (rank + index) % 3 - 1);
    return (rank + 2 * index) % 4 == 1 ? -magnitude : magnitude;
}

}  // namespace

class TestRuntimeCollectives : public QObject {
    Q_OBJECT
private slots:
    void allGather_data() { addWorldDtypeRows(); }
    void allGather() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        const size_t count = 7;
        std::vector<Bytes> gathered(worldSize), inPlace(worldSize);
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            const Bytes in = rankData(type, ctx.rank(), count);
            Bytes out(in.size() * worldSize, 0xEE);
            ctx.world().allGather(in.data(), out.data(), in.size(), {});
            gathered[ctx.rank()] = out;
            // In place: this rank's block already sits in the output.
            Bytes buffer(in.size() * worldSize, 0xEE);
            std::copy(in.begin(), in.end(), buffer.begin() + ctx.rank() * in.size());
            ctx.world().allGather(buffer.data() + ctx.rank() * in.size(), buffer.data(), in.size(),
                                  {});
            inPlace[ctx.rank()] = buffer;
        });
        Bytes expected;
        for (int r = 0; r < worldSize; ++r) {
            const Bytes block = rankData(type, r, count);
            expected.insert(expected.end(), block.begin(), block.end());
        }
        for (int r = 0; r < worldSize; ++r) {
            QCOMPARE(gathered[r], expected);
            QCOMPARE(inPlace[r], expected);
        }
    }

    void allGatherV_data() { addWorldDtypeRows(); }
    void allGatherV() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        // Uneven, with empty contributions (every third rank sends nothing).
        std::vector<size_t> counts(worldSize);
        for (int r = 0; r < worldSize; ++r) counts[r] = r % 3 == 1 ? 0 : static_cast<size_t>(r + 2);
        std::vector<size_t> bytes(worldSize);
        for (int r = 0; r < worldSize; ++r) bytes[r] = counts[r] * elementSize(type);
        std::vector<Bytes> gathered(worldSize);
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            const Bytes in = rankData(type, ctx.rank(), counts[ctx.rank()]);
            Bytes out(std::accumulate(bytes.begin(), bytes.end(), size_t{0}), 0xEE);
            ctx.world().allGatherV(in.data(), out.data(), bytes, {});
            gathered[ctx.rank()] = out;
        });
        Bytes expected;
        for (int r = 0; r < worldSize; ++r) {
            const Bytes block = rankData(type, r, counts[r]);
            expected.insert(expected.end(), block.begin(), block.end());
        }
        for (int r = 0; r < worldSize; ++r) QCOMPARE(gathered[r], expected);
    }

    void broadcastEveryRoot_data() { addWorldDtypeRows(); }
    void broadcastEveryRoot() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        const size_t count = 9;
        std::vector<std::vector<Bytes>> received(worldSize, std::vector<Bytes>(worldSize));
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            for (int root = 0; root < worldSize; ++root) {
                Bytes buffer = ctx.rank() == root ? rankData(type, root, count, 0, root)
                                                  : Bytes(count * elementSize(type), 0xEE);
                ctx.world().broadcast(buffer.data(), buffer.size(), root, {});
                received[ctx.rank()][root] = buffer;
            }
        });
        for (int r = 0; r < worldSize; ++r)
            for (int root = 0; root < worldSize; ++root)
                QCOMPARE(received[r][root], rankData(type, root, count, 0, root));
    }

    void allReduce_data() { addWorldDtypeRows(); }
    void allReduce() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        const size_t count = 11;
        const std::vector<ReduceOp> ops{ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Avg};
        std::vector<std::vector<Bytes>> results(worldSize, std::vector<Bytes>(ops.size()));
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            for (size_t k = 0; k < ops.size(); ++k) {
                Bytes buffer = rankData(type, ctx.rank(), count, 0, static_cast<int>(k));
                ctx.world().allReduce(buffer.data(), count, type, ops[k], {});
                results[ctx.rank()][k] = buffer;
            }
        });
        for (size_t k = 0; k < ops.size(); ++k) {
            Bytes expected(count * elementSize(type));
            for (size_t i = 0; i < count; ++i) {
                float acc = valueFor(0, static_cast<int>(i), static_cast<int>(k));
                for (int r = 1; r < worldSize; ++r)
                    acc = reduceRef(ops[k], acc,
                                    valueFor(r, static_cast<int>(i), static_cast<int>(k)));
                if (ops[k] == ReduceOp::Avg) acc /= static_cast<float>(worldSize);
                storeValue(type, expected, i, acc);
            }
            for (int r = 0; r < worldSize; ++r) QCOMPARE(results[r][k], expected);
        }
    }

    void allReduceProduct_data() { addWorldDtypeRows(); }
    void allReduceProduct() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        const size_t count = 6;
        std::vector<Bytes> results(worldSize);
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            Bytes buffer(count * elementSize(type));
            for (size_t i = 0; i < count; ++i)
                storeValue(type, buffer, i, powerOfTwoValue(ctx.rank(), static_cast<int>(i)));
            ctx.world().allReduce(buffer.data(), count, type, ReduceOp::Product, {});
            results[ctx.rank()] = buffer;
        });
        for (size_t i = 0; i < count; ++i) {
            float expected = 1;
            for (int r = 0; r < worldSize; ++r) expected *= powerOfTwoValue(r, static_cast<int>(i));
            for (int r = 0; r < worldSize; ++r) QCOMPARE(loadValue(type, results[r], i), expected);
        }
    }

    void allReduceF64() {
        const int worldSize = 3;
        std::vector<std::vector<double>> results(worldSize);
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            // 1 + k * 2^-40 has no fp32 representation: only a real f64 reduction keeps it.
            std::vector<double> buffer{1.0 + std::ldexp(1.0, -40) * (ctx.rank() + 1),
                                       1.0 + ctx.rank()};
            ctx.world().allReduce(buffer.data(), buffer.size(), DType::F64, ReduceOp::Sum, {});
            results[ctx.rank()] = buffer;
        });
        for (int r = 0; r < worldSize; ++r) {
            QCOMPARE(results[r][0], 3.0 + 6 * std::ldexp(1.0, -40));
            QCOMPARE(results[r][1], 6.0);
        }
    }

    void reduceScatter_data() { addWorldDtypeRows(); }
    void reduceScatter() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        const size_t countPerRank = 4;
        const std::vector<ReduceOp> ops{ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Avg};
        std::vector<std::vector<Bytes>> results(worldSize, std::vector<Bytes>(ops.size()));
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            for (size_t k = 0; k < ops.size(); ++k) {
                const Bytes in =
                    rankData(type, ctx.rank(), countPerRank * worldSize, 0, static_cast<int>(k));
                Bytes out(countPerRank * elementSize(type), 0xEE);
                ctx.world().reduceScatter(in.data(), out.data(), countPerRank, type, ops[k], {});
                results[ctx.rank()][k] = out;
            }
        });
        for (size_t k = 0; k < ops.size(); ++k) {
            for (int r = 0; r < worldSize; ++r) {
                Bytes expected(countPerRank * elementSize(type));
                for (size_t i = 0; i < countPerRank; ++i) {
                    const int index = static_cast<int>(r * countPerRank + i);
                    float acc = valueFor(0, index, static_cast<int>(k));
                    for (int s = 1; s < worldSize; ++s)
                        acc = reduceRef(ops[k], acc, valueFor(s, index, static_cast<int>(k)));
                    if (ops[k] == ReduceOp::Avg) acc /= static_cast<float>(worldSize);
                    storeValue(type, expected, i, acc);
                }
                QCOMPARE(results[r][k], expected);
            }
        }
    }

    void allToAll_data() { addWorldDtypeRows(); }
    void allToAll() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        const size_t count = 3;
        const size_t blockBytes = count * elementSize(type);
        std::vector<Bytes> results(worldSize), inPlace(worldSize);
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            // Block j of rank r holds valueFor(r, j * count + i).
            const Bytes in = rankData(type, ctx.rank(), count * worldSize);
            Bytes out(in.size(), 0xEE);
            ctx.world().allToAll(in.data(), out.data(), blockBytes, {});
            results[ctx.rank()] = out;
            Bytes buffer = in;
            ctx.world().allToAll(buffer.data(), buffer.data(), blockBytes, {});
            inPlace[ctx.rank()] = buffer;
        });
        for (int r = 0; r < worldSize; ++r) {
            Bytes expected;
            for (int j = 0; j < worldSize; ++j) {
                const Bytes block = rankData(type, j, count, r * static_cast<int>(count));
                expected.insert(expected.end(), block.begin(), block.end());
            }
            QCOMPARE(results[r], expected);
            QCOMPARE(inPlace[r], expected);
        }
    }

    // Uneven blocks, empty ones included (a pair that exchanges nothing, a
    // rank that sends nobody anything): each block lands where its
    // receiver expects it, and the trace counts the bytes sent to others.
    void allToAllV_data() { addWorldDtypeRows(); }
    void allToAllV() {
        QFETCH(int, worldSize);
        QFETCH(int, dtype);
        const auto type = static_cast<DType>(dtype);
        const size_t element = elementSize(type);
        // Elements rank r sends rank j; rank 1 sends nothing at all.
        auto count = [](int r, int j) { return r == 1 ? size_t(0) : size_t((r * 3 + j) % 4); };
        std::vector<Bytes> results(worldSize);
        TraceRecorder recorder;
        runRanks(
            worldSize, {},
            [&](RankContext& ctx) {
                const int r = ctx.rank();
                std::vector<size_t> sendBytes(worldSize), recvBytes(worldSize);
                Bytes in, out;
                for (int j = 0; j < worldSize; ++j) {
                    sendBytes[size_t(j)] = count(r, j) * element;
                    recvBytes[size_t(j)] = count(j, r) * element;
                    const Bytes block = rankData(type, r, count(r, j), 100 * j);
                    in.insert(in.end(), block.begin(), block.end());
                }
                out.assign(std::accumulate(recvBytes.begin(), recvBytes.end(), size_t{0}), 0xEE);
                ctx.world().allToAllV(in.data(), sendBytes, out.data(), recvBytes, {});
                results[size_t(r)] = out;
            },
            &recorder);
        for (int r = 0; r < worldSize; ++r) {
            Bytes expected;
            for (int j = 0; j < worldSize; ++j) {
                const Bytes block = rankData(type, j, count(j, r), 100 * r);
                expected.insert(expected.end(), block.begin(), block.end());
            }
            QCOMPARE(results[size_t(r)], expected);
        }
        for (const TraceEvent& e : recorder.take().events) {
            QCOMPARE(e.op, std::string("all_to_all_v"));
            int64_t toOthers = 0;
            for (int j = 0; j < worldSize; ++j)
                if (j != e.rank) toOthers += int64_t(count(e.rank, j) * element);
            QCOMPARE(e.bytes, worldSize > 1 ? toOthers : 0);
        }
    }

    void barrierAndZeroBytes() {
        const int worldSize = 4;
        std::vector<int> done(worldSize, 0);
        runRanks(worldSize, {}, [&](RankContext& ctx) {
            ctx.world().barrier({});
            ctx.world().allGather(nullptr, nullptr, 0, {});
            ctx.world().broadcast(nullptr, 0, 1, {});
            ctx.world().allReduce(nullptr, 0, DType::F32, ReduceOp::Sum, {});
            ctx.world().allToAll(nullptr, nullptr, 0, {});
            ctx.world().barrier({});
            done[ctx.rank()] = 1;
        });
        QCOMPARE(std::count(done.begin(), done.end(), 1), worldSize);
    }

    // A 2x4 mesh: rows {0..3}, {4..7} and column pairs {r, r+4}, all used at
    // once with data that differs per group.
    void subGroupsConcurrently() {
        const int worldSize = 8;
        const std::vector<std::vector<int>> groups{{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 4},
                                                   {5, 1},       {2, 6},       {3, 7}};
        const size_t count = 5;
        std::vector<Bytes> rowGathered(worldSize), columnSums(worldSize);
        std::vector<int> rowRank(worldSize), undeclaredRejected(worldSize, 0);
        runRanks(worldSize, groups, [&](RankContext& ctx) {
            const int row = ctx.rank() / 4;
            const int column = ctx.rank() % 4;
            Communicator& rowGroup =
                ctx.group({row * 4 + 3, row * 4 + 2, row * 4 + 1, row * 4});  // any order
            Communicator& columnGroup = ctx.group({column, column + 4});
            rowRank[ctx.rank()] = rowGroup.rank();
            const Bytes mine = rankData(DType::BF16, ctx.rank(), count, 0, row + 1);
            Bytes gathered(mine.size() * 4);
            rowGroup.allGather(mine.data(), gathered.data(), mine.size(), {});
            rowGathered[ctx.rank()] = gathered;
            Bytes sum = rankData(DType::BF16, ctx.rank(), count, 0, column + 5);
            columnGroup.allReduce(sum.data(), count, DType::BF16, ReduceOp::Sum, {});
            columnSums[ctx.rank()] = sum;
            try {
                ctx.group({0, 1});
            } catch (const std::invalid_argument&) {
                undeclaredRejected[ctx.rank()] = 1;
            }
            ctx.world().barrier({});
        });
        for (int r = 0; r < worldSize; ++r) {
            const int row = r / 4, column = r % 4;
            QCOMPARE(rowRank[r], column);
            Bytes expected;
            for (int member = row * 4; member < row * 4 + 4; ++member) {
                const Bytes block = rankData(DType::BF16, member, count, 0, row + 1);
                expected.insert(expected.end(), block.begin(), block.end());
            }
            QCOMPARE(rowGathered[r], expected);
            Bytes expectedSum(count * 2);
            for (size_t i = 0; i < count; ++i)
                storeValue(DType::BF16, expectedSum, i,
                           valueFor(column, static_cast<int>(i), column + 5) +
                               valueFor(column + 4, static_cast<int>(i), column + 5));
            QCOMPARE(columnSums[r], expectedSum);
            QCOMPARE(undeclaredRejected[r], 1);
        }
    }

    void singleRankGroup() {
        std::vector<Bytes> results(3);
        int aloneSize = -1, aloneRank = -1;
        runRanks(3, {{1}}, [&](RankContext& ctx) {
            if (ctx.rank() != 1) return;
            Communicator& alone = ctx.group({1});
            aloneSize = alone.size();
            aloneRank = alone.rank();
            const Bytes in = rankData(DType::F32, 1, 4);
            Bytes out(in.size());
            alone.allGather(in.data(), out.data(), in.size(), {});
            alone.reduceScatter(out.data(), out.data(), 4, DType::F32, ReduceOp::Sum, {});
            results[1] = out;
        });
        QCOMPARE(aloneSize, 1);
        QCOMPARE(aloneRank, 0);
        QCOMPARE(results[1], rankData(DType::F32, 1, 4));
    }

    // Ids follow program order, not which group's first member happened to
    // ask first, so two runs of a plan number their collectives alike.
    void collectivesNumberedInProgramOrder() {
        TraceRecorder recorder;
        auto event = [](int64_t seq, int rank, std::vector<int> group, double startUs) {
            TraceEvent e;
            e.seq = seq;
            e.rank = rank;
            e.op = "broadcast";
            e.groupRanks = std::move(group);
            e.startUs = startUs;
            e.endUs = startUs + 1;
            return e;
        };
        const int64_t second = recorder.globalSeq("2,3", 1);  // ranks 2 and 3 arrive first
        const int64_t first = recorder.globalSeq("0,1", 1);
        const int64_t third = recorder.globalSeq("0,1", 2);
        recorder.globalSeq("2,3", 2);  // numbered, never recorded: no id in the trace
        for (int rank : {2, 3}) recorder.record(event(second, rank, {2, 3}, 0));
        for (int rank : {0, 1}) {
            recorder.record(event(first, rank, {0, 1}, 10));
            recorder.record(event(third, rank, {0, 1}, 20));
        }
        const Trace trace = recorder.take();
        std::map<std::pair<int, double>, int64_t> ids;
        for (const auto& e : trace.events) ids[{e.rank, e.startUs}] = e.seq;
        QCOMPARE(ids.at({0, 10}), int64_t(0));
        QCOMPARE(ids.at({1, 10}), int64_t(0));
        QCOMPARE(ids.at({2, 0}), int64_t(1));
        QCOMPARE(ids.at({3, 0}), int64_t(1));
        QCOMPARE(ids.at({0, 20}), int64_t(2));
        QCOMPARE(ids.size(), size_t(6));
    }

    // Every participant of a collective records it under the same seq; the
    // byte counts follow the documented model.
    void traceEventsShareSeq() {
        const int worldSize = 4;
        const std::vector<std::vector<int>> groups{{0, 1}, {2, 3}};
        TraceRecorder recorder;
        const size_t blockBytes = 16;
        runRanks(
            worldSize, groups,
            [&](RankContext& ctx) {
                CollectiveLabel label;
                label.phase = "gather";
                label.scheduleIndex = 3;
                label.params = {7, 9};
                Bytes in(blockBytes, 1), out(blockBytes * worldSize);
                ctx.world().allGather(in.data(), out.data(), blockBytes, label);
                Communicator& pair = ctx.group({ctx.rank() / 2 * 2, ctx.rank() / 2 * 2 + 1});
                label.phase = "update-broadcast";
                pair.broadcast(in.data(), blockBytes, 1, label);
                Bytes sums(blockBytes * 2);
                pair.allToAll(sums.data(), sums.data(), blockBytes, label);
                float value = 1;
                ctx.world().allReduce(&value, 1, DType::F32, ReduceOp::Sum, label);
            },
            &recorder);
        const TraceTotals totals = recorder.totals();
        const Trace trace = recorder.take();
        QCOMPARE(static_cast<int>(trace.events.size()), worldSize * 4);
        QCOMPARE(totals.rankEvents, static_cast<int64_t>(trace.events.size()));
        std::map<int64_t, std::vector<const TraceEvent*>> bySeq;
        int64_t bytes = 0;
        for (const auto& event : trace.events) {
            bySeq[event.seq].push_back(&event);
            bytes += event.bytes;
            QVERIFY(event.startUs <= event.endUs);
            QCOMPARE(event.label.scheduleIndex, 3);
            QCOMPARE(event.label.params, (std::vector<int>{7, 9}));
        }
        QCOMPARE(totals.bytes, bytes);
        QCOMPARE(static_cast<int>(bySeq.size()), 2 + 2 * 2);  // 2 world ops, 2 ops on each pair
        QCOMPARE(totals.collectives, static_cast<int64_t>(bySeq.size()));  // each once
        for (const auto& [seq, events] : bySeq) {
            std::set<int> participants;
            for (const TraceEvent* event : events) {
                participants.insert(event->rank);
                QCOMPARE(event->op, events.front()->op);
                QCOMPARE(event->groupRanks, events.front()->groupRanks);
            }
            const auto& ranks = events.front()->groupRanks;
            QCOMPARE(participants, std::set<int>(ranks.begin(), ranks.end()));
            for (const TraceEvent* event : events) {
                const int groupRank = static_cast<int>(
                    std::find(ranks.begin(), ranks.end(), event->rank) - ranks.begin());
                if (event->op == "all_gather") QCOMPARE(event->bytes, int64_t(blockBytes * 3));
                if (event->op == "broadcast")
                    QCOMPARE(event->bytes, groupRank == 1 ? int64_t(blockBytes) : 0);
                if (event->op == "all_to_all") QCOMPARE(event->bytes, int64_t(blockBytes));
                if (event->op == "all_reduce") QCOMPARE(event->bytes, int64_t(2 * 3 * 4 / 4));
            }
        }
        // Events come sorted by rank, then time.
        for (size_t i = 1; i < trace.events.size(); ++i)
            QVERIFY(trace.events[i - 1].rank < trace.events[i].rank ||
                    (trace.events[i - 1].rank == trace.events[i].rank &&
                     trace.events[i - 1].startUs <= trace.events[i].startUs));
    }
};

QTEST_APPLESS_MAIN(TestRuntimeCollectives)
#include "tst_runtime_collectives.moc"
