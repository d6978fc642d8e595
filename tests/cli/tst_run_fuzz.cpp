// SPDX-License-Identifier: Apache-2.0
// Property test of the execution engine over random small scenarios (fixed
// seed): corrected mode always verifies, reference mode fails on exactly the
// parameters docs/plan.md §6 flags, and the trace is consistent (every collective's
// seq shared by exactly its group, one event per counted collective).
// Scenarios are generated as hsdp-scenario/1 text and read back, so a failing
// case prints the JSON that `hsdp-inspect run` reproduces.
#include <QtTest>

#include <chrono>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "cost/gather_strategy_choice.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "runtime_test_util.h"
#include "scenario/reader.h"
#include "types/geometry.h"

using namespace hsdp;
using hsdp::testing::failedParams;

namespace {

const std::set<std::string> kHazardCodes = {"uneven-shard", "nested-shard-order",
                                            "strided-shard-chunk", "shard-rank-order"};
// HSDP_FUZZ_SEED / HSDP_FUZZ_CASES explore beyond the pinned set.
int caseCount() {
    return qEnvironmentVariableIsSet("HSDP_FUZZ_CASES")
               ? qEnvironmentVariableIntValue("HSDP_FUZZ_CASES")
               : 80;
}
unsigned seed() {
    return qEnvironmentVariableIsSet("HSDP_FUZZ_SEED")
               ? unsigned(qEnvironmentVariableIntValue("HSDP_FUZZ_SEED"))
               : 20261130u;
}

class Gen {
public:
    explicit Gen(unsigned seed) : rng_(seed) {}
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    template <typename T>
    const T& pick(const std::vector<T>& v) {
        return v[size_t(uniform(0, int(v.size()) - 1))];
    }
    std::mt19937& rng() { return rng_; }

private:
    std::mt19937 rng_;
};

std::string intList(const std::vector<int>& v) {
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    os << "]";
    return os.str();
}

std::string strList(const std::vector<std::string>& v) {
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << '"' << v[i] << '"';
    os << "]";
    return os.str();
}

struct MeshGen {
    std::string name;
    std::vector<int> shape;
    std::vector<std::string> dims;
    std::vector<int> ranks;
    bool hasTp() const { return std::find(dims.begin(), dims.end(), "tp") != dims.end(); }
};

// A random factorisation of `size` into `ndim` dims (1s allowed).
std::vector<int> factorShape(Gen& g, int size, int ndim) {
    std::vector<int> shape(size_t(ndim), 1);
    int rest = size;
    for (int d = 0; d < ndim - 1; ++d) {
        std::vector<int> divisors;
        for (int k = 1; k <= rest; ++k)
            if (rest % k == 0) divisors.push_back(k);
        shape[size_t(d)] = g.pick(divisors);
        rest /= shape[size_t(d)];
    }
    shape[size_t(ndim - 1)] = rest;
    std::shuffle(shape.begin(), shape.end(), g.rng());
    return shape;
}

MeshGen makeMesh(Gen& g, const std::string& name, int worldSize, bool first) {
    MeshGen m;
    m.name = name;
    const int ndim = g.uniform(1, first ? 3 : 2);
    const int size = g.uniform(1, worldSize);
    m.shape = factorShape(g, size, ndim);
    static const std::vector<std::string> kNames = {"dp_replicate", "dp_shard", "cp"};
    for (int d = 0; d < ndim; ++d) m.dims.push_back(kNames[size_t(d)]);
    if (ndim >= 2 && g.chance(0.5))
        m.dims[size_t(g.uniform(0, ndim - 1))] = "tp";
    else if (ndim == 1 && g.chance(0.2))
        m.dims[0] = "tp";
    std::vector<int> pool(static_cast<size_t>(worldSize));
    std::iota(pool.begin(), pool.end(), 0);
    if (g.chance(0.35)) std::shuffle(pool.begin(), pool.end(), g.rng());
    m.ranks.assign(pool.begin(), pool.begin() + size);
    return m;
}

std::string placement(Gen& g, int ndim) {
    const int r = g.uniform(0, 99);
    const int d = g.uniform(0, ndim - 1);
    if (r < 30) return "R";
    if (r < 70) return "S(" + std::to_string(d) + ")";
    if (r < 80) return "S(-" + std::to_string(ndim - d) + ")";
    if (r < 97) return "SS(" + std::to_string(d) + "," + std::to_string(g.uniform(2, 3)) + ")";
    return "P(sum)";  // the planner rejects it: listed as not run
}

std::string shapeJson(Gen& g, int ndim) {
    std::vector<int> shape;
    for (int d = 0; d < ndim; ++d) shape.push_back(g.uniform(1, 13));
    return intList(shape);
}

std::string paramJson(Gen& g, int i, const std::vector<MeshGen>& meshes) {
    static const std::vector<std::string> kDtypes = {"f32", "bf16", "f16", "f64"};
    const MeshGen& mesh = g.pick(meshes);
    const int ndim = g.uniform(1, 3);
    std::ostringstream os;
    os << R"({"name": "p)" << i << R"(", "shape": )" << shapeJson(g, ndim) << R"(, "dtype": ")"
       << g.pick(kDtypes) << R"(", "mesh": ")" << mesh.name << '"';
    if (!g.chance(0.1)) {
        std::vector<std::string> pl;
        const bool nested = g.chance(0.15);
        for (size_t m = 0; m < mesh.shape.size(); ++m)
            pl.push_back(nested ? "S(0)" : placement(g, ndim));
        os << ", \"placements\": " << strList(pl);
    }
    if (g.chance(0.1)) os << R"(, "requires_grad": false)";
    os << "}";
    return os.str();
}

std::string tpJson(Gen& g, int i, const MeshGen& mesh) {
    static const std::vector<std::string> kDtypes = {"f32", "bf16", "f16", "f64"};
    static const std::vector<std::string> kPl = {"R",      "S(0)",   "S(1)",  "P(sum)",
                                                 "P(max)", "P(min)", "P(avg)"};
    const std::string dtype = g.pick(kDtypes);
    const bool avgExact = dtype == "f32" || dtype == "f64";  // n copies summed stay exact
    auto one = [&] {
        std::string p;
        do p = g.pick(kPl);
        while (p == "P(avg)" && !avgExact);
        return p;
    };
    std::vector<std::string> src, dst;
    for (size_t m = 0; m < mesh.shape.size(); ++m) {
        src.push_back(one());
        dst.push_back(one());
    }
    std::ostringstream os;
    os << R"({"name": "t)" << i << R"(", "mesh": ")" << mesh.name << R"(", "shape": )"
       << shapeJson(g, g.uniform(2, 3)) << R"(, "dtype": ")" << dtype << R"(", "src": )"
       << strList(src) << R"(, "dst": )" << strList(dst) << "}";
    return os.str();
}

std::string meshJson(const MeshGen& m) {
    return R"({"shape": )" + intList(m.shape) + R"(, "dim_names": )" + strList(m.dims) +
           R"(, "ranks": )" + intList(m.ranks) + "}";
}

std::string optionsJson(Gen& g) {
    std::vector<std::string> o;
    o.push_back("\"alignment_bytes\": " +
                std::to_string(g.pick(std::vector<int>{3, 4, 10, 64, 512})));
    if (g.chance(0.4)) o.push_back("\"max_batch_numel\": " + std::to_string(g.uniform(5, 150)));
    const int rc = g.uniform(0, 9);
    if (rc < 2)
        o.push_back("\"hsdp_replica_count\": " + std::to_string(g.uniform(1, 3)));
    else if (rc < 4)
        o.push_back("\"auto_replica_count\": true, \"devices_per_node\": " +
                    std::to_string(g.uniform(1, 3)));
    // Caps stay >= 64: the fused stream is cut into cap-byte broadcasts, so a
    // 1-byte cap makes one collective per byte (correct, but slow enough that
    // peers waiting at their next collective hit the timeout).
    if (g.chance(0.5))
        o.push_back("\"broadcast_max_bytes\": " +
                    std::to_string(g.pick(std::vector<int>{64, 100, 256})));
    if (g.chance(0.5)) o.push_back(R"("backend": "nccl")");
    // Both gather strategies, and auto choosing between them group by group.
    if (g.chance(0.6))
        o.push_back("\"gather_strategy\": \"" +
                    g.pick(std::vector<std::string>{"all-to-all", "all-to-all", "auto"}) + "\"");
    std::string out = "{";
    for (size_t i = 0; i < o.size(); ++i) out += (i ? ", " : "") + o[i];
    return out + "}";
}

std::string scenarioJson(Gen& g, int index) {
    const int meshRanks = g.uniform(1, 8);
    const int world = meshRanks + (g.chance(0.25) ? g.uniform(1, 2) : 0);
    std::vector<MeshGen> meshes{makeMesh(g, "a", world, true)};
    if (g.chance(0.3)) meshes.push_back(makeMesh(g, "b", world, false));
    std::ostringstream os;
    os << R"({"format": "hsdp-scenario/1", "name": "fuzz)" << index << R"(", "world_size": )"
       << world << R"(, "meshes": {)";
    for (size_t m = 0; m < meshes.size(); ++m)
        os << (m ? ", " : "") << '"' << meshes[m].name << "\": " << meshJson(meshes[m]);
    os << "}, \"options\": " << optionsJson(g) << ", \"params\": [";
    const int nParams = g.uniform(1, 6);
    for (int i = 0; i < nParams; ++i) os << (i ? ",\n  " : "\n  ") << paramJson(g, i, meshes);
    os << "]";
    std::vector<const MeshGen*> tpMeshes;
    for (const auto& m : meshes)
        if (m.hasTp()) tpMeshes.push_back(&m);
    if (!tpMeshes.empty()) {
        os << ", \"tp_transitions\": [";
        const int nTp = g.uniform(1, 3);
        for (int i = 0; i < nTp; ++i)
            os << (i ? ",\n  " : "\n  ") << tpJson(g, i, *g.pick(tpMeshes));
        os << "]";
    }
    os << "}";
    return os.str();
}

const Batch* batchOf(const Plan& plan, int p) {
    for (const auto& g : plan.groups)
        for (const auto& b : g.batches)
            if (std::find(b.params.begin(), b.params.end(), p) != b.params.end()) return &b;
    return nullptr;
}

// The indices of `set` in local order as maximal runs (empty pieces dropped).
IndexSet coveredRuns(const IndexSet& set) {
    IndexSet out;
    for (const auto& r : set) {
        if (r.size() == 0) continue;
        if (!out.empty() && out.back().end == r.begin)
            out.back().end = r.end;
        else
            out.push_back(r);
    }
    return out;
}

// A strided shard whose pieces equal the plain torch.chunk shards on every
// coordinate (e.g. SS(2,2) of a length-2 dim over 2 ranks: chunks 2 and 3
// are empty). docs/plan.md §6 flags strided-shard-chunk structurally, but the
// reference's slice that ignores the split factor is then right.
bool stridedIsPlain(const Scenario& s, int p) {
    const ParamSpec& spec = s.params[size_t(p)];
    const Mesh& mesh = s.mesh(spec.mesh);
    std::vector<Placement> plain = *spec.placements;
    for (auto& pl : plain)
        if (pl.kind == Placement::Kind::StridedShard) pl = Placement::shard(pl.dim);
    for (const auto& coord : allCoordinates(mesh.shape)) {
        const auto a = shardLayout(spec.shape, *spec.placements, mesh.shape, coord);
        const auto b = shardLayout(spec.shape, plain, mesh.shape, coord);
        for (size_t d = 0; d < a.dims.size(); ++d) {
            const IndexSet x = coveredRuns(a.dims[d]), y = coveredRuns(b.dims[d]);
            if (x != y) return false;
        }
    }
    return true;
}

// The params the reference must get wrong: flagged by a hazard code and
// owned (a frozen param has no owner, so it never enters the hazardous
// gather and keeps its bytes although its group is gathered), except a
// strided shard that is only flagged as such and lays out like a plain one.
std::set<int> hazardParams(const Scenario& s, const Plan& plan) {
    std::map<int, std::set<std::string>> codes;
    for (const auto& d : plan.diagnostics)
        if (kHazardCodes.count(d.code))
            for (int p : d.params) codes[p].insert(d.code);
    std::set<int> out;
    for (const auto& [p, c] : codes) {
        const Batch* b = batchOf(plan, p);
        if (!b || !b->owner.count(p)) continue;
        if (c == std::set<std::string>{"strided-shard-chunk"} && stridedIsPlain(s, p)) continue;
        out.insert(p);
    }
    return out;
}

std::string describe(const RunResult& r) {
    std::ostringstream os;
    for (const auto& p : r.params)
        os << "  param " << p.index << " " << p.name << ": gather " << gatherVerdictName(p.gather)
           << " step " << checkVerdictName(p.step) << " replicas " << replicaVerdictName(p.replicas)
           << " " << p.detail << "\n";
    for (const auto& t : r.tpTransitions)
        os << "  tp " << t.index << " " << t.name << " [" << t.path
           << "]: " << checkVerdictName(t.result) << " " << t.detail << "\n";
    if (!r.error.empty()) os << "  error: " << r.error << "\n";
    return os.str();
}

// The trace's collective events (not the compute spans between them).
std::vector<TraceEvent> collectiveEvents(const Trace& trace) {
    std::vector<TraceEvent> out;
    for (const auto& e : trace.events)
        if (!isCompute(e)) out.push_back(e);
    return out;
}

// Every seq is shared by exactly the members of its group, each once, all
// agreeing on the group and the op; a compute span is its rank's alone.
std::string traceProblem(const RunResult& r) {
    for (const auto& e : r.trace.events)
        if (isCompute(e) &&
            (e.groupRanks != std::vector<int>{e.rank} || e.bytes != 0 || e.seq >= 0))
            return "compute span " + e.op + " of rank " + std::to_string(e.rank) +
                   " is not its own";
    const std::vector<TraceEvent> events = collectiveEvents(r.trace);
    if (int64_t(events.size()) != r.rankEvents)
        return "collectives: per-rank events " + std::to_string(r.rankEvents) +
               " != trace events " + std::to_string(events.size());
    int64_t bytes = 0;
    for (const auto& e : events) bytes += e.bytes;
    if (bytes != r.bytes)
        return "bytes " + std::to_string(r.bytes) + " != sum over events " + std::to_string(bytes);
    std::map<int64_t, std::vector<const TraceEvent*>> bySeq;
    for (const auto& e : events) bySeq[e.seq].push_back(&e);
    if (int64_t(bySeq.size()) != r.collectives)  // each collective once, across its group
        return "collectives " + std::to_string(r.collectives) + " != distinct seqs " +
               std::to_string(bySeq.size());
    for (const auto& [seq, events] : bySeq) {
        const auto& first = *events.front();
        std::multiset<int> ranks;
        for (const auto* e : events) {
            ranks.insert(e->rank);
            if (e->groupRanks != first.groupRanks || e->op != first.op)
                return "seq " + std::to_string(seq) + ": ranks disagree on the group or op";
        }
        const std::multiset<int> group(first.groupRanks.begin(), first.groupRanks.end());
        if (ranks != group)
            return "seq " + std::to_string(seq) + " (" + first.op + ") seen by " +
                   intList(std::vector<int>(ranks.begin(), ranks.end())) + " but group is " +
                   intList(first.groupRanks);
        if (first.endUs < first.startUs) return "seq " + std::to_string(seq) + ": end before start";
    }
    return {};
}

// Reference mode fails on every hazard param and otherwise only where the
// reference raises for a whole fused batch: a hazard param's unequal packed
// size fails the batch's one all-gather (docs/run.md §3 "the error the reference
// would raise"), so its batch-mates end in "error" too.
std::string referenceProblem(const Scenario& s, const Plan& plan, const RunResult& ref) {
    const std::set<int> hazards = hazardParams(s, plan), failed = failedParams(ref);
    std::string out;
    for (int p : hazards)
        if (!failed.count(p))
            out += "hazard param " + std::to_string(p) + " verified in reference mode; ";
    for (const auto& r : ref.params) {
        if (!failed.count(r.index) || hazards.count(r.index)) continue;
        const Batch* b = batchOf(plan, r.index);
        const bool raised = r.gather == GatherVerdict::Error &&
                            r.detail.find("unequal packed sizes") != std::string::npos;
        const bool mate = b && std::any_of(b->params.begin(), b->params.end(),
                                           [&](int q) { return hazards.count(q); });
        if (!raised || !mate)
            out += "unflagged param " + std::to_string(r.index) + " failed in reference mode; ";
    }
    return out;
}

RunResult run(const Scenario& s, const Plan& plan, RunMode mode) {
    RunOptions options;
    options.mode = mode;
    options.timeout = std::chrono::milliseconds(20000);  // a hang fails fast
    return runPlan(s, plan, options);
}

}  // namespace

class TestRunFuzz : public QObject {
    Q_OBJECT
private:
    // The plan as every command makes it: gather_strategy auto settled on loopback.
    static Plan planned(const Scenario& s) {
        Plan plan = makePlan(s);
        chooseGatherStrategies(s, plan, defaultStrategyCluster(), "loopback");
        return plan;
    }

private slots:
    void randomScenarios_data() {
        QTest::addColumn<QString>("json");
        Gen g(seed());
        for (int i = 0, n = caseCount(); i < n; ++i)
            QTest::newRow(qPrintable(QString("case%1").arg(i)))
                << QString::fromStdString(scenarioJson(g, i));
    }

    void randomScenarios() {
        QFETCH(QString, json);
        const std::string text = json.toStdString();
        const Scenario s = readScenario(text);
        const Plan plan = planned(s);
        std::string problems;

        const RunResult good = run(s, plan, RunMode::Corrected);
        // A plan with error diagnostics (a rejected param) is never verified.
        if (good.verified == plan.hasErrors() || !good.error.empty() || !failedParams(good).empty())
            problems += "corrected mode did not verify:\n" + describe(good);
        for (const auto& t : good.tpTransitions)
            if (t.result != CheckVerdict::Exact)
                problems += "corrected TP transition " + t.name + " not exact\n";
        if (const auto p = traceProblem(good); !p.empty())
            problems += "corrected trace: " + p + "\n";

        const RunResult ref = run(s, plan, RunMode::Reference);
        if (!ref.error.empty()) problems += "reference run failed: " + ref.error + "\n";
        if (const auto bad = referenceProblem(s, plan, ref); !bad.empty())
            problems += bad + ":\n" + describe(ref);
        if (const auto p = traceProblem(ref); !p.empty())
            problems += "reference trace: " + p + "\n";

        if (!problems.empty()) qWarning("scenario:\n%s\n%s", text.c_str(), problems.c_str());
        QVERIFY2(problems.empty(), "see the scenario above (hsdp-inspect run it)");
    }

    // A rank failing at a random collective of a random scenario stops the
    // run quickly with an error naming it: never a hang, never a crash.
    void randomFaults_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<int>("pick");
        Gen g(seed() + 1);
        for (int i = 0; i < 28; ++i) {  // about half have collectives
            const std::string text = scenarioJson(g, 1000 + i);
            QTest::newRow(qPrintable(QString("fault%1").arg(i)))
                << QString::fromStdString(text) << g.uniform(0, 1 << 20);
        }
    }

    void randomFaults() {
        QFETCH(QString, json);
        QFETCH(int, pick);
        const Scenario s = readScenario(json.toStdString());
        const Plan plan = planned(s);
        const RunResult clean = run(s, plan, RunMode::Corrected);
        const std::vector<TraceEvent> collectives = collectiveEvents(clean.trace);
        if (collectives.empty()) QSKIP("no collectives to fail");
        const TraceEvent& victim = collectives[size_t(pick) % collectives.size()];
        int64_t k = 0;  // the victim's position among its rank's collectives
        for (const auto& e : collectives) k += e.rank == victim.rank && e.startUs <= victim.startUs;
        RunOptions options;
        options.timeout = std::chrono::milliseconds(20000);
        options.fault = FaultSpec{victim.rank, k};
        const auto started = std::chrono::steady_clock::now();
        const RunResult r = runPlan(s, plan, options);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const std::string where = "fault " + std::to_string(victim.rank) + ":" + std::to_string(k) +
                                  " in\n" + json.toStdString() + "\n" + describe(r);
        QVERIFY2(!r.verified && !r.error.empty(), where.c_str());
        QVERIFY2(r.errorRank == victim.rank, where.c_str());
        QVERIFY2(secs < 10, where.c_str());
        QVERIFY2(traceProblem(r).find("collectives") == std::string::npos, where.c_str());
    }
};

QTEST_APPLESS_MAIN(TestRunFuzz)
#include "tst_run_fuzz.moc"
