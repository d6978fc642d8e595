// SPDX-License-Identifier: Apache-2.0
// Differential test: the C++ planner against an independent Python port of the
// reference (tests/seed_port/hsdp_seed_plan.py) on ~300 random small scenarios and
// on the kept regression scenarios of tests/data/differential/. Both sides read
// the same file; the pinned fields of docs/plan.md §7 must agree exactly.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include <nlohmann/json.hpp>

#include "export/plan_json.h"
#include "plan/planner.h"
#include "scenario/reader.h"

namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

const char* const kPython = "/usr/bin/python3";
constexpr int kRandomScenarios = 300;
constexpr unsigned kSeed = 20261130;

QString portScript() {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/seed_port/hsdp_seed_plan.py");
}
QString regressionDir() {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/data/differential");
}

// ---- random scenarios ------------------------------------------------------

class Generator {
public:
    explicit Generator(unsigned seed) : rng_(seed) {}

    OJson scenario(int id);

private:
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    template <typename T>
    const T& pick(const std::vector<T>& v) {
        return v[static_cast<size_t>(uniform(0, static_cast<int>(v.size()) - 1))];
    }

    OJson mesh(bool withTp);
    std::string placement(int ndim, bool allowBad);
    OJson params(const std::vector<std::string>& meshNames, const std::vector<int>& meshNdims,
                 bool singleMesh);
    OJson options();
    OJson transitions(const OJson& meshes, const std::vector<std::string>& meshNames);

    std::mt19937 rng_;
};

OJson Generator::mesh(bool withTp) {
    int ndim = uniform(1, 3);
    std::vector<int> shape;
    int size = 1;
    for (int d = 0; d < ndim; ++d) {
        int s = uniform(1, 4);
        if (size * s > 32) s = 1;
        shape.push_back(s);
        size *= s;
    }
    OJson m = {{"shape", shape}};
    if (withTp || chance(0.4)) {
        std::vector<std::string> pool = {"dp", "fsdp", "ep", "cp"};
        std::shuffle(pool.begin(), pool.end(), rng_);
        std::vector<std::string> names(pool.begin(), pool.begin() + ndim);
        if (withTp) names[static_cast<size_t>(uniform(0, ndim - 1))] = "tp";
        m["dim_names"] = names;
    }
    if (chance(0.45)) {
        // Custom rank order: a permutation of a window with an offset and maybe gaps.
        int span = size + (chance(0.3) ? uniform(0, 3) : 0);
        int base = chance(0.3) ? uniform(0, 3) : 0;
        std::vector<int> pool(static_cast<size_t>(span));
        std::iota(pool.begin(), pool.end(), base);
        std::shuffle(pool.begin(), pool.end(), rng_);
        pool.resize(static_cast<size_t>(size));
        if (chance(0.4)) std::sort(pool.begin(), pool.end());
        m["ranks"] = pool;
    }
    return m;
}

std::string Generator::placement(int ndim, bool allowBad) {
    int r = uniform(0, 99);
    auto dim = [&] {
        if (ndim == 0) return chance(0.5) ? 0 : -1;  // a scalar has no dim to shard
        if (allowBad && chance(0.04)) return chance(0.5) ? ndim : -ndim - 1;  // out of range
        return uniform(-ndim, ndim - 1);
    };
    if (r < 33) return "R";
    if (r < 63) return "S(" + std::to_string(std::max(0, dim())) + ")";
    if (r < 73) return "S(-1)";
    if (r < 80) return "S(" + std::to_string(dim()) + ")";
    if (r < 92) return "SS(" + std::to_string(dim()) + "," + std::to_string(uniform(2, 3)) + ")";
    if (!allowBad) return "R";
    return chance(0.6) ? "P" : "P(avg)";
}

OJson Generator::params(const std::vector<std::string>& meshNames,
                        const std::vector<int>& meshNdims, bool singleMesh) {
    OJson list = OJson::array();
    int n = uniform(0, 12);
    // A few shapes reused so params share groups and tie on numel.
    std::vector<std::vector<int>> shapes;
    for (int k = 0; k < 4; ++k) {
        std::vector<int> shape;
        for (int d = chance(0.08) ? 0 : uniform(1, 4); d > 0; --d)  // 0: a scalar, shape []
            shape.push_back(chance(0.15) ? 1 : uniform(1, 9));
        shapes.push_back(shape);
    }
    // Per mesh, a few placement lists reused so params share groups and batches split.
    std::vector<std::vector<OJson>> lists(meshNames.size());
    for (size_t m = 0; m < meshNames.size(); ++m)
        for (int k = 0; k < 3; ++k) {
            OJson placements = OJson::array();
            for (int d = 0; d < meshNdims[m]; ++d) placements.push_back(placement(2, false));
            lists[m].push_back(placements);
        }
    for (int i = 0; i < n; ++i) {
        auto shape = chance(0.6) ? pick(shapes) : std::vector<int>{uniform(1, 12), uniform(1, 12)};
        int ndim = static_cast<int>(shape.size());
        OJson p = {{"name", "p" + std::to_string(i)}, {"shape", shape}, {"dtype", "f32"}};
        size_t m = static_cast<size_t>(uniform(0, static_cast<int>(meshNames.size()) - 1));
        if (!singleMesh || chance(0.5)) p["mesh"] = meshNames[m];
        if (chance(0.1)) {
            if (chance(0.5)) p["placements"] = nullptr;
        } else {
            OJson placements = OJson::array();
            for (int d = 0; d < meshNdims[m]; ++d) placements.push_back(placement(ndim, true));
            p["placements"] = chance(0.5) ? pick(lists[m]) : placements;
        }
        if (chance(0.15)) p["requires_grad"] = false;
        list.push_back(p);
    }
    return list;
}

OJson Generator::options() {
    OJson o = OJson::object();
    if (chance(0.6)) o["max_batch_numel"] = chance(0.2) ? OJson(nullptr) : OJson(uniform(1, 300));
    if (chance(0.4)) o["hsdp_replica_count"] = chance(0.2) ? OJson(nullptr) : OJson(uniform(1, 4));
    if (chance(0.5)) o["auto_replica_count"] = chance(0.8);
    if (chance(0.6)) o["devices_per_node"] = uniform(2, 4);
    if (chance(0.5)) o["backend"] = pick(std::vector<std::string>{"gloo", "nccl", "hccl"});
    return o;
}

OJson Generator::transitions(const OJson& meshes, const std::vector<std::string>& meshNames) {
    OJson list = OJson::array();
    int n = uniform(0, 3);
    const std::vector<std::string> kinds = {"R",       "S(0)", "S(1)",   "S(-1)",
                                            "SS(0,2)", "P",    "P(sum)", "P(avg)"};
    for (int i = 0; i < n; ++i) {
        const std::string& name = pick(meshNames);
        const OJson& m = meshes[name];
        int ndim = static_cast<int>(m["shape"].size());
        int tp = -1;
        if (m.contains("dim_names"))
            for (int d = 0; d < ndim; ++d)
                if (m["dim_names"][static_cast<size_t>(d)] == "tp") tp = d;
        std::vector<std::string> src, dst;
        for (int d = 0; d < ndim; ++d) src.push_back(pick(kinds));
        dst = src;
        if (tp >= 0 && chance(0.5)) {  // the lowerable pairs, often
            src[static_cast<size_t>(tp)] =
                pick(std::vector<std::string>{"S(0)", "S(-1)", "SS(1,2)", "P", "P(sum)"});
            dst = src;
            dst[static_cast<size_t>(tp)] =
                pick(std::vector<std::string>{"R", "R", "S(0)", "S(1)", "SS(0,2)"});
        } else if (tp >= 0 && chance(0.7))
            dst[static_cast<size_t>(tp)] = pick(kinds);
        else if (chance(0.7))
            dst[static_cast<size_t>(uniform(0, ndim - 1))] = pick(kinds);
        list.push_back({{"name", "t" + std::to_string(i)},
                        {"mesh", name},
                        {"shape", {4, 6}},
                        {"dtype", "f32"},
                        {"src", src},
                        {"dst", dst}});
    }
    return list;
}

OJson Generator::scenario(int id) {
    OJson s = {{"format", "hsdp-scenario/1"}, {"name", "diff-" + std::to_string(id)}};
    int meshCount = chance(0.3) ? 2 : 1;
    OJson meshes = OJson::object();
    std::vector<std::string> names;
    std::vector<int> ndims;
    for (int k = 0; k < meshCount; ++k) {
        std::string name = meshCount == 1 && chance(0.5) ? "main" : (k ? "expert" : "dense");
        OJson m = mesh(chance(0.45));
        if (k == 1 && chance(0.4)) {  // same shape and ranks as the first: shared groups
            m = meshes[names[0]];
            if (m.contains("dim_names")) m.erase("dim_names");
        }
        meshes[name] = m;
        names.push_back(name);
        ndims.push_back(static_cast<int>(m["shape"].size()));
    }
    if (meshCount == 1 && names[0] == "main" && chance(0.5))
        s["mesh"] = meshes["main"];
    else
        s["meshes"] = meshes;
    if (chance(0.3)) {
        int maxRank = 0;
        for (const auto& [name, m] : meshes.items()) {
            int size = 1;
            for (int v : m["shape"]) size *= v;
            if (m.contains("ranks"))
                for (int r : m["ranks"]) maxRank = std::max(maxRank, r);
            else
                maxRank = std::max(maxRank, size - 1);
        }
        s["world_size"] = maxRank + 1 + uniform(0, 3);
    }
    s["options"] = options();
    s["params"] = params(names, ndims, meshCount == 1);
    if (!s["params"].empty() && chance(0.25)) {
        // A cap hit exactly by one or two params: the soft cap closes a batch at ">=".
        int64_t cap = 0;
        // A named copy: a range-for over pick(temporary)[...] would read a destroyed vector.
        const std::vector<OJson> all(s["params"].begin(), s["params"].end());
        for (int k = uniform(1, 2); k > 0; --k) {
            int64_t numel = 1;
            for (int v : pick(all)["shape"]) numel *= v;
            cap += numel;
        }
        s["options"]["max_batch_numel"] = cap;
    }
    if (chance(0.5)) s["tp_transitions"] = transitions(meshes, names);
    return s;
}

// ---- projection of the C++ plan onto the pinned fields ----------------------

const std::vector<std::string> kPinnedCodes = {
    "invalid-shard-dim",     "unsupported-placement", "replica-count-indivisible",
    "replica-count-ignored", "uneven-shard",          "nested-shard-order",
    "strided-shard-chunk",   "frozen-param-no-owner", "tp-rank-order-fallback"};

Json pick(const Json& from, std::initializer_list<const char*> keys) {
    Json out = Json::object();
    for (const char* k : keys)
        if (from.contains(k)) out[k] = from[k];
    return out;
}

Json pinnedFields(const Json& plan) {
    Json out = pick(plan, {"world_size", "effective_hsdp_replica_count", "no_comm_params",
                           "rejected_params", "schedule"});
    out["ranks"] = Json::array();  // the reference's fields; held/gathered/computed are ours
    for (const Json& r : plan["ranks"])
        out["ranks"].push_back(pick(r, {"rank", "owned", "owned_numel"}));
    out["groups"] = Json::array();
    for (const Json& g : plan["groups"]) {
        Json group = pick(g, {"id", "mesh", "mesh_shape", "replicate_mesh_dims", "shard_mesh_dims",
                              "layout", "params"});
        group["batches"] = Json::array();
        for (const Json& b : g["batches"])
            group["batches"].push_back(pick(b, {"params", "numel", "replicate_sizes", "is_shard",
                                                "owner", "loads", "shard_compute"}));
        out["groups"].push_back(group);
    }
    out["tp_transitions"] = Json::array();
    for (const Json& t : plan["tp_transitions"]) {
        Json transition = pick(t, {"index", "name", "classification"});
        transition["groups"] = Json::array();  // the seed decides these; runs/steps are ours
        for (const Json& g : t["groups"])
            transition["groups"].push_back(pick(g, {"mesh_ranks", "path", "op", "reason"}));
        out["tp_transitions"].push_back(transition);
    }
    out["diagnostics"] = Json::object();
    for (const Json& d : plan["diagnostics"]) {
        std::string code = d["code"];
        if (std::find(kPinnedCodes.begin(), kPinnedCodes.end(), code) == kPinnedCodes.end())
            continue;
        out["diagnostics"][code] = {{"severity", d["severity"]},
                                    {"params", d.value("params", Json::array())},
                                    {"transitions", d.value("transitions", Json::array())}};
    }
    return out;
}

Json cppPinned(const QString& file) {
    hsdp::Scenario scenario = hsdp::readScenarioFile(file.toStdString());
    hsdp::Plan plan = hsdp::makePlan(scenario);
    return pinnedFields(Json::parse(hsdp::planToJson(plan, scenario).dump()));
}

// One port process for all files (Python start-up dominates otherwise).
QList<QByteArray> runPort(const QStringList& files, QString& error) {
    QProcess process;
    process.start(kPython, QStringList{portScript()} + files);
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        error = "the Python port did not finish";
        return {};
    }
    if (process.exitCode() != 0) {
        error = "the Python port failed: " + QString::fromUtf8(process.readAllStandardError());
        return {};
    }
    QList<QByteArray> lines = process.readAllStandardOutput().split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
    if (lines.size() != files.size())
        error = QString("the Python port printed %1 lines for %2 files")
                    .arg(lines.size())
                    .arg(files.size());
    return lines;
}

// Empty when both agree, else the differing paths (a JSON patch from C++ to the port).
QString compare(const QString& file, const QByteArray& portLine) {
    Json port = Json::parse(portLine.toStdString(), nullptr, false);
    if (port.is_discarded())
        return "unparsable port output: " + QString::fromUtf8(portLine.left(300));
    if (port.contains("error"))
        return "port error: " + QString::fromStdString(port["error"].get<std::string>());
    Json cpp;
    try {
        cpp = cppPinned(file);
    } catch (const std::exception& e) {
        return QString("C++ failed: ") + e.what();
    }
    if (cpp == port) return {};
    std::string patch = Json::diff(cpp, port).dump();
    if (patch.size() > 1500) patch = patch.substr(0, 1500) + "...";
    return "C++ -> port patch: " + QString::fromStdString(patch);
}

// What the random scenarios exercised, counted on the port's plans, so a
// generator change that stops reaching a corner fails loudly.
std::map<std::string, int> features(const QList<QByteArray>& lines) {
    std::map<std::string, int> seen;
    for (const QByteArray& line : lines) {
        Json plan = Json::parse(line.toStdString(), nullptr, false);
        if (plan.is_discarded() || plan.contains("error")) continue;
        auto count = [&](const std::string& name, bool hit) { seen[name] += hit ? 1 : 0; };
        count("groups", !plan["groups"].empty());
        count("no_comm", !plan["no_comm_params"].empty());
        count("rejected", !plan["rejected_params"].empty());
        count("replica_count", !plan["effective_hsdp_replica_count"].is_null());
        bool multiBatch = false, gathered = false, multiCoord = false;
        for (const Json& g : plan["groups"]) {
            multiBatch |= g["batches"].size() > 1;
            for (const Json& b : g["batches"]) {
                gathered |= b["is_shard"].get<bool>();
                multiCoord |= b["loads"].size() > 1;
            }
        }
        count("several_batches", multiBatch);
        count("gathered", gathered);
        count("several_owner_coords", multiCoord);
        for (const Json& t : plan["tp_transitions"])
            for (const Json& g : t["groups"])
                count("tp_" + g["path"].get<std::string>() + "_" +
                          g.value("op", g.value("reason", std::string())),
                      true);
        for (const auto& [code, d] : plan["diagnostics"].items()) count(code, true);
    }
    return seen;
}

QString fileText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

}  // namespace

class TestPlanDifferential : public QObject {
    Q_OBJECT
private slots:
    void init() {
        // The planner's only independent oracle: its absence is a failure,
        // not a skip (scripts/bootstrap installs python3).
        QVERIFY2(QFileInfo::exists(kPython),
                 "/usr/bin/python3 is missing: run scripts/bootstrap (it installs python3)");
    }

    // The kept scenarios that once disagreed (or pin a corner) come first.
    void regressionScenarios() {
        QStringList files;
        for (const QFileInfo& info :
             QDir(regressionDir()).entryInfoList({"*.json"}, QDir::Files, QDir::Name))
            files << info.absoluteFilePath();
        QVERIFY2(!files.isEmpty(), "no regression scenarios found");
        QString error;
        auto lines = runPort(files, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (int i = 0; i < files.size(); ++i) {
            QString diff = compare(files[i], lines[i]);
            QVERIFY2(diff.isEmpty(), qPrintable(QFileInfo(files[i]).fileName() + ": " + diff));
        }
    }

    void randomScenariosAgree() {
        QTemporaryDir tempDir;
        QVERIFY(tempDir.isValid());
        // HSDP_DIFF_KEEP=DIR keeps the scenarios (to replay or feed a sanitizer build).
        QDir dir(qEnvironmentVariableIsSet("HSDP_DIFF_KEEP")
                     ? qEnvironmentVariable("HSDP_DIFF_KEEP")
                     : tempDir.path());
        QVERIFY(dir.exists());
        Generator generator(kSeed);
        QStringList files;
        for (int i = 0; i < kRandomScenarios; ++i) {
            QString path = dir.filePath(QString("scenario_%1.json").arg(i, 3, 10, QChar('0')));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(generator.scenario(i).dump(1)));
            files << path;
        }
        QString error;
        auto lines = runPort(files, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        int failures = 0;
        QString first;
        for (int i = 0; i < files.size(); ++i) {
            QString diff = compare(files[i], lines[i]);
            if (diff.isEmpty()) continue;
            if (++failures == 1) first = diff + "\nscenario:\n" + fileText(files[i]);
            qWarning("%s: %s", qPrintable(QFileInfo(files[i]).fileName()),
                     qPrintable(diff.left(400)));
        }
        QVERIFY2(failures == 0, qPrintable(QString("%1 of %2 scenarios disagree; first: %3")
                                               .arg(failures)
                                               .arg(files.size())
                                               .arg(first)));
        auto seen = features(lines);
        QString summary;
        for (const auto& [name, n] : seen) summary += QString(" %1=%2").arg(name.c_str()).arg(n);
        qInfo("scenarios exercising each feature:%s", qPrintable(summary));
        for (const char* name : {"groups",
                                 "no_comm",
                                 "rejected",
                                 "replica_count",
                                 "several_batches",
                                 "gathered",
                                 "several_owner_coords",
                                 "tp_lowered_all_gather",
                                 "tp_lowered_all_reduce",
                                 "tp_lowered_all_reduce_shard",
                                 "tp_lowered_reduce_scatter",
                                 "tp_identity_",
                                 "tp_fallback_rank-order",
                                 "tp_fallback_unsupported",
                                 "invalid-shard-dim",
                                 "unsupported-placement",
                                 "replica-count-indivisible",
                                 "replica-count-ignored",
                                 "uneven-shard",
                                 "nested-shard-order",
                                 "strided-shard-chunk",
                                 "frozen-param-no-owner",
                                 "tp-rank-order-fallback"})
            QVERIFY2(
                seen[name] >= 3,
                qPrintable(
                    QString("the generator reached '%1' only %2 times").arg(name).arg(seen[name])));
    }
};

QTEST_APPLESS_MAIN(TestPlanDifferential)
#include "tst_plan_differential.moc"
