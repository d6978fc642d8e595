// SPDX-License-Identifier: Apache-2.0
#include "calibrate/job_calibration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "accuracy/run_prediction.h"
#include "cost/plan_cost.h"

namespace hsdp {

std::optional<CollectiveOp> recordedOp(std::string_view operation) {
    while (!operation.empty() && operation.front() == '_') operation.remove_prefix(1);
    static const std::map<std::string_view, CollectiveOp, std::less<>> ops = {
        {"all_gather_base", CollectiveOp::AllGather},
        {"allgather_base", CollectiveOp::AllGather},
        {"all_gather", CollectiveOp::AllGather},
        {"allgather", CollectiveOp::AllGather},
        {"all_gather_into_tensor", CollectiveOp::AllGather},
        {"reduce_scatter_base", CollectiveOp::ReduceScatter},
        {"reduce_scatter", CollectiveOp::ReduceScatter},
        {"reduce_scatter_tensor", CollectiveOp::ReduceScatter},
        {"all_reduce", CollectiveOp::AllReduce},
        {"allreduce", CollectiveOp::AllReduce},
        {"broadcast", CollectiveOp::Broadcast},
        {"all_to_all", CollectiveOp::AllToAll},
        {"alltoall", CollectiveOp::AllToAll},
        {"alltoall_base", CollectiveOp::AllToAll},
        {"all_to_all_single", CollectiveOp::AllToAll},
    };
    auto it = ops.find(operation);
    return it == ops.end() ? std::nullopt : std::optional(it->second);
}

namespace {

// Bytes per element of PyTorch's dtype names (c10::toString); 0 unknown.
int64_t torchElementBytes(std::string_view dtype) {
    static const std::map<std::string_view, int64_t, std::less<>> sizes = {
        {"Float", 4}, {"BFloat16", 2}, {"Half", 2}, {"Double", 8}, {"Byte", 1},         {"Char", 1},
        {"Bool", 1},  {"Short", 2},    {"Int", 4},  {"Long", 8},   {"Float8_e4m3fn", 1}};
    auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

int64_t tensorsBytes(const std::vector<std::vector<int64_t>>& sizes,
                     const std::vector<std::string>& dtypes) {
    int64_t total = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
        int64_t n = 1;
        for (int64_t d : sizes[i]) n *= d;
        total += n * torchElementBytes(i < dtypes.size() ? dtypes[i] : std::string());
    }
    return total;
}

// The collective's size as NCCL-tests counts it, from one member's buffers.
int64_t ncclTestsSize(CollectiveOp op, int64_t inputBytes, int64_t outputBytes) {
    return op == CollectiveOp::AllGather ? outputBytes : inputBytes;
}

std::vector<int> asInts(const std::vector<int64_t>& ranks) {
    return {ranks.begin(), ranks.end()};
}

// One timed collective seen by every member, before pricing.
struct Timed {
    CollectiveOp op;
    std::vector<int> ranks;
    int64_t sizeBytes;
    double seconds;
};

struct Tally {
    size_t collectives = 0, untimed = 0, unpriced = 0;
    std::vector<Timed> timed;
};

// The Flight Recorder's collectives: per process group and sequence id, every
// member's entry completed with a duration.
void fromDumps(const JobRecord& job, Tally& tally) {
    for (const ProcessGroupRecord& group : processGroupRecords(job)) {
        std::map<int64_t, std::vector<const FlightRecorderEntry*>> bySeq;
        for (const auto& [rank, entries] : group.entriesByRank)
            for (const FlightRecorderEntry* e : entries)
                if (!e->isP2P) bySeq[e->collectiveSeqId].push_back(e);
        for (const auto& [seq, members] : bySeq) {
            if (members.size() != group.ranks.size()) continue;  // not every member recorded it
            ++tally.collectives;
            const auto op = recordedOp(members.front()->operation());
            if (!op) {
                ++tally.unpriced;
                continue;
            }
            double seconds = -1;
            for (const FlightRecorderEntry* e : members) {
                if (!e->durationMs || e->state != CollectiveState::Completed) {
                    seconds = -1;
                    break;
                }
                const double s = *e->durationMs / 1000;
                seconds = seconds < 0 ? s : std::min(seconds, s);
            }
            if (!(seconds > 0)) {
                ++tally.untimed;
                continue;
            }
            const FlightRecorderEntry& e = *members.front();
            const int64_t size = ncclTestsSize(*op, tensorsBytes(e.inputSizes, e.inputDtypes),
                                               tensorsBytes(e.outputSizes, e.outputDtypes));
            tally.timed.push_back({*op, asInts(group.ranks), size, seconds});
        }
    }
}

// The Kineto traces' collectives that name their group's ranks and sequence
// id: per (ranks, seq), every member's event. A rank checked on its trace
// (JobRecord::ranksFromTrace) was counted with the dumps.
void fromTraces(const JobRecord& job, Tally& tally) {
    std::map<std::pair<std::vector<int64_t>, int64_t>, std::vector<const KinetoCollective*>> byKey;
    for (const auto& [rank, trace] : job.traces) {
        if (std::find(job.ranksFromTrace.begin(), job.ranksFromTrace.end(), rank) !=
            job.ranksFromTrace.end())
            continue;
        for (const KinetoCollective& c : trace.collectives)
            if (!c.pgRanks.empty() && c.seq) byKey[{c.pgRanks, *c.seq}].push_back(&c);
    }
    for (const auto& [key, members] : byKey) {
        if (members.size() != key.first.size()) continue;
        ++tally.collectives;
        const KinetoCollective& c = *members.front();
        const auto op = recordedOp(c.collectiveName);
        if (!op) {
            ++tally.unpriced;
            continue;
        }
        double seconds = -1;
        for (const KinetoCollective* m : members)
            seconds = seconds < 0 ? m->durUs / 1e6 : std::min(seconds, m->durUs / 1e6);
        if (!(seconds > 0)) {
            ++tally.untimed;
            continue;
        }
        const int64_t element = torchElementBytes(c.dtype);
        tally.timed.push_back({*op, asInts(key.first),
                               ncclTestsSize(*op, c.inNelems * element, c.outNelems * element),
                               seconds});
    }
}

// seconds ≈ a x steps + b x bytes, relative errors: the least squares with a,
// b >= 0 (both, or the better of one alone).
struct Row {
    double steps, bytes, seconds;
};

double squaredError(const std::vector<Row>& rows, double a, double b) {
    double sum = 0;
    for (const Row& r : rows) {
        const double e = (a * r.steps + b * r.bytes - r.seconds) / r.seconds;
        sum += e * e;
    }
    return sum;
}

std::pair<double, double> fitRows(const std::vector<Row>& rows) {
    double ss = 0, sb = 0, bb = 0, st = 0, bt = 0;
    for (const Row& r : rows) {
        const double w = 1 / (r.seconds * r.seconds);
        ss += w * r.steps * r.steps;
        sb += w * r.steps * r.bytes;
        bb += w * r.bytes * r.bytes;
        st += w * r.steps * r.seconds;
        bt += w * r.bytes * r.seconds;
    }
    std::vector<std::pair<double, double>> candidates;
    const double det = ss * bb - sb * sb;
    if (std::abs(det) > 1e-300 * std::max(1.0, ss * bb))
        candidates.push_back({(st * bb - bt * sb) / det, (ss * bt - sb * st) / det});
    if (ss > 0) candidates.push_back({st / ss, 0});
    if (bb > 0) candidates.push_back({0, bt / bb});
    std::pair<double, double> best{0, 0};
    double bestError = -1;
    for (const auto& [a, b] : candidates) {
        if (a < 0 || b < 0) continue;
        const double e = squaredError(rows, a, b);
        if (bestError < 0 || e < bestError) bestError = e, best = {a, b};
    }
    return best;
}

double medianRelativeError(const std::vector<JobCollectiveSample>& samples, LinkLevel* level,
                           bool after) {
    std::vector<double> errors;
    for (const auto& s : samples)
        if (!level || s.level == *level)
            errors.push_back(
                relativeError(s.seconds, after ? s.predictedAfter : s.predictedBefore));
    return medianOf(std::move(errors));
}

// The figures `op` is priced with on `level`: its by_op entry's name, or ""
// for the level's own.
std::string figuresKey(const Cluster& cluster, LinkLevel level, CollectiveOp op) {
    const auto& byOp =
        level == LinkLevel::IntraNode ? cluster.intraNodeByOp : cluster.interNodeByOp;
    const std::string name(traceNameOf(op));
    return byOp.count(name) ? name : std::string();
}

// Fits the figures of `level` that `key` names (figuresKey) into `fitted`;
// false when their samples are fewer than two sizes, which cannot tell
// latency from bandwidth apart.
bool fitFigures(LinkLevel level, const std::string& key,
                const std::vector<JobCollectiveSample>& samples, const Cluster& base,
                Cluster& fitted) {
    std::vector<Row> rows;
    std::vector<int64_t> sizes;
    for (const auto& s : samples) {
        if (s.level != level || figuresKey(base, level, s.op) != key) continue;
        const CollectiveCost cost = collectiveCost(s.op, s.sizeBytes, s.ranks, base);
        rows.push_back({double(cost.steps), cost.busBytes / std::max(1, cost.rails), s.seconds});
        sizes.push_back(s.sizeBytes);
    }
    if (rows.size() < 2 || *std::min_element(sizes.begin(), sizes.end()) ==
                               *std::max_element(sizes.begin(), sizes.end()))
        return false;
    const auto [latency, secondsPerByte] = fitRows(rows);
    LinkSpec spec;
    spec.latencySeconds = latency;
    spec.bandwidthBytesPerSecond = secondsPerByte > 0 ? 1 / secondsPerByte : 1e15;
    spec.efficiency = 1;
    auto& byOp = level == LinkLevel::IntraNode ? fitted.intraNodeByOp : fitted.interNodeByOp;
    (key.empty() ? (level == LinkLevel::IntraNode ? fitted.intraNode : fitted.interNode)
                 : byOp.at(key)) = spec;
    return true;
}

// A level's figures fitted, each op that has figures of its own (by_op)
// apart from the others: the model's own structure.
LevelFit fitLevel(LinkLevel level, const std::vector<JobCollectiveSample>& samples,
                  const Cluster& base, Cluster& fitted) {
    LevelFit fit{level, 0, false, base.link(level), base.link(level), 0, 0};
    std::set<std::string> keys;
    for (const auto& s : samples)
        if (s.level == level) {
            ++fit.samples;
            keys.insert(figuresKey(base, level, s.op));
        }
    for (const std::string& key : keys)
        if (fitFigures(level, key, samples, base, fitted)) fit.fitted = true;
    fit.after = fitted.link(level);
    return fit;
}

}  // namespace

TimedCollectives timedCollectives(const JobRecord& job, const Cluster& cluster) {
    Tally tally;
    fromDumps(job, tally);
    fromTraces(job, tally);
    TimedCollectives out;
    out.collectives = tally.collectives;
    out.untimed = tally.untimed;
    out.unpriced = tally.unpriced;
    out.cluster = clusterForWorld(cluster, int(std::max<int64_t>(job.worldSize, 1)));
    for (const Timed& t : tally.timed) {
        JobCollectiveSample s{t.op, t.ranks, t.sizeBytes, t.seconds};
        s.level = out.cluster.linkLevelOf(s.ranks);
        s.predictedBefore = collectiveSeconds(s.op, s.sizeBytes, s.ranks, out.cluster);
        out.samples.push_back(std::move(s));
    }
    return out;
}

JobCalibration calibrateFromJob(const JobRecord& job, const Cluster& base) {
    TimedCollectives timed = timedCollectives(job, base);
    JobCalibration out;
    out.collectives = timed.collectives;
    out.untimed = timed.untimed;
    out.unpriced = timed.unpriced;
    if (timed.samples.empty())
        throw std::invalid_argument(
            "the record has no timed collective to fit: of " + std::to_string(timed.collectives) +
            " collectives, " + std::to_string(timed.untimed) +
            " lack a completed duration on some member (Flight Recorder records durations "
            "only with TORCH_NCCL_ENABLE_TIMING=1) and " +
            std::to_string(timed.unpriced) + " are ops the model does not price");
    const Cluster grown = timed.cluster;
    out.samples = std::move(timed.samples);
    out.cluster = grown;
    for (LinkLevel level : {LinkLevel::IntraNode, LinkLevel::InterNode}) {
        LevelFit fit = fitLevel(level, out.samples, grown, out.cluster);
        if (fit.samples > 0) out.levels.push_back(fit);
    }
    for (auto& s : out.samples)
        s.predictedAfter = collectiveSeconds(s.op, s.sizeBytes, s.ranks, out.cluster);
    for (LevelFit& fit : out.levels) {
        fit.medianErrorBefore = medianRelativeError(out.samples, &fit.level, false);
        fit.medianErrorAfter = medianRelativeError(out.samples, &fit.level, true);
    }
    out.medianErrorBefore = medianRelativeError(out.samples, nullptr, false);
    out.medianErrorAfter = medianRelativeError(out.samples, nullptr, true);
    return out;
}

}  // namespace hsdp
