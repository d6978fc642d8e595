// SPDX-License-Identifier: Apache-2.0
// diffPlans: what moved between two plans. Every expectation is computed from
// the two Plans themselves (walking their groups and batches), never typed in.
#include <QtTest>

#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "export/plan_json.h"
#include "plan/load_imbalance.h"
#include "plan/planner.h"
#include "plan_diff/plan_diff.h"
#include "plan_diff/plan_diff_json.h"
#include "plan_diff/plan_diff_text.h"
#include "samples.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::sample;
using Json = nlohmann::json;

namespace {

const char* const kSamples[] = {"teaching_2x2.json",
                                "llama3_8b_hsdp_2x4.json",
                                "llama3_70b_hsdp_tp_2x4x4.json",
                                "mixtral_8x7b_expert_mesh.json",
                                "diagnostics_tour.json",
                                "replica_count_indivisible.json"};

Json sampleJson(const std::string& name) {
    std::ifstream in(sample(QString::fromStdString(name)).toStdString());
    return Json::parse(in);
}

struct Planned {
    Scenario scenario;
    Plan plan;
};

Planned planOf(const Json& doc) {
    Planned out{readScenario(doc.dump()), {}};
    out.plan = makePlan(out.scenario);
    return out;
}

PlanDiff diffOf(const Planned& a, const Planned& b) {
    return diffPlans(a.scenario, a.plan, b.scenario, b.plan);
}

// A sample planned as it is (a) and on another mesh shape (b), and their diff.
struct Reshaped {
    Planned a, b;
    PlanDiff d;
};
Reshaped reshaped(const std::string& sample, const Json& shape) {
    Json doc = sampleJson(sample);
    Reshaped out{planOf(doc), {}, {}};
    doc["mesh"]["shape"] = shape;
    out.b = planOf(doc);
    out.d = diffOf(out.a, out.b);
    return out;
}

Json& paramNamed(Json& doc, const std::string& name) {
    for (auto& p : doc["params"])
        if (p.value("name", "") == name) return p;
    throw std::runtime_error("no param " + name);
}

// Where each param sits, by name, read straight off the plan: the group's mesh
// and layout, the batch position and the owner coordinate.
struct Seat {
    std::string group;
    int batch = -1;
    std::string owner;
    bool operator==(const Seat&) const = default;
};

std::string coordString(const Coord& c) {
    std::ostringstream out;
    for (auto v : c) out << v << ",";
    return out.str();
}

std::map<std::string, Seat> seats(const Planned& p) {
    std::map<std::string, Seat> out;
    for (const Group& g : p.plan.groups) {
        std::ostringstream key;
        key << g.mesh << "|"
            << coordString({g.replicateMeshDims.begin(), g.replicateMeshDims.end()}) << "|"
            << coordString({g.shardMeshDims.begin(), g.shardMeshDims.end()}) << "|"
            << g.layout.tensorNdim << "|";
        for (auto [m, t] : g.layout.shardAxes) key << m << ">" << t << ",";
        for (size_t b = 0; b < g.batches.size(); ++b)
            for (int param : g.batches[b].params) {
                auto owner = g.batches[b].owner.find(param);
                out[p.scenario.params[static_cast<size_t>(param)].name] = {
                    key.str(), static_cast<int>(b),
                    owner == g.batches[b].owner.end() ? "none" : coordString(owner->second)};
            }
    }
    return out;
}

std::set<std::string> namesWhere(const PlanDiff& d, std::function<bool(const ParamDiff&)> pick) {
    std::set<std::string> out;
    for (const auto& p : d.changedParams)
        if (pick(p)) out.insert(p.name);
    return out;
}

// The params whose seat field `field` differs, from the plans directly.
std::set<std::string> expectedMoves(const Planned& a, const Planned& b,
                                    std::function<bool(const Seat&, const Seat&)> differs) {
    auto sa = seats(a), sb = seats(b);
    std::set<std::string> out;
    for (const auto& [name, seat] : sb) {
        auto before = sa.find(name);
        if (before != sa.end() && differs(before->second, seat)) out.insert(name);
    }
    return out;
}

// Diagnostic (severity, code, param name) triples of a plan.
std::set<std::string> diagnosticSubjects(const Planned& p) {
    std::set<std::string> out;
    for (const auto& d : p.plan.diagnostics)
        for (int param : d.params)
            out.insert(std::string(severityName(d.severity)) + " " + d.code + " param '" +
                       p.scenario.params[static_cast<size_t>(param)].name + "'");
    return out;
}

std::set<std::string> itemTexts(const std::vector<DiagnosticItem>& items) {
    std::set<std::string> out;
    for (const auto& i : items)
        if (i.subject.rfind("param", 0) == 0)
            out.insert(std::string(severityName(i.severity)) + " " + i.code + " " + i.subject);
    return out;
}

std::set<std::string> minus(const std::set<std::string>& a, const std::set<std::string>& b) {
    std::set<std::string> out;
    for (const auto& x : a)
        if (!b.count(x)) out.insert(x);
    return out;
}

void checkOwnerAndGroupMoves(const Planned& a, const Planned& b, const PlanDiff& d) {
    auto owner = [](const Seat& x, const Seat& y) { return x.owner != y.owner; };
    auto group = [](const Seat& x, const Seat& y) { return x.group != y.group; };
    auto batch = [](const Seat& x, const Seat& y) { return x.batch != y.batch; };
    QCOMPARE(namesWhere(d, [](const ParamDiff& p) { return p.changes.owner; }),
             expectedMoves(a, b, owner));
    QCOMPARE(namesWhere(d, [](const ParamDiff& p) { return p.changes.batch; }),
             expectedMoves(a, b, batch));
    // A group flag also covers the same layout under a new id; the layout moves must be in it.
    auto flagged = namesWhere(d, [](const ParamDiff& p) { return p.changes.group; });
    for (const auto& name : expectedMoves(a, b, group)) QVERIFY(flagged.count(name));
}

void checkDiagnostics(const Planned& a, const Planned& b, const PlanDiff& d) {
    auto da = diagnosticSubjects(a), db = diagnosticSubjects(b);
    QCOMPARE(itemTexts(d.appearedDiagnostics), minus(db, da));
    QCOMPARE(itemTexts(d.disappearedDiagnostics), minus(da, db));
}

}  // namespace

class TestPlanDiff : public QObject {
    Q_OBJECT
private slots:
    void sampleAgainstItselfIsSame_data() {
        QTest::addColumn<QString>("sample");
        for (const char* s : kSamples) QTest::newRow(s) << s;
    }
    void sampleAgainstItselfIsSame() {
        QFETCH(QString, sample);
        auto p = planOf(sampleJson(sample.toStdString()));
        auto d = diffOf(p, p);
        QVERIFY(d.same());
        QVERIFY(d.changedParams.empty() && d.groups.empty() && d.ranks.empty() &&
                d.appearedDiagnostics.empty() && d.options.empty());
        QVERIFY(planDiffToText(d, "a", "b").find("same plan") != std::string::npos);
    }

    void meshShapeChangeMovesOwnersAndLoads() {
        const auto [a, b, d] = reshaped("teaching_2x2.json", {1, 4});
        QVERIFY(!d.same());
        QCOMPARE(d.meshes.size(), size_t(1));
        QCOMPARE(d.meshes[0].before->shape, a.scenario.meshes[0].shape);
        QCOMPARE(d.meshes[0].after->shape, b.scenario.meshes[0].shape);
        QVERIFY(d.addedParams.empty() && d.removedParams.empty());
        checkOwnerAndGroupMoves(a, b, d);
        QVERIFY(!namesWhere(d, [](const ParamDiff& p) { return p.changes.owner; }).empty());
        // Every group keeps its layout; the loads are per coordinate of the new shape.
        QCOMPARE(d.groups.size(), a.plan.groups.size());
        for (const GroupDiff& g : d.groups) {
            const Group& before = a.plan.groups[static_cast<size_t>(g.before->id)];
            const Group& after = b.plan.groups[static_cast<size_t>(g.after->id)];
            QCOMPARE(GroupIdentity::of(before), GroupIdentity::of(after));
            QCOMPARE(g.before->meshShape, before.meshShape);
            QCOMPARE(g.after->meshShape, after.meshShape);
            QCOMPARE(g.after->imbalance, loadImbalance(after.batches[0].loads));
            checkBatchLoads(before.batches[0], after.batches[0], g);
        }
    }

    // A rank's line gives what that rank computes beside its owner
    // coordinate's total, which all of the coordinate's ranks share: the
    // coordinate's figure alone read as if one rank held it.
    void rankLinesSayWhatTheRankComputes() {
        const auto [a, b, d] = reshaped("llama3_8b_hsdp_2x4.json", {4, 2});
        QVERIFY(!d.ranks.empty());
        const std::string text = planDiffToText(d, "a", "b", 1000);
        for (const RankDiff& r : d.ranks) {
            const RankOwnership& before = a.plan.ranks[size_t(r.rank)];
            QVERIFY(r.before && r.after);
            QCOMPARE(r.before->computedNumel, before.computedNumel);
            QCOMPARE(r.before->computed.size(), before.computed.size());
            QCOMPARE(r.before->ownedNumel, before.ownedNumel);
            QVERIFY(r.before->computedNumel < r.before->ownedNumel);  // a 4-way shard group's
            const std::string line = "rank " + std::to_string(r.rank) + ": computes " +
                                     std::to_string(before.computed.size()) + " params (" +
                                     std::to_string(before.computedNumel) +
                                     " elements) of its owner coordinate's " +
                                     std::to_string(before.owned.size()) + " (" +
                                     std::to_string(before.ownedNumel) + ")";
            QVERIFY2(text.find(line) != std::string::npos, (line + "\n" + text).c_str());
        }
        const Json json = Json::parse(planDiffToJson(d, "a", "b").dump());
        const Json& first = json["ranks"][0]["before"];
        QCOMPARE(first["computed_numel"].get<int64_t>(), d.ranks[0].before->computedNumel);
        QCOMPARE(first["computed"].size(), d.ranks[0].before->computed.size());
    }

    void placementChangeMovesParamToAnotherGroup() {
        Json doc = sampleJson("teaching_2x2.json");
        auto a = planOf(doc);
        paramNamed(doc, "block.mlp.down")["placements"] = {"R", "S(0)"};
        auto b = planOf(doc);
        auto d = diffOf(a, b);
        QVERIFY(!d.same());
        checkOwnerAndGroupMoves(a, b, d);
        auto specChanged = namesWhere(d, [](const ParamDiff& p) { return p.changes.spec; });
        QCOMPARE(specChanged, std::set<std::string>{"block.mlp.down"});
        for (const auto& p : d.changedParams)
            if (p.name == "block.mlp.down") {
                int index = p.after.index;
                QCOMPARE(*p.before.group, GroupIdentity::of(*a.plan.groupOf(index)));
                QCOMPARE(*p.after.group, GroupIdentity::of(*b.plan.groupOf(index)));
                QVERIFY(p.changes.group);
            }
        // The group the param left held only it: gone in B.
        size_t gone = 0;
        for (const auto& g : d.groups) gone += g.after ? 0 : 1;
        QCOMPARE(gone, a.plan.groups.size() - b.plan.groups.size());
    }

    void replicaCountChange() {
        Json doc = sampleJson("replica_count_indivisible.json");
        auto a = planOf(doc);
        doc["options"]["hsdp_replica_count"] = 2;
        auto b = planOf(doc);
        auto d = diffOf(a, b);
        QVERIFY(a.plan.effectiveReplicaCount != b.plan.effectiveReplicaCount);
        QVERIFY(d.effectiveReplicaCount);
        QCOMPARE(d.effectiveReplicaCount->before, a.plan.effectiveReplicaCount);
        QCOMPARE(d.effectiveReplicaCount->after, b.plan.effectiveReplicaCount);
        QCOMPARE(d.options.size(), size_t(1));
        QCOMPARE(d.options[0].name, std::string("hsdp_replica_count"));
        checkOwnerAndGroupMoves(a, b, d);
        checkDiagnostics(a, b, d);
        QVERIFY(!d.disappearedDiagnostics.empty());  // replica-count-indivisible goes
    }

    void addedParamIsReportedByName() {
        Json doc = sampleJson("teaching_2x2.json");
        auto a = planOf(doc);
        doc["params"].insert(doc["params"].begin(), Json{{"name", "extra.weight"},
                                                         {"shape", {64, 8}},
                                                         {"dtype", "f32"},
                                                         {"placements", {"R", "S(0)"}}});
        auto b = planOf(doc);
        auto d = diffOf(a, b);
        QCOMPARE(d.addedParams.size(), size_t(1));
        QCOMPARE(d.addedParams[0].name, std::string("extra.weight"));
        QCOMPARE(d.addedParams[0].index, 0);
        QVERIFY(d.removedParams.empty());
        // Every old param shifted one place: an index change, found by name.
        QCOMPARE(namesWhere(d, [](const ParamDiff& p) { return p.changes.index; }).size(),
                 a.scenario.params.size());
        checkOwnerAndGroupMoves(a, b, d);
        auto back = diffOf(b, a);
        QCOMPARE(back.removedParams.size(), size_t(1));
        QCOMPARE(back.removedParams[0].name, std::string("extra.weight"));
    }

    void unevenDimMakesUnevenShardAppear() {
        Json doc = sampleJson("teaching_2x2.json");
        auto a = planOf(doc);
        paramNamed(doc, "block.mlp.up")["shape"] = {25, 8};
        auto b = planOf(doc);
        auto d = diffOf(a, b);
        checkDiagnostics(a, b, d);
        bool found = false;
        for (const auto& i : d.appearedDiagnostics)
            found = found || (i.code == "uneven-shard" && i.subject == "param 'block.mlp.up'");
        QVERIFY(found);
        auto text = planDiffToText(d, "a", "b");
        QVERIFY(text.find("Diagnostics appeared") < text.find("Parameters"));
        QVERIFY(diffOf(b, a).disappearedDiagnostics.size() == d.appearedDiagnostics.size());
    }

    // One diagnostic naming many params is one diagnostic, said once: the
    // text once repeated a 600-character warning 240 times under
    // "Diagnostics appeared (240)" where the plan lists "Diagnostics (1)".
    void oneDiagnosticOnManyParamsIsListedOnce() {
        PlanDiff d;
        const std::string shared = "strided shard; the reference slices the update back";
        for (const char* name : {"a.w", "b.w", "c.w", "d.w"})
            d.appearedDiagnostics.push_back({Severity::Warning, "strided-shard-chunk",
                                             "param '" + std::string(name) + "'", shared});
        d.appearedDiagnostics.push_back(
            {Severity::Warning, "uneven-shard", "param 'e.w'", "uneven"});
        const std::vector<DiagnosticGroup> groups = groupDiagnostics(d.appearedDiagnostics);
        QCOMPARE(groups.size(), size_t(2));
        QCOMPARE(groups[0].subjects.size(), size_t(4));
        QCOMPARE(groups[1].subjects, std::vector<std::string>{"param 'e.w'"});
        const std::string text = planDiffToText(d, "a", "b");
        QVERIFY2(text.find("Diagnostics appeared (2)") != std::string::npos, text.c_str());
        QVERIFY2(text.find("strided-shard-chunk on 4 params ('a.w', 'b.w', 'c.w' and 1 more): " +
                           shared) != std::string::npos,
                 text.c_str());
        QCOMPARE(text.find(shared), text.rfind(shared));  // once
        QVERIFY(text.find("uneven-shard on param 'e.w': uneven") != std::string::npos);
    }

    void jsonHasDocumentedFields() {
        Json doc = sampleJson("teaching_2x2.json");
        auto a = planOf(doc);
        doc["mesh"]["shape"] = {1, 4};
        auto b = planOf(doc);
        auto out = Json::parse(planDiffToJson(diffOf(a, b), "A.json", "B.json").dump());
        QCOMPARE(out["format"].get<std::string>(), std::string("hsdp-plan-diff/1"));
        QCOMPARE(out["before"].get<std::string>(), std::string("A.json"));
        QCOMPARE(out["same"].get<bool>(), false);
        for (const char* key :
             {"scenario", "world_size", "effective_hsdp_replica_count", "options", "meshes",
              "params", "groups", "schedule", "ranks", "tp_transitions", "diagnostics"})
            QVERIFY2(out.contains(key), key);
        for (const char* key : {"added", "removed", "changed"})
            QVERIFY2(out["params"][key].is_array(), key);
        for (const char* key : {"appeared", "disappeared", "reworded"})
            QVERIFY2(out["diagnostics"][key].is_array(), key);
        const auto& group = out["groups"][0];
        QVERIFY(group["key"]["mesh"].is_string() && group["before"]["imbalance"].is_number());
        QVERIFY(group["batches"][0]["load_changes"].is_array());
    }

    // same() must agree with the plan JSON, over every sample and one-option edit.
    void everyOptionEditAgreesWithPlanJson_data() {
        QTest::addColumn<QString>("sample");
        for (const char* s : kSamples) QTest::newRow(s) << s;
    }
    void everyOptionEditAgreesWithPlanJson() {
        QFETCH(QString, sample);
        const Json base = sampleJson(sample.toStdString());
        std::vector<std::pair<std::string, Json>> edits = {
            {"max_batch_numel", 1000},     {"max_batch_numel", 100000000},
            {"hsdp_replica_count", 2},     {"hsdp_replica_count", nullptr},
            {"auto_replica_count", true},  {"alignment_bytes", 1024},
            {"backend", "nccl"},           {"devices_per_node", 4},
            {"broadcast_max_bytes", 1024}, {"lr", 0.5}};
        std::vector<Planned> variants{planOf(base)};
        for (const auto& [key, value] : edits) {
            Json doc = base;
            doc["options"][key] = value;
            variants.push_back(planOf(doc));
        }
        std::vector<nlohmann::ordered_json> planJson;
        for (const auto& v : variants) planJson.push_back(planToJson(v.plan, v.scenario));
        // Each variant against itself, the base (both ways) and the next edit:
        // every kind of pair, in linear time (all pairs took minutes under ASan).
        std::set<std::pair<size_t, size_t>> pairs;
        for (size_t i = 0; i < variants.size(); ++i) {
            pairs.insert({i, i});
            pairs.insert({0, i});
            pairs.insert({i, 0});
            if (i + 1 < variants.size()) pairs.insert({i, i + 1});
        }
        int samePairs = 0, differentPairs = 0;
        for (const auto& [i, j] : pairs) {
            auto d = diffOf(variants[i], variants[j]);
            bool jsonEqual = planJson[i] == planJson[j];
            QVERIFY2(d.same() == jsonEqual, qPrintable(QString("variant %1 vs %2").arg(i).arg(j)));
            QVERIFY(!planDiffToText(d, "a", "b").empty());
            QVERIFY(planDiffToJson(d, "a", "b")["same"] == jsonEqual);
            if (i != j) (jsonEqual ? samePairs : differentPairs)++;
        }
        // Both outcomes occur: lr never changes the plan, alignment always does.
        QVERIFY(samePairs > 0);
        QVERIFY(differentPairs > 0);
    }

    // A batch-cap edit reshuffles every batch over the same coordinates: the
    // loads compared position by position are those a map of coordinates
    // gives, and a diff without batch loads says the same batches changed.
    void batchCapEditWithAndWithoutBatchLoads() {
        Json doc = sampleJson("llama3_70b_hsdp_tp_2x4x4.json");
        auto a = planOf(doc);
        doc["options"]["max_batch_numel"] = int64_t(200000000);
        auto b = planOf(doc);
        const PlanDiff full = diffOf(a, b);
        const PlanDiff lean = diffPlans(a.scenario, a.plan, b.scenario, b.plan, DiffOptions{false});
        QVERIFY(!full.groups.empty());
        QCOMPARE(lean.groups.size(), full.groups.size());
        int changedLoads = 0;
        for (size_t g = 0; g < full.groups.size(); ++g) {
            const GroupDiff &f = full.groups[g], &l = lean.groups[g];
            QCOMPARE(l.batches.size(), f.batches.size());
            QCOMPARE(l.after->loads.size(), f.after->loads.size());  // group loads stay
            for (size_t i = 0; i < f.batches.size(); ++i) {
                QCOMPARE(l.batches[i].index, f.batches[i].index);
                QCOMPARE(l.batches[i].loadsChanged, !f.batches[i].loads.empty());
                QVERIFY(l.batches[i].loads.empty());
                if (l.batches[i].after) QVERIFY(l.batches[i].after->loads.empty());
                if (l.batches[i].after && f.batches[i].after)
                    QCOMPARE(l.batches[i].after->imbalance, f.batches[i].after->imbalance);
                changedLoads += l.batches[i].loadsChanged;
            }
            const Group* before = groupOf(a.plan, f.key);
            const Group* after = groupOf(b.plan, f.key);
            if (!before || !after) continue;
            const size_t common = std::min(before->batches.size(), after->batches.size());
            for (size_t i = 0; i < common; ++i)
                checkBatchLoads(before->batches[i], after->batches[i], f, int(i));
        }
        QVERIFY(changedLoads > 0);
    }

private:
    static const Group* groupOf(const Plan& plan, const GroupIdentity& key) {
        for (const Group& g : plan.groups)
            if (GroupIdentity::of(g) == key) return &g;
        return nullptr;
    }

    static void checkBatchLoads(const Batch& before, const Batch& after, const GroupDiff& g,
                                int index = 0) {
        std::map<Coord, std::pair<std::optional<int64_t>, std::optional<int64_t>>> expected;
        for (size_t c = 0; c < before.loads.size(); ++c)
            expected[before.loadCoord(c)].first = before.loads[c];
        for (size_t c = 0; c < after.loads.size(); ++c)
            expected[after.loadCoord(c)].second = after.loads[c];
        std::vector<CoordLoadChange> reported;
        for (const auto& b : g.batches)
            if (b.index == index) reported = b.loads;
        size_t differing = 0;
        for (const auto& [coord, values] : expected) differing += values.first != values.second;
        QCOMPARE(reported.size(), differing);
        for (const auto& c : reported) {
            QCOMPARE(c.before, expected[c.coord].first);
            QCOMPARE(c.after, expected[c.coord].second);
        }
    }
};

QTEST_GUILESS_MAIN(TestPlanDiff)
#include "tst_plan_diff.moc"
