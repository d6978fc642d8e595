// hsdp-bench: benchmarks that print ratios measured side by side in one run.
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.h"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    const char* usage =
        "usage: hsdp-bench plan [--json] [--check] [--keep DIR]\n"
        "           owner assignment (heap vs the reference's scan), then hsdp-inspect plan "
        "--json\n"
        "           vs the Python port of the reference, whole processes, over a scaling table;\n"
        "           --check: 4k params x 8,192 ranks only, exit 1 below 10x\n"
        "           (--inspect, --python, --port PATH: other planners to run)\n"
        "       hsdp-bench gather [--json]   fused all-gather vs per-parameter and raw Gloo\n"
        "             [--shard-sizes FILE]   run exactly these per-rank shard bytes, one a line\n"
        "             [--rounds N] [--ranks N]\n"
        "       hsdp-bench views [--json] [--scenario FILE]\n"
        "           studio at 8,192 ranks: mesh paint, tree model, GUI stall\n"
        "       hsdp-bench scale [--json] [--max-ranks N] [--procs N|auto] [--timeout S]\n"
        "           the largest world (2x8 .. 4x16x16 meshes, up to N ranks, default 1,024)\n"
        "           that runs and verifies in one process and split over --procs worker\n"
        "           processes (default 4), each run's connect time, and how connect time\n"
        "           grows with sockets; --timeout: per run, default 900 s [--keep DIR]\n";
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        std::cout << usage;
        return args.empty() ? 2 : 0;
    }
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "plan") return hsdp::bench::planBenchmark(rest);
    if (args[0] == "gather") return hsdp::bench::gatherBenchmark(rest);
    if (args[0] == "views") return hsdp::bench::viewsBenchmark(rest);
    if (args[0] == "scale") return hsdp::bench::scaleBenchmark(rest);
    std::cerr << "hsdp-bench: unknown benchmark '" << args[0] << "'\n" << usage;
    return 2;
}
