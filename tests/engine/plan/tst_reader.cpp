// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include "export/plan_json.h"
#include "plan/planner.h"
#include "reader_test_util.h"

using namespace hsdp;
using namespace hsdp::testing;

class TestReader : public QObject {
    Q_OBJECT
private slots:
    void goodPathEveryField();
    void defaults();
    void examplesReadFine_data();
    void examplesReadFine();
    void exampleContents();
    void nestedRanksAsDeviceMeshPrintsThem();
    void pytorchDtypeSpellings_data();
    void pytorchDtypeSpellings();
    void repeatStartCountsFromIt();
    void newtonSchulzCoefficientsPrintAsWritten();
};

static const char* kGoodPath = R"j({
  "format": "hsdp-scenario/1",
  "name": "good path",
  "description": "every field",
  "meshes": {
    "dense": {"shape": [2, 2], "dim_names": ["dp", "tp"], "ranks": [3, 2, 1, 0]},
    "experts": {"shape": [4], "ranks": [4, 5, 6, 7]}
  },
  "world_size": 10,
  "options": {"alignment_bytes": 256, "max_batch_numel": 1000, "hsdp_replica_count": 2,
              "auto_replica_count": true, "devices_per_node": 4, "backend": "nccl",
              "broadcast_max_bytes": 4096, "lr": 0.5, "gather_strategy": "auto"},
  "params": [
    {"name": "embed", "shape": [16, 8], "dtype": "bfloat16", "mesh": "dense",
     "placements": ["R", "Shard(dim=0)"]},
    {"repeat": 2, "params": [
      {"name": "layer{i}.attn", "shape": [8, 8], "dtype": "f32", "mesh": "dense",
       "placements": ["_StridedShard(dim=0, sf=2)", "S(-1)"]},
      {"repeat": 3, "var": "e", "params": [
        {"name": "layer{i}.expert{e}", "shape": [4, 8], "dtype": "f16", "mesh": "experts",
         "placements": ["S(0)"], "requires_grad": false}
      ]},
      {"name": "layer{i}.norm{i}", "shape": [8], "dtype": "float64", "placements": null}
    ]},
    {"name": "scalar", "shape": [], "dtype": "f32"}
  ],
  "tp_transitions": [
    {"name": "out", "mesh": "dense", "shape": [4, 8], "dtype": "f32",
     "src": ["R", "P(sum)"], "dst": ["R", "R"]},
    {"repeat": 2, "var": "k", "transitions": [
      {"name": "t{k}", "mesh": "dense", "shape": [2, 8], "dtype": "bf16",
       "src": ["R", "S(0)"], "dst": ["R", "Replicate()"]}
    ]}
  ]
})j";

void TestReader::goodPathEveryField() {
    Scenario s = readScenario(kGoodPath);
    QCOMPARE(qs(s.name), QString("good path"));
    QCOMPARE(qs(s.description), QString("every field"));
    QCOMPARE(s.worldSize, 10);

    // Meshes in file order, indexed, custom ranks give the coordinates.
    QCOMPARE(s.meshes.size(), size_t(2));
    const Mesh& dense = s.mesh("dense");
    QCOMPARE(qs(s.meshes[0].name), QString("dense"));
    QCOMPARE(qs(s.meshes[1].name), QString("experts"));
    QCOMPARE(dense.shape, (std::vector<int64_t>{2, 2}));
    QCOMPARE(dense.dimNames, (std::vector<std::string>{"dp", "tp"}));
    QCOMPARE(dense.coordinateOf(3), std::optional(Coord{0, 0}));
    QCOMPARE(dense.coordinateOf(0), std::optional(Coord{1, 1}));
    QCOMPARE(dense.dimIndex("tp"), std::optional(1));
    const Mesh& experts = s.mesh("experts");
    QCOMPARE(experts.dimNames, (std::vector<std::string>{"dim0"}));
    QVERIFY(experts.contains(7));
    QVERIFY(!experts.contains(0));
    QCOMPARE(experts.coordinateOf(6), std::optional(Coord{2}));

    const PlanOptions& o = s.options;
    QCOMPARE(o.alignmentBytes, int64_t(256));
    QCOMPARE(o.maxBatchNumel, std::optional<int64_t>(1000));
    QCOMPARE(o.hsdpReplicaCount, std::optional<int64_t>(2));
    QVERIFY(o.autoReplicaCount);
    QCOMPARE(o.devicesPerNode, int64_t(4));
    QCOMPARE(qs(o.backend), QString("nccl"));
    QCOMPARE(o.broadcastMaxBytes, int64_t(4096));
    QCOMPARE(o.lr, 0.5);
    QCOMPARE(o.gatherStrategy, GatherStrategyOption::Auto);

    // Outer loop over the counter, inner over the entries; nested var e.
    const QStringList expectedNames{"embed",          "layer0.attn",    "layer0.expert0",
                                    "layer0.expert1", "layer0.expert2", "layer0.norm0",
                                    "layer1.attn",    "layer1.expert0", "layer1.expert1",
                                    "layer1.expert2", "layer1.norm1",   "scalar"};
    QCOMPARE(int(s.params.size()), expectedNames.size());
    for (int i = 0; i < expectedNames.size(); ++i) {
        QCOMPARE(s.params[i].index, i);
        QCOMPARE(qs(s.params[i].name), expectedNames[i]);
    }
    const ParamSpec& embed = s.params[0];
    QCOMPARE(embed.dtype, DType::BF16);
    QCOMPARE(embed.shape, (std::vector<int64_t>{16, 8}));
    QCOMPARE(qs(embed.mesh), QString("dense"));
    QCOMPARE(qs(placementsToString(*embed.placements)), QString("[R, S(0)]"));
    QVERIFY(embed.requiresGrad);
    QCOMPARE(qs(placementsToString(*s.params[6].placements)), QString("[SS(0,2), S(-1)]"));
    const ParamSpec& expert = s.params[8];
    QCOMPARE(expert.dtype, DType::F16);
    QCOMPARE(qs(expert.mesh), QString("experts"));
    QVERIFY(!expert.requiresGrad);
    // Plain tensors: no placements; with several meshes and none named "main", the first mesh.
    QVERIFY(!s.params[5].isDTensor());
    QCOMPARE(s.params[5].dtype, DType::F64);
    QCOMPARE(qs(s.params[5].mesh), QString("dense"));
    QVERIFY(s.params[11].shape.empty());
    QCOMPARE(s.params[11].numel(), int64_t(1));

    QCOMPARE(s.tpTransitions.size(), size_t(3));
    QCOMPARE(qs(s.tpTransitions[0].name), QString("out"));
    QCOMPARE(qs(placementsToString(s.tpTransitions[0].src)), QString("[R, P(sum)]"));
    QCOMPARE(qs(s.tpTransitions[2].name), QString("t1"));
    QCOMPARE(s.tpTransitions[2].index, 2);
    QCOMPARE(s.tpTransitions[2].dtype, DType::BF16);
    QCOMPARE(qs(placementsToString(s.tpTransitions[2].dst)), QString("[R, R]"));
}

void TestReader::defaults() {
    Scenario s = readScenario(R"j({"format": "hsdp-scenario/1", "name": "d",
        "mesh": {"shape": [2, 3]},
        "params": [{"name": "w", "shape": [6, 4], "dtype": "f32", "placements": ["R", "S(0)"]},
                   {"name": "cache", "shape": [3], "dtype": "bf16", "placements": null}]})j");
    QCOMPARE(s.worldSize, 6);  // 1 + max rank
    QCOMPARE(s.meshes.size(), size_t(1));
    const Mesh& m = s.meshes[0];
    QCOMPARE(qs(m.name), QString("main"));
    QCOMPARE(m.dimNames, (std::vector<std::string>{"dim0", "dim1"}));
    QCOMPARE(m.ranks, (std::vector<int>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(m.coordinateOf(4), std::optional(Coord{1, 1}));
    QVERIFY(s.description.empty());
    const PlanOptions o;
    QCOMPARE(s.options.alignmentBytes, o.alignmentBytes);
    QCOMPARE(s.options.alignmentBytes, int64_t(512));
    QVERIFY(!s.options.maxBatchNumel && !s.options.hsdpReplicaCount);
    QVERIFY(!s.options.autoReplicaCount);
    QCOMPARE(s.options.devicesPerNode, int64_t(8));
    QCOMPARE(qs(s.options.backend), QString("gloo"));
    QCOMPARE(s.options.broadcastMaxBytes, int64_t(536870912));
    QCOMPARE(s.options.lr, 0.02);
    QCOMPARE(s.options.gatherStrategy, GatherStrategyOption::AllGather);
    QVERIFY(s.params[0].requiresGrad);
    QCOMPARE(qs(s.params[0].mesh), QString("main"));
    QCOMPARE(qs(s.params[1].mesh), QString("main"));
    QVERIFY(!s.params[1].isDTensor());
    QVERIFY(s.tpTransitions.empty());

    // A mesh with explicit ranks sets the default world size by its largest rank.
    Scenario sparse = readScenario(
        R"j({"format": "hsdp-scenario/1", "name": "x", "mesh": {"shape": [2], "ranks": [5, 2]}})j");
    QCOMPARE(sparse.worldSize, 6);
    QVERIFY(sparse.params.empty());
    // With several meshes, a mesh named "main" is the default of a plain tensor.
    Scenario multi = readScenario(R"j({"format": "hsdp-scenario/1", "name": "x",
        "meshes": {"a": {"shape": [2]}, "main": {"shape": [2]}},
        "params": [{"name": "p", "shape": [1], "dtype": "f32"}]})j");
    QCOMPARE(qs(multi.params[0].mesh), QString("main"));
    QCOMPARE(multi.worldSize, 2);  // the meshes share ranks 0 and 1
}

void TestReader::examplesReadFine_data() {
    QTest::addColumn<QString>("file");
    const auto files = QDir(examplesDir()).entryList({"*.scenario.json"}, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 3);
    for (const auto& f : files) QTest::newRow(qPrintable(f)) << examplesDir() + f;
}

void TestReader::examplesReadFine() {
    QFETCH(QString, file);
    try {
        Scenario s = readScenarioFile(file.toStdString());
        QVERIFY(!s.params.empty());
        QVERIFY(s.worldSize >= 1);
    } catch (const ScenarioError& e) {
        QFAIL(e.what());
    }
}

void TestReader::exampleContents() {
    Scenario teaching =
        readScenarioFile((examplesDir() + "teaching_2x2.scenario.json").toStdString());
    QCOMPARE(teaching.worldSize, 4);
    QCOMPARE(teaching.params.size(), size_t(7));
    QVERIFY(!teaching.params[5].requiresGrad);
    QVERIFY(!teaching.params[6].isDTensor());
    QCOMPARE(qs(placementsToString(*teaching.params[3].placements)), QString("[R, S(1)]"));

    Scenario hazards =
        readScenarioFile((examplesDir() + "fsdp_tp_hazards.scenario.json").toStdString());
    QCOMPARE(qs(placementsToString(*hazards.params[0].placements)), QString("[SS(0,2), S(0)]"));
    QCOMPARE(hazards.tpTransitions.size(), size_t(4));
    QCOMPARE(hazards.tpTransitions[3].index, 3);
    QCOMPARE(qs(hazards.tpTransitions[0].mesh), QString("main"));
    QCOMPARE(hazards.meshes[0].dimIndex("tp"), std::optional(1));

    Scenario batches =
        readScenarioFile((examplesDir() + "batches_and_replica_split.scenario.json").toStdString());
    QCOMPARE(batches.worldSize, 64);
    QCOMPARE(batches.params.size(), size_t(18));
    QCOMPARE(qs(batches.params[4].name), QString("layer1.v"));
    QCOMPARE(batches.params[4].index, 4);
    QVERIFY(batches.options.autoReplicaCount);
    QCOMPARE(batches.options.maxBatchNumel, std::optional<int64_t>(20000));
}

// "start" gives the counter's first value: layers 3 … 5, experts nested from 0.
void TestReader::repeatStartCountsFromIt() {
    Scenario s = readScenario(R"j({"format": "hsdp-scenario/1", "name": "start",
      "mesh": {"shape": [2], "dim_names": ["dp_shard"]},
      "params": [
        {"repeat": 3, "start": 3, "var": "i", "params": [
          {"name": "layers.{i}.w", "shape": [4], "dtype": "f32", "placements": ["S(0)"]},
          {"repeat": 2, "var": "e", "params": [
            {"name": "layers.{i}.experts.{e}", "shape": [4], "dtype": "f32", "placements": ["S(0)"]}]}]},
        {"repeat": 1, "start": 0, "params": [{"name": "head{i}", "shape": [2], "dtype": "f32"}]}]})j");
    QStringList names;
    for (const ParamSpec& p : s.params) names << qs(p.name);
    QCOMPARE(names,
             QStringList({"layers.3.w", "layers.3.experts.0", "layers.3.experts.1", "layers.4.w",
                          "layers.4.experts.0", "layers.4.experts.1", "layers.5.w",
                          "layers.5.experts.0", "layers.5.experts.1", "head0"}));
}

// The engine keeps coefficients as floats; the plan's JSON gives them back as
// the scenario wrote them, not as 3.444499969482422.
void TestReader::newtonSchulzCoefficientsPrintAsWritten() {
    const Scenario s = readScenario(R"j({"format": "hsdp-scenario/1", "name": "ns",
      "mesh": {"shape": [2]}, "options": {"newton_schulz": {"steps": 2,
        "coefficients": [[3.4445, -4.775, 2.0315], [3.1, -3.2, 0.7]]}},
      "params": [{"name": "w", "shape": [4, 4], "dtype": "f32", "placements": ["S(0)"]}]})j");
    const auto json = planToJson(makePlan(s), s);
    const auto& written = json["newton_schulz"]["coefficients"];
    QCOMPARE(written.dump(), std::string("[[3.4445,-4.775,2.0315],[3.1,-3.2,0.7]]"));
}

QTEST_APPLESS_MAIN(TestReader)
#include "tst_reader.moc"

void TestReader::nestedRanksAsDeviceMeshPrintsThem() {
    // `mesh.mesh.tolist()` of a 2x4 DeviceMesh, and a 3-D one, read as the flat list.
    Scenario s = readScenario(R"j({"format": "hsdp-scenario/1", "name": "t",
        "meshes": {"a": {"shape": [2, 4], "ranks": [[0, 1, 2, 3], [4, 5, 6, 7]]},
                   "b": {"shape": [2, 1, 2], "ranks": [[[9, 8]], [[11, 10]]]}}})j");
    QCOMPARE(s.mesh("a").ranks, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    QCOMPARE(s.mesh("b").ranks, (std::vector<int>{9, 8, 11, 10}));
    QCOMPARE(s.worldSize, 12);
}

void TestReader::pytorchDtypeSpellings_data() {
    QTest::addColumn<QString>("spelling");
    QTest::addColumn<QString>("canonical");
    const std::pair<const char*, const char*> rows[] = {
        {"f32", "f32"},           {"float32", "f32"},
        {"float", "f32"},         {"torch.float32", "f32"},
        {"torch.float", "f32"},   {"bf16", "bf16"},
        {"bfloat16", "bf16"},     {"torch.bfloat16", "bf16"},
        {"f16", "f16"},           {"float16", "f16"},
        {"half", "f16"},          {"torch.float16", "f16"},
        {"torch.half", "f16"},    {"f64", "f64"},
        {"float64", "f64"},       {"double", "f64"},
        {"torch.float64", "f64"}, {"torch.double", "f64"},
    };
    for (const auto& [spelling, canonical] : rows) QTest::newRow(spelling) << spelling << canonical;
}

void TestReader::pytorchDtypeSpellings() {
    QFETCH(QString, spelling);
    QFETCH(QString, canonical);
    const QByteArray json = withParam(
        QByteArray(R"j({"name": "w", "shape": [4], "dtype": ")j" + spelling.toUtf8() + "\"}")
            .constData());
    Scenario s = readScenario(json.toStdString());
    QCOMPARE(qs(std::string(dtypeName(s.params[0].dtype))), canonical);
}
