// SPDX-License-Identifier: Apache-2.0
// The GPU presets against published measurements (docs/cluster-format.md,
// "Published checks"): NCCL-tests bus bandwidths and Newton–Schulz built of
// published bf16 GEMM rates, each within 20 %; the presets' `validation`
// figure is the largest of their errors.
#include <QtTest>

#include <cmath>

#include "cluster/reader.h"
#include "cost/collective_cost.h"
#include "cost/plan_cost.h"
#include "plan/planner.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

constexpr double kTolerance = 0.20;

// NCCL-tests' bus bandwidth of the model's collective: size x factor / time.
double busBandwidth(CollectiveOp op, int64_t bytes, const std::vector<int>& ranks,
                    const Cluster& cluster) {
    const CollectiveCost cost = collectiveCost(op, bytes, ranks, cluster);
    return cost.busBytes / cost.seconds;
}

std::vector<int> range(int first, int count, int stride = 1) {
    std::vector<int> out;
    for (int i = 0; i < count; ++i) out.push_back(first + i * stride);
    return out;
}

struct Check {
    const char* preset;
    std::string what;
    double measured;
    double predicted;
};

std::vector<Check> checks() {
    const Cluster h100 = readClusterPreset("h100-dgx");
    const Cluster a100 = readClusterPreset("a100-dgx");
    const Cluster h100x2 = withNodes(h100, 2);
    constexpr int64_t kGiB = int64_t{1} << 30;
    std::vector<Check> out;
    // github.com/NVIDIA/nccl/issues/1455: 8 x H100 SXM, NCCL_ALGO=RING, 2-4 GB:
    // busbw 365-370 GB/s; github.com/NVIDIA/nccl-tests/issues/212 (an NCCL
    // maintainer): ~370 GB/s busbw for non-allreduce operations on NVLink 4.
    out.push_back({"h100-dgx", "all_gather 8 x H100 in a node, 4 GiB (busbw)", 367.5e9,
                   busBandwidth(CollectiveOp::AllGather, 4 * kGiB, range(0, 8), h100)});
    out.push_back({"h100-dgx", "all_reduce ring 8 x H100 in a node, 2 GiB (busbw)", 367.5e9,
                   busBandwidth(CollectiveOp::AllReduce, 2 * kGiB, range(0, 8), h100)});
    // github.com/NVIDIA/nccl-tests/issues/290 (an NCCL maintainer): "For NDR
    // @ 400Gbps you should see 46-48GB/s per NIC": one GPU per node, one rail.
    out.push_back({"h100-dgx", "all_reduce ring 2 nodes x 1 GPU over one 400G NIC, 4 GiB (busbw)",
                   47e9, busBandwidth(CollectiveOp::AllReduce, 4 * kGiB, {0, 8}, h100x2)});
    // github.com/NVIDIA/nccl-tests/issues/149: 8 x A100-SXM4-80GB over NVLink,
    // all_reduce_perf up to 1 GiB: "busbw of ~200 GB/s".
    out.push_back({"a100-dgx", "all_reduce 8 x A100 in a node, 1 GiB (busbw)", 200e9,
                   busBandwidth(CollectiveOp::AllReduce, kGiB, range(0, 8), a100)});
    // Newton–Schulz built of published bf16 GEMM rates (the scenario files'
    // descriptions give each): the step of one matrix on one H100.
    for (int n : {1024, 2048, 4096, 8192}) {
        const QString file =
            QStringLiteral(HSDP_SOURCE_DIR
                           "/tests/data/published/h100_bf16_newton_schulz_%1_gemm_zzc0721_issue79"
                           ".scenario.json")
                .arg(n);
        const Scenario scenario = readScenarioFile(file.toStdString());
        const double tflops = n == 1024 ? 176.62 : n == 2048 ? 676.59 : n == 4096 ? 788.72 : 797.51;
        const double measured = 15 * 2 * std::pow(double(n), 3) / (tflops * 1e12);
        const PlanCost cost = costPlan(scenario, makePlan(scenario), h100);
        out.push_back({"h100-dgx",
                       "bf16 Newton-Schulz " + std::to_string(n) + "x" + std::to_string(n) +
                           " on one H100 (5 steps of published GEMMs)",
                       measured, cost.stepSeconds});
    }
    return out;
}

double relativeError(const Check& c) {
    return std::abs(c.predicted - c.measured) / c.measured;
}

}  // namespace

class TestPublishedGpu : public QObject {
    Q_OBJECT
private slots:
    void eachWithinTwentyPercent() {
        for (const Check& c : checks()) {
            qInfo("%-8s %-80s measured %.4g predicted %.4g error %.1f %%", c.preset, c.what.c_str(),
                  c.measured, c.predicted, 100 * relativeError(c));
            QVERIFY2(relativeError(c) <= kTolerance, c.what.c_str());
        }
    }

    // The presets say how far to trust them: the largest error of their checks
    // (rounded up to a whole percent), over how many.
    void presetValidationIsTheLargestError() {
        for (const char* preset : {"h100-dgx", "a100-dgx"}) {
            double worst = 0;
            int count = 0;
            for (const Check& c : checks())
                if (std::string(c.preset) == preset) {
                    worst = std::max(worst, relativeError(c));
                    ++count;
                }
            const Cluster cluster = readClusterPreset(preset);
            QCOMPARE(cluster.validation.errorPercent, std::ceil(100 * worst));
            // Checks of links and matrix products, not of a measured step.
            QVERIFY(cluster.validation.piecesOnly);
            QVERIFY2(cluster.trustText().find("on its pieces only") != std::string::npos,
                     cluster.trustText().c_str());
            QVERIFY2(cluster.validation.basis.find(std::to_string(count) + " published") !=
                         std::string::npos,
                     cluster.validation.basis.c_str());
        }
        // h200-hgx is h100-dgx's GPU die and links: it carries h100-dgx's checks.
        QCOMPARE(readClusterPreset("h200-hgx").validation.errorPercent,
                 readClusterPreset("h100-dgx").validation.errorPercent);
    }
};

QTEST_APPLESS_MAIN(TestPublishedGpu)
#include "tst_published_gpu.moc"
