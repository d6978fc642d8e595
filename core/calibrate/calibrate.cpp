// SPDX-License-Identifier: Apache-2.0
#include "calibrate/calibrate.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>

#include "accuracy/run_prediction.h"
#include "collectives/newton_schulz.h"
#include "cost/shared_cores.h"
#include "runtime/world.h"
#include "scenario/json_text.h"
#include "tensor/packing.h"

namespace hsdp {

double sharedCoreSlowdown(int groupSize, int groups, double cores, double memberLoad) {
    return 1 / sharedCoreSpeed(memberLoad * groupSize * groups, cores);
}

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The model's shape of one sample: seconds / slowdown = x . (latency,
// latency per rank, 1 / bandwidth).
constexpr int kParams = 4;  // latency, latency per rank, 1 / bandwidth, idle wake-up

struct Row {
    double x[kParams] = {0, 0, 0, 0};  // steps, steps x n, bus bytes, steps x idle fraction
    double slowdown = 1, seconds = 0;
};

Row rowOf(const CollectiveSample& s, double cores, double memberLoad) {
    Row row;
    const double steps = collectiveSteps(s.op, s.groupSize, CollectiveAlgorithms::Gloo);
    row.x[0] = steps;
    row.x[1] = steps * s.groupSize;
    row.x[2] =
        double(s.sizeBytes) * busBandwidthFactor(s.op, s.groupSize, CollectiveAlgorithms::Gloo);
    // The computing threads are busy all along: each counts 1.
    const double load = memberLoad * s.groupSize * s.groups + s.computing;
    row.slowdown = 1 / sharedCoreSpeed(load, cores);
    row.x[3] = steps * idleFraction(load, cores);
    row.seconds = s.seconds;
    return row;
}

// (An idle fraction > 0 means load < cores: slowdown 1.)
double predicted(const Row& r, const double* p) {
    double sum = 0;
    for (int i = 0; i < kParams; ++i) sum += r.x[i] * p[i];
    return r.slowdown * sum;
}

double sumSquaredRelative(const std::vector<Row>& rows, const double* p) {
    double sum = 0;
    for (const Row& r : rows) {
        const double e = (predicted(r, p) - r.seconds) / r.seconds;
        sum += e * e;
    }
    return sum;
}

// Weighted least squares (weights 1/seconds^2: the relative error) over the
// parameters in `use`, the others 0; false when singular.
bool solveSubset(const std::vector<Row>& rows, const bool* use, double* p) {
    int idx[kParams], k = 0;
    for (int i = 0; i < kParams; ++i)
        if (use[i]) idx[k++] = i;
    double m[kParams][kParams + 1] = {};
    for (const Row& r : rows) {
        if (!(r.seconds > 0)) continue;
        const double w = 1 / (r.seconds * r.seconds);
        for (int i = 0; i < k; ++i) {
            const double xi = r.slowdown * r.x[idx[i]];
            for (int j = 0; j < k; ++j) m[i][j] += w * xi * r.slowdown * r.x[idx[j]];
            m[i][k] += w * xi * r.seconds;
        }
    }
    for (int c = 0; c < k; ++c) {  // Gauss-Jordan with partial pivoting
        int pivot = c;
        for (int i = c + 1; i < k; ++i)
            if (std::abs(m[i][c]) > std::abs(m[pivot][c])) pivot = i;
        if (std::abs(m[pivot][c]) < 1e-300) return false;
        for (int j = 0; j <= k; ++j) std::swap(m[c][j], m[pivot][j]);
        for (int i = 0; i < k; ++i) {
            if (i == c) continue;
            const double f = m[i][c] / m[c][c];
            for (int j = c; j <= k; ++j) m[i][j] -= f * m[c][j];
        }
    }
    std::fill(p, p + kParams, 0.0);
    for (int i = 0; i < k; ++i) p[idx[i]] = m[i][k] / m[i][i];
    return true;
}

// Non-negative least squares of the parameters: the best feasible
// solution over every subset of them (the optimum lies on one).
void solve(const std::vector<Row>& rows, double* best) {
    double bestError = -1;
    std::fill(best, best + kParams, 0.0);
    for (int mask = 1; mask < (1 << kParams); ++mask) {
        bool use[kParams];
        for (int i = 0; i < kParams; ++i) use[i] = mask & (1 << i);
        double p[kParams];
        if (!solveSubset(rows, use, p) || *std::min_element(p, p + kParams) < 0) continue;
        const double error = sumSquaredRelative(rows, p);
        if (bestError < 0 || error < bestError) {
            bestError = error;
            std::copy(p, p + kParams, best);
        }
    }
}

// Every rank of `groups` groups of `n` ranks (ranks g*n .. g*n+n-1) runs the
// same collectives at the same time; each (op, size) starts after a world
// barrier so the groups overlap.
Tensor filled(std::vector<int64_t> shape);

std::vector<CollectiveSample> measureConfiguration(int n, int groups,
                                                   const CalibrationOptions& options,
                                                   int computing = 0) {
    const std::vector<CollectiveOp> ops{CollectiveOp::AllGather, CollectiveOp::Broadcast};
    const int world = n * groups;
    std::vector<std::vector<int>> groupRanks;
    for (int g = 0; g < groups; ++g) {
        std::vector<int> ranks;
        for (int i = 0; i < n; ++i) ranks.push_back(g * n + i);
        groupRanks.push_back(ranks);
    }
    auto repsFor = [&](int64_t size) {
        return size >= (int64_t(1) << 20) ? std::max(3, options.repetitions / 2)
                                          : options.repetitions;
    };
    // times[op][size][rep][rank] = {start, end} on the run's clock, microseconds
    std::vector<std::vector<std::vector<std::vector<std::pair<double, double>>>>> times(ops.size());
    for (auto& perOp : times) {
        perOp.resize(options.sizes.size());
        for (size_t s = 0; s < options.sizes.size(); ++s)
            perOp[s].assign(size_t(repsFor(options.sizes[s])),
                            std::vector<std::pair<double, double>>(size_t(world)));
    }
    WorldOptions wo;
    wo.worldSize = world;
    wo.timeout = std::chrono::milliseconds(60000);
    wo.worldGroup = true;  // only the barriers between measurements use it
    std::atomic<bool> stop{false};
    std::vector<std::thread> busy;
    const Tensor work = filled({128, 128});
    for (int i = 0; i < computing; ++i)
        busy.emplace_back([&] {
            while (!stop.load()) (void)newtonSchulz(work);
        });
    struct Join {
        std::atomic<bool>& stop;
        std::vector<std::thread>& threads;
        ~Join() {
            stop = true;
            for (auto& t : threads) t.join();
        }
    } join{stop, busy};
    const Tensor gap = filled({48, 48});
    runWorld(wo, groupRanks, [&](RankContext& ctx) {
        const int r = ctx.rank();
        Communicator& comm = ctx.group(groupRanks[size_t(r / n)]);
        CollectiveLabel label;
        label.phase = "calibrate";
        for (size_t o = 0; o < ops.size(); ++o)
            for (size_t s = 0; s < options.sizes.size(); ++s) {
                const int64_t size = options.sizes[s];
                const size_t block = size_t(std::max<int64_t>(1, size / n));
                std::vector<std::byte> in(block, std::byte{1}), out(block * size_t(n));
                ctx.world().barrier(label);
                const int reps = repsFor(size);
                for (int rep = -1; rep < reps; ++rep) {  // -1: warm-up
                    // As in a run, each rank computes between its
                    // collectives (packing, Newton-Schulz): a member comes
                    // to the next one from work, not from the last one.
                    (void)newtonSchulz(gap);
                    const double start = ctx.nowUs();
                    if (ops[o] == CollectiveOp::AllGather)
                        comm.allGather(in.data(), out.data(), block, label);
                    else
                        comm.broadcast(out.data(), block * size_t(n), 0, label);
                    const double end = ctx.nowUs();
                    if (rep >= 0) times[o][s][size_t(rep)][size_t(r)] = {start, end};
                }
            }
    });
    std::vector<CollectiveSample> out;
    for (size_t o = 0; o < ops.size(); ++o)
        for (size_t s = 0; s < options.sizes.size(); ++s) {
            std::vector<double> seconds;
            for (const auto& rep : times[o][s])
                for (int g = 0; g < groups; ++g) {
                    double lastStart = 0, lastEnd = 0;
                    for (int i = 0; i < n; ++i) {
                        lastStart = std::max(lastStart, rep[size_t(g * n + i)].first);
                        lastEnd = std::max(lastEnd, rep[size_t(g * n + i)].second);
                    }
                    seconds.push_back((lastEnd - lastStart) / 1e6);
                }
            const int64_t size = int64_t(std::max<int64_t>(1, options.sizes[s] / n)) * n;
            out.push_back({ops[o], n, groups, computing, size, medianOf(seconds), 0});
        }
    return out;
}

template <typename Fn>
double medianSeconds(int reps, Fn&& fn) {
    std::vector<double> seconds;
    fn();  // warm-up
    for (int i = 0; i < reps; ++i) {
        const auto start = Clock::now();
        fn();
        seconds.push_back(secondsSince(start));
    }
    return medianOf(seconds);
}

Tensor filled(std::vector<int64_t> shape) {
    Tensor t(std::move(shape));
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = float(int(i % 251) - 125) / 64;
    return t;
}

std::vector<ComputeSample> measureCompute(const CalibrationOptions& options) {
    std::vector<ComputeSample> out;
    for (const std::vector<int64_t>& shape :
         {std::vector<int64_t>{128, 128}, std::vector<int64_t>{256, 256},
          std::vector<int64_t>{512, 256}}) {
        const Tensor g = filled(shape);
        const double seconds = medianSeconds(5, [&] { (void)newtonSchulz(g); });
        out.push_back({"newton_schulz", std::to_string(shape[0]) + "x" + std::to_string(shape[1]),
                       newtonSchulzFlops(shape), seconds});
    }
    if (options.progress) options.progress("memory-bound kernels: pack, unpack, update");
    const int64_t numel = int64_t(1) << 22;
    const Tensor t = filled({numel});
    const DType dtype = DType::BF16;
    const int64_t width = dtypeSize(dtype);
    std::vector<std::byte> wire(size_t(numel * width));
    out.push_back({"pack", std::to_string(numel) + " bf16", double(numel * width),
                   medianSeconds(5, [&] { encodeTensor(t, dtype, wire.data()); })});
    out.push_back({"unpack", std::to_string(numel) + " bf16", double(numel * width),
                   medianSeconds(5, [&] { (void)decodeTensor(wire.data(), dtype, {numel}); })});
    Tensor param = t;
    const Tensor update = filled({numel});
    // The schedule's amount: the fp32 update read, the shard read and written.
    out.push_back({"update", std::to_string(numel) + " bf16", double(numel * (4 + 2 * width)),
                   medianSeconds(5, [&] { applyUpdate(param, update, 1e-3, dtype); })});
    return out;
}

// Newton–Schulz on `threads` threads at once: the median thread's seconds per
// call (1 thread: alone).
double computeSecondsWith(int threads) {
    const Tensor g = filled({256, 256});
    std::vector<double> seconds(static_cast<size_t>(threads), 0.0);
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
        pool.emplace_back([&, i] {
            const auto start = Clock::now();
            for (int k = 0; k < 3; ++k) (void)newtonSchulz(g);
            seconds[size_t(i)] = secondsSince(start) / 3;
        });
    for (auto& t : pool) t.join();
    return medianOf(seconds);
}

std::vector<double> loadAverage() {
    double load[3];
    if (getloadavg(load, 3) != 3) return {};
    return {load[0], load[1], load[2]};
}

std::string hostName() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "unknown";
    return name;
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
    return text;
}

double round4(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.4g", v);
    return std::strtod(text, nullptr);
}

std::string cpuModel() {
    FILE* f = std::fopen("/proc/cpuinfo", "r");
    if (!f) return "";
    char line[512];
    std::string model;
    while (std::fgets(line, sizeof line, f))
        if (std::string_view(line).starts_with("model name")) {
            model = line;
            model = model.substr(model.find(':') + 1);
            while (!model.empty() && (model.front() == ' ')) model.erase(0, 1);
            while (!model.empty() && (model.back() == '\n' || model.back() == ' '))
                model.pop_back();
            break;
        }
    std::fclose(f);
    return model;
}

}  // namespace

LinkSpec fitLink(std::vector<CollectiveSample>& samples, double cores, double memberLoad) {
    std::vector<Row> rows;
    for (const auto& s : samples) rows.push_back(rowOf(s, cores, memberLoad));
    double p[kParams];
    solve(rows, p);
    for (size_t i = 0; i < samples.size(); ++i) samples[i].predictedSeconds = predicted(rows[i], p);
    LinkSpec out;
    out.latencySeconds = p[0];
    out.latencyPerRankSeconds = p[1];
    out.bandwidthBytesPerSecond = p[2] > 0 ? 1 / p[2] : 1e15;
    out.idleWakeSeconds = p[3];
    out.efficiency = 1;
    return out;
}

namespace {

// The samples of `op`, fitted on `cores`; their squared relative errors summed.
double fitOp(std::vector<CollectiveSample>& all, CollectiveOp op, double cores, double load,
             LinkSpec& out) {
    std::vector<CollectiveSample> mine;
    for (const auto& s : all)
        if (s.op == op) mine.push_back(s);
    out = fitLink(mine, cores, load);
    double error = 0;
    size_t k = 0;
    for (auto& s : all)
        if (s.op == op) {
            s.predictedSeconds = mine[k++].predictedSeconds;
            const double e = (s.predictedSeconds - s.seconds) / s.seconds;
            error += e * e;
        }
    return error;
}

LinkSpec rounded(LinkSpec spec) {
    spec.bandwidthBytesPerSecond = round4(spec.bandwidthBytesPerSecond / 1e9) * 1e9;
    spec.latencySeconds = round4(spec.latencySeconds * 1e6) / 1e6;
    spec.latencyPerRankSeconds = round4(spec.latencyPerRankSeconds * 1e6) / 1e6;
    spec.idleWakeSeconds = round4(spec.idleWakeSeconds * 1e6) / 1e6;
    return spec;
}

}  // namespace

Calibration calibrate(const CalibrationOptions& options) {
    auto say = [&](const std::string& line) {
        if (options.progress) options.progress(line);
    };
    Calibration cal;
    cal.hardwareCores =
        options.cores > 0 ? options.cores : std::max(1u, std::thread::hardware_concurrency());
    cal.loadAverage = loadAverage();
    for (int n : options.groupSizes)
        for (int g : options.concurrentGroups) {
            if (n * g > options.maxRanks || n < 2) continue;
            say("all_gather and broadcast over " + std::to_string(g) + " group" +
                (g > 1 ? "s" : "") + " of " + std::to_string(n) + " ranks at once (" +
                std::to_string(n * g) + " rank threads)");
            for (auto& s : measureConfiguration(n, g, options)) cal.collectives.push_back(s);
        }
    for (int n : options.groupSizes)
        for (int computing : {2, 4}) {
            if (n + computing > options.maxRanks || n < 2) continue;
            say("all_gather and broadcast over 1 group of " + std::to_string(n) + " ranks while " +
                std::to_string(computing) + " threads compute");
            for (auto& s : measureConfiguration(n, 1, options, computing))
                cal.collectives.push_back(s);
        }
    say("Newton-Schulz (fp32) on one thread");
    cal.compute = measureCompute(options);
    const double nsAlone = computeSecondsWith(1);
    for (int threads : {2, 4, 8}) {
        say("Newton-Schulz on " + std::to_string(threads) + " threads at once");
        cal.computeSharing.push_back({threads, nsAlone / computeSecondsWith(threads)});
        if (options.progress) options.progress("fitting");
    }

    // Shared cores: what k threads of Newton-Schulz at once get, k x their
    // speed (the median over k = 2, 4, 8), at least one core; then the load
    // of a collective's member on those cores that fits the collectives best.
    std::vector<double> cores;
    for (const auto& [threads, speed] : cal.computeSharing) cores.push_back(threads * speed);
    cal.sharedCores = round4(std::clamp(medianOf(cores), 1.0, 2 * cal.hardwareCores));
    double bestError = -1;
    for (double load = 0.05; load <= 1 + 1e-9; load += 0.01) {
        std::vector<CollectiveSample> trial = cal.collectives;
        LinkSpec ring, broadcast;
        const double error =
            fitOp(trial, CollectiveOp::AllGather, cal.sharedCores, load, ring) +
            fitOp(trial, CollectiveOp::Broadcast, cal.sharedCores, load, broadcast);
        if (bestError < 0 || error < bestError) {
            bestError = error;
            cal.collectiveMemberLoad = round4(load);
        }
    }
    fitOp(cal.collectives, CollectiveOp::AllGather, cal.sharedCores, cal.collectiveMemberLoad,
          cal.ring);
    fitOp(cal.collectives, CollectiveOp::Broadcast, cal.sharedCores, cal.collectiveMemberLoad,
          cal.broadcast);
    cal.ring = rounded(cal.ring);
    cal.broadcast = rounded(cal.broadcast);
    std::vector<double> errors;
    for (const auto& s : cal.collectives)
        errors.push_back(relativeError(s.seconds, s.predictedSeconds));
    cal.fitMedianAbsRelError = medianOf(errors);
    cal.fitMaxAbsRelError = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());

    std::vector<double> memoryRates;
    double flops = 0;
    for (const auto& c : cal.compute) {
        if (c.kernel == "newton_schulz")
            flops = std::max(flops, c.rate());
        else
            memoryRates.push_back(c.rate());
    }
    cal.flopsPerSecond = flops;
    // One memory rate for the three kernels: their geometric mean, which
    // errs on each by the same factor either way.
    double logSum = 0;
    for (double r : memoryRates) logSum += std::log(r);
    cal.memoryBytesPerSecond =
        memoryRates.empty() ? 0 : std::exp(logSum / double(memoryRates.size()));

    Cluster& c = cal.cluster;
    c.name = options.name;
    std::string load;
    if (!cal.loadAverage.empty()) {
        char text[64];
        std::snprintf(text, sizeof text, "%.2f", cal.loadAverage[0]);
        load = text;
    }
    c.description = "This machine as hsdp-inspect calibrate measured it (" + today() + ", host " +
                    hostName() + ", " + std::to_string(int(cal.hardwareCores)) + " cores" +
                    (load.empty() ? "" : ", load average " + load) +
                    "): Gloo over loopback TCP between rank threads that share the cores, "
                    "fp32 Newton-Schulz and memory-bound kernels on one thread. "
                    "Regenerate: hsdp-inspect calibrate -o FILE.";
    c.nodes = 1;
    c.devicesPerNode = 1024;  // every rank of a run is a thread of this one host
    c.rankToNode = defaultRankToNode(c.nodes, c.devicesPerNode);
    c.algorithms = CollectiveAlgorithms::Gloo;
    c.sharedCores = cal.sharedCores;
    c.collectiveMemberLoad = cal.collectiveMemberLoad;
    c.intraNode = cal.ring;
    c.intraNodeByOp = {{"broadcast", cal.broadcast}};
    c.interNode = c.intraNode;  // one host: no slower level
    c.interNodeByOp = c.intraNodeByOp;
    const std::string model = cpuModel();
    c.device.name = model.empty() ? "host CPU" : model;
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    c.device.memoryBytes = pages > 0 && pageSize > 0 ? int64_t(pages) * pageSize : 1;
    const double tflops = round4(cal.flopsPerSecond / 1e12);
    c.device.peakFlops = {tflops * 1e12, tflops * 1e12, tflops * 1e12};  // NS runs in fp32
    c.device.memoryBandwidthBytesPerSecond = round4(cal.memoryBytesPerSecond / 1e9) * 1e9;
    c.device.efficiency = 1;

    Json record = Json::object();
    record["tool"] = "hsdp-inspect calibrate";
    record["date"] = today();
    record["host"] = hostName();
    record["hardware_cores"] = cal.hardwareCores;
    record["load_average"] = Json::array();
    for (double l : cal.loadAverage) record["load_average"].push_back(round4(l));
    record["fit_median_abs_rel_error"] = round4(cal.fitMedianAbsRelError);
    record["fit_max_abs_rel_error"] = round4(cal.fitMaxAbsRelError);
    record["collective_columns"] = Json::array(
        {"op", "group_size", "groups_at_once", "size_bytes", "measured_us", "fitted_us"});
    Json rows = Json::array();
    for (const auto& s : cal.collectives)
        rows.push_back(
            Json::array({std::string(traceNameOf(s.op)), s.groupSize, s.groups, s.computing,
                         s.sizeBytes, round4(s.seconds * 1e6), round4(s.predictedSeconds * 1e6)}));
    record["collectives"] = rows;
    Json compute = Json::array();
    for (const auto& k : cal.compute)
        compute.push_back(Json::array(
            {k.kernel, k.shape, round4(k.amount), round4(k.seconds * 1e6), round4(k.rate())}));
    record["compute_columns"] =
        Json::array({"kernel", "shape", "amount", "measured_us", "per_second"});
    record["compute"] = compute;
    Json sharing = Json::array();
    for (const auto& [threads, speed] : cal.computeSharing)
        sharing.push_back(Json::array({threads, round4(speed)}));
    record["newton_schulz_speed_per_thread_columns"] = Json::array({"threads_at_once", "speed"});
    record["newton_schulz_speed_per_thread"] = sharing;
    c.calibration = record.dump();
    return cal;
}

}  // namespace hsdp
