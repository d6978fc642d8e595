// SPDX-License-Identifier: Apache-2.0
// calibrate() on a small sweep: one sample per op, size and configuration it
// names (groups at once, groups beside computing threads), every one timed,
// the fit's figures positive and its error the samples' own. Small enough
// for ThreadSanitizer, which checks the sweep's threads: rank threads of
// several groups at once and Newton–Schulz threads beside them.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "accuracy/run_prediction.h"
#include "calibrate/calibrate.h"

using namespace hsdp;

class TestCalibrate : public QObject {
    Q_OBJECT
private slots:
    void aSmallSweepTimesEveryConfigurationAndFits() {
        CalibrationOptions options;
        options.groupSizes = {2, 4};
        options.concurrentGroups = {1, 2};
        options.maxRanks = 8;
        options.sizes = {2048, 65536};
        options.repetitions = 1;
        options.cores = 2;
        QStringList progress;
        options.progress = [&](const std::string& line) {
            progress << QString::fromStdString(line);
        };
        const Calibration cal = calibrate(options);

        // 2 and 4 ranks, 1 and 2 groups at once; then one group beside 2 and
        // 4 computing threads: 8 configurations, 2 ops, 2 sizes each.
        std::set<std::tuple<int, int, int, int64_t, CollectiveOp>> seen;
        for (const CollectiveSample& s : cal.collectives) {
            QVERIFY(s.seconds > 0);
            QVERIFY(std::isfinite(s.predictedSeconds) && s.predictedSeconds > 0);
            QVERIFY(s.groupSize * s.groups + s.computing <= options.maxRanks);
            QVERIFY(s.computing == 0 || s.groups == 1);
            seen.insert({s.groupSize, s.groups, s.computing, s.sizeBytes, s.op});
        }
        QCOMPARE(cal.collectives.size(), size_t(8 * 2 * 2));
        QCOMPARE(seen.size(), cal.collectives.size());
        QCOMPARE(progress.filter(QStringLiteral("all_gather and broadcast over")).size(), 8);

        QCOMPARE(cal.computeSharing.size(), size_t(3));
        QVERIFY(!cal.compute.empty());
        QVERIFY(cal.sharedCores >= 1 && cal.sharedCores <= 2 * cal.hardwareCores);
        QVERIFY(cal.ring.bandwidthBytesPerSecond > 0);
        QVERIFY(cal.broadcast.bandwidthBytesPerSecond > 0);
        QVERIFY(cal.flopsPerSecond > 0 && cal.memoryBytesPerSecond > 0);
        // The fit's error is the samples' own.
        std::vector<double> errors;
        for (const CollectiveSample& s : cal.collectives)
            errors.push_back(relativeError(s.seconds, s.predictedSeconds));
        QCOMPARE(cal.fitMaxAbsRelError, *std::max_element(errors.begin(), errors.end()));
    }
};

QTEST_APPLESS_MAIN(TestCalibrate)
#include "tst_calibrate.moc"
