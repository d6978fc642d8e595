// SPDX-License-Identifier: Apache-2.0
// hsdp-bench: benchmarks that print ratios measured side by side in one run.
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

// Every benchmark, once: its name, its lines of the tool's usage (after the
// name), what runs it and its --help.
struct Benchmark {
    const char* name;
    const char* usage;
    int (*run)(const std::vector<std::string>& args);
    const char* help;
};

using namespace hsdp::bench;

const Benchmark kBenchmarks[] = {
    {"plan",
     "[--json] [--check] [--keep DIR]\n"
     "           owner assignment (heap vs the reference's scan), then hsdp-inspect plan --json\n"
     "           vs the Python port of the reference, whole processes, over a scaling table;\n"
     "           --check: 4k params x 8,192 ranks only, exit 1 below 5x\n"
     "           (--inspect, --python, --port PATH: other planners to run)\n",
     planBenchmark, kPlanHelp},
    {"gather",
     "[--json]   fused all-gather vs per-parameter and raw Gloo\n"
     "             [--shard-sizes FILE]   run exactly these per-rank shard bytes, one a line\n"
     "             [--rounds N] [--ranks N]\n",
     gatherBenchmark, kGatherHelp},
    {"views",
     "[--json] [--scenario FILE]\n"
     "           studio at 8,192 ranks: mesh paint, tree model, GUI stall\n",
     viewsBenchmark, kViewsHelp},
    {"scale",
     "[--json] [--max-ranks N] [--procs N|auto] [--timeout S]\n"
     "           the largest world (2x8 .. 4x16x16 meshes, up to N ranks, default 1,024)\n"
     "           that runs and verifies in one process and split over --procs worker\n"
     "           processes (default 4), each run's connect time, and how connect time\n"
     "           grows with sockets; --timeout: per run, default 900 s [--keep DIR]\n",
     scaleBenchmark, kScaleHelp},
    {"cost",
     "[--json] [--rounds N]\n"
     "           CPU time of the cost model (costPlan) at 4k params x 8,192 ranks on h100-dgx,\n"
     "           median of the rounds (default 5), goal < 1 s\n",
     costBenchmark, kCostHelp},
    {"predict",
     "[--json] [--cluster NAME|FILE] [--repeat N] [--check] [--only TEXT]\n"
     "           the cost model vs this machine: every sample and generated scenarios\n"
     "           run for real, measured makespan and collectives vs the loopback\n"
     "           cluster's prediction (median errors; goals 15 %/30 %/25 %)\n",
     predictBenchmark, kPredictHelp},
};

void printUsage(std::ostream& out) {
    const char* lead = "usage: ";
    for (const Benchmark& b : kBenchmarks) {
        out << lead << "hsdp-bench " << b.name << " " << b.usage;
        lead = "       ";
    }
    out << lead << "hsdp-bench BENCHMARK --help   what it measures, its options, its exit status\n";
}

bool wantsHelp(const std::vector<std::string>& args) {
    for (const auto& a : args)
        if (a == "-h" || a == "--help") return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        printUsage(std::cout);
        return args.empty() ? 2 : 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const Benchmark& b : kBenchmarks) {
        if (args[0] != b.name) continue;
        if (wantsHelp(rest)) return std::cout << b.help, 0;
        return b.run(rest);
    }
    std::cerr << "hsdp-bench: unknown benchmark '" << args[0] << "'\n";
    printUsage(std::cerr);
    return 2;
}
