// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "runtime/world.h"
#include "runtime_test_util.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<uint8_t>;

struct Outcome {
    std::optional<RunError> error;
    double seconds = 0;
};

Outcome runExpectingFailure(const WorldOptions& options,
                            const std::vector<std::vector<int>>& groups,
                            const std::function<void(RankContext&)>& body) {
    Outcome outcome;
    const auto start = Clock::now();
    try {
        runWorld(options, groups, body);
    } catch (const RunError& error) {
        outcome.error = error;
    }
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return outcome;
}

int threadCount() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
    return -1;
}

int openFileCount() {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
        (void)entry;
        ++count;
    }
    return count;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::vector<std::vector<int>> pairGroups(int worldSize) {
    std::vector<std::vector<int>> pairs;
    for (int r = 0; r + 1 < worldSize; r += 2) pairs.push_back({r, r + 1});
    return pairs;
}

// Per iteration: world all-gather, pair broadcast, world all-reduce.
void workload(RankContext& ctx, int iterations) {
    Communicator& pair = ctx.group({ctx.rank() / 2 * 2, ctx.rank() / 2 * 2 + 1});
    for (int step = 0; step < iterations; ++step) {
        CollectiveLabel label;
        label.scheduleIndex = step;
        label.phase = "gather";
        const Bytes in = rankData(DType::F32, ctx.rank(), 64);
        Bytes out(in.size() * ctx.worldSize());
        ctx.world().allGather(in.data(), out.data(), in.size(), label);
        label.phase = "update-broadcast";
        pair.broadcast(out.data(), out.size(), 0, label);
        label.phase = "replica-broadcast";
        ctx.world().allReduce(out.data(), 64, DType::F32, ReduceOp::Sum, label);
    }
}

constexpr auto kTimeout = std::chrono::seconds(20);

// Four ranks, traced into `recorder`, with `fault` injected.
WorldOptions tracedFourRanks(TraceRecorder& recorder, FaultSpec fault) {
    WorldOptions options;
    options.worldSize = 4;
    options.timeout = kTimeout;
    options.trace = &recorder;
    options.fault = fault;
    return options;
}

}  // namespace

class TestRuntimeFailure : public QObject {
    Q_OBJECT
private slots:
    void injectedFaultStopsFast_data() {
        QTest::addColumn<int>("worldSize");
        QTest::addColumn<int>("faultRank");
        QTest::addColumn<int>("collective");
        QTest::addRow("4 ranks, rank 3 at #5") << 4 << 3 << 5;
        QTest::addRow("4 ranks, rank 0 at #1") << 4 << 0 << 1;
        QTest::addRow("8 ranks, rank 6 at #8") << 8 << 6 << 8;
        QTest::addRow("8 ranks, rank 1 at #12") << 8 << 1 << 12;
        QTest::addRow("64 ranks, rank 37 at #4") << 64 << 37 << 4;
    }
    void injectedFaultStopsFast() {
        QFETCH(int, worldSize);
        QFETCH(int, faultRank);
        QFETCH(int, collective);
        WorldOptions options;
        options.worldSize = worldSize;
        options.timeout = kTimeout;
        options.fault = FaultSpec{faultRank, collective};
        const int threadsBefore = threadCount();
        // Stop time counts from the first body starting (the fault comes a few
        // collectives later), not from the start of the setup.
        std::atomic<int64_t> bodyStartNs{std::numeric_limits<int64_t>::max()};
        const Outcome outcome =
            runExpectingFailure(options, pairGroups(worldSize), [&](RankContext& ctx) {
                const int64_t now = Clock::now().time_since_epoch().count();
                for (int64_t seen = bodyStartNs;
                     now < seen && !bodyStartNs.compare_exchange_weak(seen, now);) {
                }
                workload(ctx, 10);
            });
        const double stopSeconds =
            std::chrono::duration<double>(Clock::now().time_since_epoch() -
                                          Clock::duration(bodyStartNs.load()))
                .count();
        QVERIFY(outcome.error.has_value());
        const RunError& error = *outcome.error;
        const std::string message = error.what();
        qInfo("stopped %.3f s after the bodies started (%.3f s with setup): %s", stopSeconds,
              outcome.seconds, message.c_str());
        QVERIFY2(stopSeconds < std::chrono::duration<double>(kTimeout).count() / 2,
                 message.c_str());
        QCOMPARE(error.rank, faultRank);
        // Collective #k of a rank: iteration (k-1)/3, op (k-1)%3 of the workload.
        const int step = (collective - 1) / 3;
        const int which = (collective - 1) % 3;
        const std::vector<std::string> ops{"all_gather", "broadcast", "all_reduce"};
        const std::vector<std::string> phases{"gather", "update-broadcast", "replica-broadcast"};
        QCOMPARE(error.op, ops[which]);
        const std::vector<int> pair{faultRank / 2 * 2, faultRank / 2 * 2 + 1};
        std::vector<int> world(worldSize);
        std::iota(world.begin(), world.end(), 0);
        QCOMPARE(error.groupRanks, which == 1 ? pair : world);
        QVERIFY(error.seq >= 0);
        QVERIFY2(contains(message, "injected fault on rank " + std::to_string(faultRank) +
                                       " at its collective " + std::to_string(collective) +
                                       " of the run"),
                 message.c_str());
        // Named by its group's own count, the same in every run: rank 2's
        // collectives on its group, counted to the failed one.
        const int onGroup = which == 1 ? step + 1 : 2 * step + (which == 0 ? 1 : 2);
        QVERIFY2(contains(message, error.op + " #" + std::to_string(onGroup) + " of group "),
                 message.c_str());
        QVERIFY2(contains(message,
                          "phase " + phases[which] + ", schedule entry " + std::to_string(step)),
                 message.c_str());
        QCOMPARE(threadCount(),
                 threadsBefore);  // every rank thread and Gloo's loop thread are gone
    }

    // The failed collective's seq is the one its peers use for it.
    void faultSeqMatchesPeers() {
        TraceRecorder recorder;
        const WorldOptions options = tracedFourRanks(recorder, FaultSpec{2, 3});
        const Outcome outcome = runExpectingFailure(options, {}, [](RankContext& ctx) {
            float value = 1;
            // Rank 2 dies at its third all-reduce; the others reach it too.
            for (int i = 0; i < 5; ++i)
                ctx.world().allReduce(&value, 1, DType::F32, ReduceOp::Sum, {});
        });
        QVERIFY(outcome.error.has_value());
        const Trace trace = recorder.take();
        std::set<int64_t> completedSeqs;
        for (const auto& event : trace.events) completedSeqs.insert(event.seq);
        QCOMPARE(static_cast<int>(completedSeqs.size()), 2);  // the first two all-reduces completed
        QCOMPARE(outcome.error->seq, *completedSeqs.rbegin() + 1);
    }

    // An injected fault stops its rank as a crash would: the others go on
    // with what does not need it, as a real job's ranks would until they
    // hang on it, so its Flight Recorder dumps show a real hang. Ranks 0
    // and 1 reach their pair's all-reduce after rank 2 failed, complete it,
    // and fail only at the world all-reduce that needs rank 2.
    void anInjectedFaultStopsOnlyWhatNeedsItsRank() {
        TraceRecorder recorder;
        const WorldOptions options = tracedFourRanks(recorder, FaultSpec{2, 1});
        const Outcome outcome = runExpectingFailure(options, pairGroups(4), [](RankContext& ctx) {
            float value = 1;
            if (ctx.rank() < 2) {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));  // after the fault
                ctx.group({0, 1}).allReduce(&value, 1, DType::F32, ReduceOp::Sum, {});
            }
            ctx.world().allReduce(&value, 1, DType::F32, ReduceOp::Sum, {});
        });
        QVERIFY(outcome.error.has_value());
        QCOMPARE(outcome.error->rank, 2);
        std::set<int> completed;
        for (const auto& event : recorder.take().events)
            if (event.groupRanks == std::vector<int>{0, 1}) completed.insert(event.rank);
        QCOMPARE(completed, (std::set<int>{0, 1}));
    }

    void bodyExceptionStopsFast() {
        WorldOptions options;
        options.worldSize = 4;
        options.timeout = kTimeout;
        const Outcome outcome = runExpectingFailure(options, pairGroups(4), [](RankContext& ctx) {
            workload(ctx, 1);
            if (ctx.rank() == 2) throw std::runtime_error("boom in the optimizer step");
            workload(ctx, 3);
        });
        QVERIFY(outcome.error.has_value());
        const std::string message = outcome.error->what();
        QVERIFY(outcome.seconds < 10);
        QCOMPARE(outcome.error->rank, 2);
        QCOMPARE(outcome.error->seq, int64_t(-1));
        QVERIFY2(contains(message, "rank 2") && contains(message, "boom in the optimizer step"),
                 message.c_str());
    }

    void cancellation() {
        std::atomic<bool> cancel{false};
        WorldOptions options;
        options.worldSize = 4;
        options.timeout = kTimeout;
        options.cancel = &cancel;
        const Outcome outcome = runExpectingFailure(options, pairGroups(4), [&](RankContext& ctx) {
            for (int i = 0;; ++i) {
                workload(ctx, 1);
                if (ctx.rank() == 0 && i == 2) cancel = true;
            }
        });
        QVERIFY(outcome.error.has_value());
        const std::string message = outcome.error->what();
        QVERIFY2(message.rfind("cancelled", 0) == 0, message.c_str());
        QVERIFY(!outcome.error->op.empty());
        QVERIFY(outcome.seconds < 10);
    }

    // Rank 2 skips an all-gather: the others wait until the timeout and say so.
    void realTimeout() {
        WorldOptions options;
        options.worldSize = 3;
        options.timeout = std::chrono::milliseconds(400);
        const Outcome outcome = runExpectingFailure(options, {}, [](RankContext& ctx) {
            if (ctx.rank() == 2) return;
            Bytes in(32, 1), out(96);
            ctx.world().allGather(in.data(), out.data(), in.size(), {});
        });
        QVERIFY(outcome.error.has_value());
        const std::string message = outcome.error->what();
        qInfo("timeout run: %.3f s: %s", outcome.seconds, message.c_str());
        QVERIFY2(contains(message, "timeout"), message.c_str());
        QCOMPARE(outcome.error->op, std::string("all_gather"));
        QVERIFY(outcome.error->rank == 0 || outcome.error->rank == 1);
        QCOMPARE(outcome.error->groupRanks, (std::vector<int>{0, 1, 2}));
        QVERIFY(outcome.seconds >= 0.4 && outcome.seconds < 5);
    }

    // Gloo's event loop terminates the process when a peer sends more than was
    // posted; the runtime must refuse mismatched calls before they reach it.
    void mismatchedCallsAreErrorsNotCrashes_data() {
        QTest::addColumn<int>("variant");
        QTest::addRow("all-gather sizes differ") << 0;
        QTest::addRow("broadcast sizes differ") << 1;
        QTest::addRow("different ops at the same point") << 2;
        QTest::addRow("all-reduce dtypes differ") << 3;
    }
    void mismatchedCallsAreErrorsNotCrashes() {
        QFETCH(int, variant);
        WorldOptions options;
        options.worldSize = 3;
        options.timeout = kTimeout;
        const Outcome outcome = runExpectingFailure(options, {}, [variant](RankContext& ctx) {
            const bool odd = ctx.rank() == 1;
            Bytes buffer(odd ? 64 : 32), out(3 * 64);
            switch (variant) {
                case 0:
                    ctx.world().allGather(buffer.data(), out.data(), buffer.size(), {});
                    break;
                case 1:
                    ctx.world().broadcast(buffer.data(), buffer.size(), 0, {});
                    break;
                case 2:
                    if (odd)
                        ctx.world().barrier({});
                    else
                        ctx.world().broadcast(buffer.data(), buffer.size(), 0, {});
                    break;
                default:
                    ctx.world().allReduce(buffer.data(), 8, odd ? DType::F32 : DType::BF16,
                                          ReduceOp::Sum, {});
            }
        });
        QVERIFY(outcome.error.has_value());
        const std::string message = outcome.error->what();
        QVERIFY2(contains(message, "mismatched collective"), message.c_str());
        QVERIFY2(contains(message, "rank 1"), message.c_str());
        QVERIFY(outcome.seconds < 10);
    }

    void invalidOptionsRejectedUpFront() {
        WorldOptions options;
        options.worldSize = 2;
        options.fault = FaultSpec{5, 1};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runWorld(options, {}, [](RankContext&) {}));
        options.fault.reset();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 runWorld(options, {{0, 2}}, [](RankContext&) {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 runWorld(options, {{1, 1}}, [](RankContext&) {}));
    }

    // 64 ranks on an 8x8 mesh: world all-gather, then row and column broadcasts.
    void world64() {
        const int worldSize = 64;
        std::vector<std::vector<int>> groups;
        for (int i = 0; i < 8; ++i) {
            std::vector<int> row, column;
            for (int j = 0; j < 8; ++j) {
                row.push_back(i * 8 + j);
                column.push_back(j * 8 + i);
            }
            groups.push_back(row);
            groups.push_back(column);
        }
        WorldOptions options;
        options.worldSize = worldSize;
        options.timeout = std::chrono::seconds(60);
        TraceRecorder recorder;
        options.trace = &recorder;
        std::vector<Bytes> gathered(worldSize), rowData(worldSize), columnData(worldSize);
        std::atomic<int64_t> firstBodyUs{-1};
        std::atomic<int> openFiles{-1};
        const auto start = Clock::now();
        runWorld(options, groups, [&](RankContext& ctx) {
            int64_t expected = -1;
            firstBodyUs.compare_exchange_strong(
                expected,
                std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start)
                    .count());
            if (ctx.rank() == 0) openFiles = openFileCount();
            const Bytes in = rankData(DType::BF16, ctx.rank(), 8);
            Bytes out(in.size() * worldSize);
            ctx.world().allGather(in.data(), out.data(), in.size(), {});
            gathered[ctx.rank()] = out;
            const int row = ctx.rank() / 8, column = ctx.rank() % 8;
            Bytes rowBuffer =
                ctx.rank() == row * 8 ? rankData(DType::BF16, row, 16, 0, 1) : Bytes(32);
            Communicator& rowGroup =
                ctx.group({row * 8, row * 8 + 1, row * 8 + 2, row * 8 + 3, row * 8 + 4, row * 8 + 5,
                           row * 8 + 6, row * 8 + 7});
            rowGroup.broadcast(rowBuffer.data(), rowBuffer.size(), 0, {});
            rowData[ctx.rank()] = rowBuffer;
            std::vector<int> columnRanks;
            for (int j = 0; j < 8; ++j) columnRanks.push_back(j * 8 + column);
            Bytes columnBuffer = row == 7 ? rankData(DType::BF16, column, 16, 0, 2) : Bytes(32);
            ctx.group(columnRanks).broadcast(columnBuffer.data(), columnBuffer.size(), 7, {});
            columnData[ctx.rank()] = columnBuffer;
        });
        const double total = std::chrono::duration<double>(Clock::now() - start).count();
        qInfo(
            "64 ranks, 17 groups: contexts ready after %.3f s, whole run %.3f s, %d files open in "
            "the bodies",
            static_cast<double>(firstBodyUs.load()) / 1e6, total, openFiles.load());
        Bytes expected;
        for (int r = 0; r < worldSize; ++r) {
            const Bytes block = rankData(DType::BF16, r, 8);
            expected.insert(expected.end(), block.begin(), block.end());
        }
        for (int r = 0; r < worldSize; ++r) {
            QCOMPARE(gathered[r], expected);
            QCOMPARE(rowData[r], rankData(DType::BF16, r / 8, 16, 0, 1));
            QCOMPARE(columnData[r], rankData(DType::BF16, r % 8, 16, 0, 2));
        }
        QCOMPARE(recorder.totals().rankEvents, int64_t(3 * worldSize));
    }

    void runAfterFailureIsClean() {
        WorldOptions options;
        options.worldSize = 4;
        options.timeout = kTimeout;
        options.fault = FaultSpec{1, 2};
        QVERIFY(runExpectingFailure(options, pairGroups(4), [](RankContext& ctx) {
                    workload(ctx, 2);
                }).error);
        options.fault.reset();
        std::vector<int> done(4, 0);
        runWorld(options, pairGroups(4), [&](RankContext& ctx) {
            workload(ctx, 2);
            done[ctx.rank()] = 1;
        });
        QCOMPARE(std::count(done.begin(), done.end(), 1), 4);
    }
};

QTEST_APPLESS_MAIN(TestRuntimeFailure)
#include "tst_runtime_failure.moc"
