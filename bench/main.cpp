// hsdp-bench: benchmarks that print ratios measured side by side in one run.
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.h"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    const char* usage =
        "usage: hsdp-bench plan [--json]     owner assignment: heap vs O(params x coords) scan\n"
        "       hsdp-bench gather [--json]   fused all-gather vs per-parameter and raw Gloo\n"
        "       hsdp-bench views [--json]    studio at 8,192 ranks: mesh paint, tree model, GUI "
        "stall\n";
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        std::cout << usage;
        return args.empty() ? 2 : 0;
    }
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "plan") return hsdp::bench::planBenchmark(rest);
    if (args[0] == "gather") return hsdp::bench::gatherBenchmark(rest);
    if (args[0] == "views") return hsdp::bench::viewsBenchmark(rest);
    std::cerr << "hsdp-bench: unknown benchmark '" << args[0] << "'\n" << usage;
    return 2;
}
