// SPDX-License-Identifier: Apache-2.0
// Scenarios from Hugging Face configs (hsdp-inspect scenario --from-config):
// the generated parameter counts equal the models' published ones, layers
// have the architecture's shapes, placements follow the FSDP2 + TP rules,
// every scenario plans, a few run verified, and bad input exits 2 naming the
// field and the rule. The configs in tests/data/model_configs are written
// from the models' published config.json values.
#include <QtTest>

#include <QFile>
#include <QTemporaryDir>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_process.h"
#include "hf_config/model_config.h"
#include "hf_config/parallel_layout.h"
#include "hf_config/scenario_from_config.h"
#include "plan/planner.h"
#include "sanitizers.h"
#include "scenario/reader.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

std::string configPath(const QString& name) {
    return (QStringLiteral(HSDP_SOURCE_DIR "/tests/data/model_configs/") + name + ".json")
        .toStdString();
}

Scenario generate(const QString& name, const std::string& mesh, bool tpPlan = false) {
    ConfigScenarioRequest request;
    request.configSource = configPath(name);
    request.config = readModelConfigFile(request.configSource);
    request.layout = parseParallelLayout(mesh);
    checkLayout(request.layout, request.config, request.configSource, std::nullopt);
    request.tpTransitions = tpPlan;
    return readScenarioJson(scenarioFromModelConfig(request));
}

int64_t totalNumel(const Scenario& scenario) {
    int64_t total = 0;
    for (const ParamSpec& p : scenario.params) total += p.numel();
    return total;
}

const ParamSpec* findParam(const Scenario& scenario, const std::string& name) {
    for (const ParamSpec& p : scenario.params)
        if (p.name == name) return &p;
    return nullptr;
}

QString shapeText(const std::vector<int64_t>& shape) {
    QStringList dims;
    for (int64_t d : shape) dims << QString::number(d);
    return dims.join('x');
}

Json readJson(const std::string& path) {
    std::ifstream in(path);
    return Json::parse(in);
}

void writeJson(const QString& path, const Json& document) {
    std::ofstream(path.toStdString()) << document.dump(2);
}

}  // namespace

class TestModelConfig : public QObject {
    Q_OBJECT
private slots:
    // Published totals (model cards, the released safetensors' index). DeepSeek-V3:
    // 671,026,419,200 is the main model; the checkpoint's 684,531,386,368 adds the
    // multi-token-prediction layer, which the generator leaves out (see docs).
    void totalEqualsPublishedCountAndPlans_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("mesh");
        QTest::addColumn<qint64>("published");
        const char* const hsdpTp = "dp_replicate=2,dp_shard=4,tp=2";
        QTest::newRow("Llama-2-7B") << "llama2_7b" << hsdpTp << qint64(6738415616);
        QTest::newRow("Llama-3-8B") << "llama3_8b" << hsdpTp << qint64(8030261248);
        QTest::newRow("Llama-3-70B") << "llama3_70b"
                                     << "dp_replicate=2,dp_shard=4,tp=8" << qint64(70553706496);
        QTest::newRow("Mistral-7B-v0.1") << "mistral_7b_v0_1" << hsdpTp << qint64(7241732096);
        QTest::newRow("Qwen2-7B") << "qwen2_7b" << hsdpTp << qint64(7615616512);
        QTest::newRow("Qwen2.5-0.5B tied") << "qwen2_5_0_5b" << hsdpTp << qint64(494032768);
        QTest::newRow("Qwen2.5-1.5B tied") << "qwen2_5_1_5b" << hsdpTp << qint64(1543714304);
        QTest::newRow("Mixtral-8x7B per expert") << "mixtral_8x7b" << hsdpTp << qint64(46702792704);
        QTest::newRow("Mixtral-8x7B stacked, ep=2")
            << "mixtral_8x7b"
            << "dp_replicate=2,dp_shard=4,tp=2,ep=2" << qint64(46702792704);
        QTest::newRow("Qwen1.5-MoE-A2.7B per expert")
            << "qwen1_5_moe_a2_7b" << hsdpTp << qint64(14315784192);
        QTest::newRow("Qwen1.5-MoE-A2.7B stacked, ep=4")
            << "qwen1_5_moe_a2_7b"
            << "dp_shard=8,ep=4" << qint64(14315784192);
        QTest::newRow("DeepSeek-V3 per expert") << "deepseek_v3" << hsdpTp << qint64(671026419200);
        QTest::newRow("DeepSeek-V3 stacked, ep=8")
            << "deepseek_v3"
            << "dp_replicate=2,dp_shard=8,tp=4,ep=8" << qint64(671026419200);
    }
    void totalEqualsPublishedCountAndPlans() {
        QFETCH(QString, config);
        QFETCH(QString, mesh);
        QFETCH(qint64, published);
        const Scenario scenario = generate(config, mesh.toStdString());
        QCOMPARE(qint64(totalNumel(scenario)), published);
        const Plan plan = makePlan(scenario);
        QVERIFY2(!plan.hasErrors(), qPrintable(config + " " + mesh + " plans with errors"));
        QVERIFY(plan.rejectedParams.empty());
    }

    // Shapes as the architectures define them ("-": the parameter does not exist).
    void layerShapes_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("mesh");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("shape");
        const char* const m = "dp_shard=2";
        const auto row = [](const char* tag, const char* config, const char* mesh,
                            const char* param, const char* shape) {
            QTest::newRow(tag) << config << mesh << param << shape;
        };
        row("llama2 kv heads = heads", "llama2_7b", m, "model.layers.0.self_attn.k_proj.weight",
            "4096x4096");
        row("llama2 ffn", "llama2_7b", m, "model.layers.31.mlp.gate_proj.weight", "11008x4096");
        row("llama3 gqa k", "llama3_8b", m, "model.layers.31.self_attn.k_proj.weight", "1024x4096");
        row("llama3 down", "llama3_8b", m, "model.layers.0.mlp.down_proj.weight", "4096x14336");
        row("llama3 lm_head", "llama3_8b", m, "lm_head.weight", "128256x4096");
        row("llama3 norm", "llama3_8b", m, "model.norm.weight", "4096");
        row("llama3 no layer 32", "llama3_8b", m, "model.layers.32.input_layernorm.weight", "-");
        row("70b q", "llama3_70b", m, "model.layers.79.self_attn.q_proj.weight", "8192x8192");
        row("70b v", "llama3_70b", m, "model.layers.79.self_attn.v_proj.weight", "1024x8192");
        row("70b up", "llama3_70b", m, "model.layers.79.mlp.up_proj.weight", "28672x8192");
        row("mistral k", "mistral_7b_v0_1", m, "model.layers.0.self_attn.k_proj.weight",
            "1024x4096");
        row("qwen2 q bias", "qwen2_7b", m, "model.layers.0.self_attn.q_proj.bias", "3584");
        row("qwen2 k bias", "qwen2_7b", m, "model.layers.27.self_attn.k_proj.bias", "512");
        row("qwen2 no o bias", "qwen2_7b", m, "model.layers.0.self_attn.o_proj.bias", "-");
        row("qwen2.5 embed", "qwen2_5_0_5b", m, "model.embed_tokens.weight", "151936x896");
        row("qwen2.5 tied", "qwen2_5_0_5b", m, "lm_head.weight", "-");
        row("qwen2.5-1.5b k", "qwen2_5_1_5b", m, "model.layers.0.self_attn.k_proj.weight",
            "256x1536");
        row("mixtral router", "mixtral_8x7b", m, "model.layers.0.block_sparse_moe.gate.weight",
            "8x4096");
        row("mixtral expert", "mixtral_8x7b", m,
            "model.layers.31.block_sparse_moe.experts.7.w2.weight", "4096x14336");
        row("mixtral stacked", "mixtral_8x7b", "dp_shard=2,ep=2",
            "model.layers.0.block_sparse_moe.experts.w1", "8x14336x4096");
        row("mixtral stacked down", "mixtral_8x7b", "dp_shard=2,ep=2",
            "model.layers.0.block_sparse_moe.experts.w2", "8x4096x14336");
        row("qwen-moe expert", "qwen1_5_moe_a2_7b", m,
            "model.layers.0.mlp.experts.59.down_proj.weight", "2048x1408");
        row("qwen-moe shared", "qwen1_5_moe_a2_7b", m,
            "model.layers.23.mlp.shared_expert.gate_proj.weight", "5632x2048");
        row("qwen-moe shared gate", "qwen1_5_moe_a2_7b", m,
            "model.layers.0.mlp.shared_expert_gate.weight", "1x2048");
        row("qwen-moe router", "qwen1_5_moe_a2_7b", m, "model.layers.0.mlp.gate.weight", "60x2048");
        row("dsv3 q_a", "deepseek_v3", m, "model.layers.0.self_attn.q_a_proj.weight", "1536x7168");
        row("dsv3 q_a norm", "deepseek_v3", m, "model.layers.0.self_attn.q_a_layernorm.weight",
            "1536");
        row("dsv3 q_b", "deepseek_v3", m, "model.layers.60.self_attn.q_b_proj.weight",
            "24576x1536");
        row("dsv3 kv_a", "deepseek_v3", m, "model.layers.0.self_attn.kv_a_proj_with_mqa.weight",
            "576x7168");
        row("dsv3 kv_a norm", "deepseek_v3", m, "model.layers.0.self_attn.kv_a_layernorm.weight",
            "512");
        row("dsv3 kv_b", "deepseek_v3", m, "model.layers.0.self_attn.kv_b_proj.weight",
            "32768x512");
        row("dsv3 o", "deepseek_v3", m, "model.layers.0.self_attn.o_proj.weight", "7168x16384");
        row("dsv3 dense mlp", "deepseek_v3", m, "model.layers.2.mlp.gate_proj.weight",
            "18432x7168");
        row("dsv3 no router in dense", "deepseek_v3", m, "model.layers.2.mlp.gate.weight", "-");
        row("dsv3 router", "deepseek_v3", m, "model.layers.3.mlp.gate.weight", "256x7168");
        row("dsv3 router bias", "deepseek_v3", m, "model.layers.3.mlp.gate.e_score_correction_bias",
            "256");
        row("dsv3 expert", "deepseek_v3", m, "model.layers.3.mlp.experts.255.gate_proj.weight",
            "2048x7168");
        row("dsv3 shared", "deepseek_v3", m, "model.layers.60.mlp.shared_experts.down_proj.weight",
            "7168x2048");
        row("dsv3 no dense mlp in moe", "deepseek_v3", m, "model.layers.3.mlp.gate_proj.weight",
            "-");
        row("dsv3 no mtp layer", "deepseek_v3", m, "model.layers.61.input_layernorm.weight", "-");
        row("dsv3 stacked", "deepseek_v3", "dp_shard=8,ep=8", "model.layers.60.mlp.experts.up_proj",
            "256x2048x7168");
    }
    void layerShapes() {
        QFETCH(QString, config);
        QFETCH(QString, mesh);
        QFETCH(QString, param);
        QFETCH(QString, shape);
        const Scenario scenario = generate(config, mesh.toStdString());
        const ParamSpec* p = findParam(scenario, param.toStdString());
        if (shape == "-") {
            QVERIFY2(!p, qPrintable(param + " should not exist"));
            return;
        }
        QVERIFY2(p, qPrintable(param + " is missing"));
        QCOMPARE(shapeText(p->shape), shape);
    }

    // torchtitan's TP plan, then FSDP2 on dim 0 (strided where TP split dim 0).
    void placementsFollowTheRules_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("mesh");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("meshName");
        QTest::addColumn<QString>("placements");
        const auto row = [](const char* tag, const char* config, const char* mesh,
                            const char* param, const char* meshName, const char* placements) {
            QTest::newRow(tag) << config << mesh << param << meshName << placements;
        };
        const char* const m = "dp_replicate=2,dp_shard=4,tp=2";
        row("embedding by vocab rows", "llama3_8b", m, "model.embed_tokens.weight", "main",
            "[R, SS(0,2), S(0)]");
        row("q column-wise", "llama3_8b", m, "model.layers.0.self_attn.q_proj.weight", "main",
            "[R, SS(0,2), S(0)]");
        row("o row-wise", "llama3_8b", m, "model.layers.0.self_attn.o_proj.weight", "main",
            "[R, S(0), S(1)]");
        row("down row-wise", "llama3_8b", m, "model.layers.0.mlp.down_proj.weight", "main",
            "[R, S(0), S(1)]");
        row("norm replicated on tp", "llama3_8b", m, "model.layers.0.input_layernorm.weight",
            "main", "[R, S(0), R]");
        row("lm_head column-wise", "llama3_8b", m, "lm_head.weight", "main", "[R, SS(0,2), S(0)]");
        row("no tp: plain FSDP", "llama3_8b", "dp_shard=8",
            "model.layers.0.self_attn.q_proj.weight", "main", "[S(0)]");
        row("tp=8 split factor", "llama3_70b", "dp_shard=4,tp=8",
            "model.layers.0.mlp.up_proj.weight", "main", "[SS(0,8), S(0)]");
        row("qkv bias column-wise", "qwen2_7b", m, "model.layers.0.self_attn.v_proj.bias", "main",
            "[R, SS(0,2), S(0)]");
        row("router replicated on tp", "mixtral_8x7b", "dp_replicate=2,dp_shard=4,tp=2,ep=2",
            "model.layers.0.block_sparse_moe.gate.weight", "dense", "[R, S(0), R]");
        row("expert gate over ep", "mixtral_8x7b", "dp_replicate=2,dp_shard=4,tp=2,ep=2",
            "model.layers.0.block_sparse_moe.experts.w1", "experts", "[R, S(0), SS(1,2), S(1)]");
        row("expert down over ep", "mixtral_8x7b", "dp_replicate=2,dp_shard=4,tp=2,ep=2",
            "model.layers.0.block_sparse_moe.experts.w2", "experts", "[R, S(0), S(1), S(2)]");
        row("ep = dp_shard: no efsdp", "mixtral_8x7b", "dp_shard=4,ep=4",
            "model.layers.0.block_sparse_moe.experts.w3", "experts", "[S(0)]");
        row("per-expert without ep", "mixtral_8x7b", m,
            "model.layers.0.block_sparse_moe.experts.3.w1.weight", "main", "[R, SS(0,2), S(0)]");
        row("mla down-projection replicated", "deepseek_v3", m,
            "model.layers.0.self_attn.kv_a_proj_with_mqa.weight", "main", "[R, S(0), R]");
        row("mla up-projection column-wise", "deepseek_v3", m,
            "model.layers.0.self_attn.q_b_proj.weight", "main", "[R, SS(0,2), S(0)]");
        row("router bias is a buffer", "deepseek_v3", m,
            "model.layers.3.mlp.gate.e_score_correction_bias", "main", "plain");
    }
    void placementsFollowTheRules() {
        QFETCH(QString, config);
        QFETCH(QString, mesh);
        QFETCH(QString, param);
        QFETCH(QString, meshName);
        QFETCH(QString, placements);
        const Scenario scenario = generate(config, mesh.toStdString());
        const ParamSpec* p = findParam(scenario, param.toStdString());
        QVERIFY2(p, qPrintable(param + " is missing"));
        if (placements == "plain") {
            QVERIFY(!p->isDTensor());
            QVERIFY(!p->requiresGrad);
            return;
        }
        QVERIFY(p->isDTensor());
        QCOMPARE(QString::fromStdString(p->mesh), meshName);
        QCOMPARE(QString::fromStdString(placementsToString(*p->placements)), placements);
    }

    // The expert mesh covers the dense mesh's ranks, ep outer within dp_shard.
    void expertMeshSharesTheDenseRanks() {
        const Scenario s = generate("mixtral_8x7b", "dp_replicate=2,dp_shard=4,tp=2,ep=2");
        QCOMPARE(s.meshes.size(), size_t(2));
        QCOMPARE(s.worldSize, 16);
        QCOMPARE(s.mesh("experts").shape, (std::vector<int64_t>{2, 2, 2, 2}));
        QCOMPARE(s.mesh("dense").shape, (std::vector<int64_t>{2, 4, 2}));
    }

    // One block's forward under sequence parallelism: every transition is one
    // TP collective, none falls back.
    void tpPlanTransitionsLowerToCollectives() {
        const Scenario s = generate("llama3_8b", "dp_replicate=2,dp_shard=2,tp=2", true);
        QCOMPARE(s.tpTransitions.size(), size_t(6));
        const Plan plan = makePlan(s);
        QVERIFY(!plan.hasErrors());
        QCOMPARE(plan.tpTransitions.size(), size_t(6));
        for (const TpPlan& t : plan.tpTransitions) {
            QVERIFY(t.classification);
            QVERIFY(t.classification->kind == TpKind::AllGather ||
                    t.classification->kind == TpKind::ReduceScatter);
            for (const TpGroupDecision& g : t.groups)
                QVERIFY2(g.path == TpPath::Lowered, t.name.c_str());
        }
        QVERIFY(generate("llama3_8b", "dp_shard=4", true).tpTransitions.empty());
    }

    // §4: each kind of bad input exits 2 with a message naming the field and
    // the rule, and writes nothing.
    void badInputExitsTwoNamingFieldAndRule_data() {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");  // JSON; "delete": remove the field
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QStringList mesh{"--mesh", "dp_replicate=2,dp_shard=4,tp=2"};
        QTest::newRow("unknown architecture")
            << "llama3_8b"
            << "model_type"
            << "\"gpt2\"" << mesh
            << "model_type: unknown architecture 'gpt2' (supported: llama, mistral";
        QTest::newRow("missing field")
            << "llama3_8b"
            << "hidden_size"
            << "delete" << mesh << "hidden_size: missing (required by llama)";
        QTest::newRow("wrong type")
            << "mistral_7b_v0_1"
            << "vocab_size"
            << "\"32000\"" << mesh
            << "vocab_size: expected a positive integer below 2^31, got \"32000\"";
        QTest::newRow("too large")
            << "llama3_8b"
            << "vocab_size"
            << "4294967296" << mesh
            << "vocab_size: expected a positive integer below 2^31, got 4294967296";
        QTest::newRow("heads do not divide hidden")
            << "llama3_8b"
            << "hidden_size"
            << "4100" << mesh << "num_attention_heads: 32 does not divide hidden_size 4100";
        QTest::newRow("kv heads do not divide heads")
            << "llama3_8b"
            << "num_key_value_heads"
            << "5" << mesh << "num_key_value_heads: 5 does not divide num_attention_heads 32";
        QTest::newRow("tp does not divide heads")
            << "qwen2_5_0_5b"
            << ""
            << "" << QStringList{"--mesh", "dp_shard=2,tp=4"}
            << "num_attention_heads: 14 is not divisible by tp=4";
        QTest::newRow("tp does not divide kv heads")
            << "llama3_8b"
            << ""
            << "" << QStringList{"--mesh", "tp=16"}
            << "num_key_value_heads: 8 is not divisible by tp=16";
        QTest::newRow("mesh is not the world")
            << "llama3_8b"
            << ""
            << "" << QStringList{"--mesh", "dp_replicate=2,dp_shard=8,tp=4", "--world", "32"}
            << "--mesh: dp_replicate=2 x dp_shard=8 x tp=4 = 64 ranks, not the 32 of --world";
        QTest::newRow("ep on a dense model") << "llama3_8b"
                                             << ""
                                             << "" << QStringList{"--mesh", "dp_shard=4,ep=2"}
                                             << "--mesh: ep=2 needs a mixture-of-experts model";
        QTest::newRow("ep does not divide dp_shard")
            << "mixtral_8x7b"
            << ""
            << "" << QStringList{"--mesh", "dp_shard=3,ep=2"}
            << "--mesh: ep=2 does not divide dp_shard=3";
        QTest::newRow("ep does not divide the experts")
            << "qwen1_5_moe_a2_7b"
            << ""
            << "" << QStringList{"--mesh", "dp_shard=8,ep=8"}
            << "num_experts: 60 is not divisible by ep=8";
        QTest::newRow("unknown degree")
            << "llama3_8b"
            << ""
            << "" << QStringList{"--mesh", "dp_shard=4,pp=2"} << "--mesh: unknown degree 'pp'";
        QTest::newRow("dsv3 missing mla field")
            << "deepseek_v3"
            << "kv_lora_rank"
            << "delete" << mesh << "kv_lora_rank: missing (required by deepseek_v3)";
    }
    void badInputExitsTwoNamingFieldAndRule() {
        QFETCH(QString, base);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Json config = readJson(configPath(base));
        if (value == "delete")
            config.erase(field.toStdString());
        else if (!field.isEmpty())
            config[field.toStdString()] = Json::parse(value.toStdString());
        const QString configFile = dir.filePath("config.json");
        writeJson(configFile, config);
        const QString out = dir.filePath("scenario.json");
        const CliOutcome r =
            inspect(QStringList{"scenario", "--from-config", configFile, "-o", out} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        if (!message.startsWith("--mesh"))
            QVERIFY2(r.err.contains("config.json: "), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    // Every size at its limit: the parameters' total overflows 64 bits, which the
    // scenario format refuses; the command says so instead of writing the file.
    void scenarioBeyondTheFormatExitsTwo() {
        QTemporaryDir dir;
        Json config = readJson(configPath("llama3_8b"));
        for (const char* key : {"vocab_size", "hidden_size", "intermediate_size"})
            config[key] = 2147483647;
        config["num_attention_heads"] = 1;
        config["num_key_value_heads"] = 1;
        const QString file = dir.filePath("huge.json");
        writeJson(file, config);
        const QString out = dir.filePath("s.json");
        const CliOutcome r =
            inspect({"scenario", "--from-config", file, "--mesh", "dp_shard=2", "-o", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            r.err.contains("huge.json: the model's scenario exceeds the scenario format's limits"),
            r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    // Llama's attention_bias and mlp_bias: biases follow their layer's TP split.
    void llamaBiasesFollowTheirLayers() {
        Json config = readJson(configPath("llama3_8b"));
        config["attention_bias"] = true;
        config["mlp_bias"] = true;
        ConfigScenarioRequest request;
        request.config = readModelConfig(config, "biased.json");
        request.layout = parseParallelLayout("dp_shard=4,tp=2");
        const Scenario s = readScenarioJson(scenarioFromModelConfig(request));
        const std::pair<const char*, const char*> expected[] = {
            {"model.layers.0.self_attn.k_proj.bias", "[SS(0,2), S(0)]"},
            {"model.layers.0.self_attn.o_proj.bias", "[S(0), R]"},
            {"model.layers.31.mlp.up_proj.bias", "[SS(0,2), S(0)]"},
            {"model.layers.31.mlp.down_proj.bias", "[S(0), R]"},
        };
        for (const auto& [name, placements] : expected) {
            const ParamSpec* p = findParam(s, name);
            QVERIFY2(p, name);
            QCOMPARE(p->ndim(), 1);
            QCOMPARE(QString::fromStdString(placementsToString(*p->placements)),
                     QString(placements));
        }
        QCOMPARE(findParam(s, "model.layers.0.mlp.up_proj.bias")->shape,
                 std::vector<int64_t>{14336});
        QVERIFY(!findParam(generate("llama3_8b", "dp_shard=2"), "model.layers.0.mlp.up_proj.bias"));
    }

    void unreadableConfigExitsTwo() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("config.json");
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"model_type\": \"llama\",");
        file.close();
        const CliOutcome r = inspect({"scenario", "--from-config", bad, "--mesh", "dp_shard=2",
                                      "-o", dir.filePath("s.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("config.json: not valid JSON"), r.err.constData());
        const CliOutcome missing = inspect({"scenario", "--from-config", dir.filePath("none.json"),
                                            "--mesh", "dp_shard=2", "-o", dir.filePath("s.json")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(
                     "none.json: cannot read the model config: No such file or directory"),
                 missing.err.constData());
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString config = QString::fromStdString(configPath("llama3_8b"));
        QTest::newRow("no mesh") << QStringList{"--from-config", config, "-o", "/tmp/x.json"}
                                 << "scenario needs --mesh";
        QTest::newRow("no config")
            << QStringList{"--mesh", "tp=2", "-o", "/tmp/x.json"} << "scenario needs --from-config";
        QTest::newRow("no output")
            << QStringList{"--from-config", config, "--mesh", "tp=2"} << "scenario needs -o";
        QTest::newRow("bad tp plan")
            << QStringList{"--from-config", config,     "--mesh", "tp=2",
                           "--tp-plan",     "megatron", "-o",     "/tmp/x.json"}
            << "--tp-plan expects 'torchtitan' or 'none', got 'megatron'";
        QTest::newRow("bad dtype") << QStringList{"--from-config", config, "--mesh", "tp=2",
                                                  "--dtype",       "int8", "-o",     "/tmp/x.json"}
                                   << "--dtype expects";
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliOutcome r = inspect(QStringList{"scenario"} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(r.err.contains("Try 'hsdp-inspect scenario --help'"));
    }

    void helpDescribesTheCommand() {
        const CliOutcome r = inspect({"scenario", "--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* word : {"--from-config", "--mesh", "--tp-plan", "--world", "deepseek_v3",
                                 "_StridedShard", "exit status"})
            QVERIFY2(r.out.contains(word), word);
        QVERIFY(inspect({"--help"}).out.contains("scenario --from-config"));
    }

    // A layout the planner warns about (uneven FSDP shards) is still written:
    // the hazards are what the user came to see.
    void hazardousLayoutIsWrittenAndPlansWithWarnings() {
        QTemporaryDir dir;
        const QString out = dir.filePath("uneven.json");
        const CliOutcome r = inspect({"scenario", "--from-config",
                                      QString::fromStdString(configPath("qwen2_5_0_5b")), "--mesh",
                                      "dp_shard=7,tp=2", "--dtype", "f32", "-o", out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("494032768 elements"));
        const CliOutcome plan = inspect({"plan", out});
        QCOMPARE(plan.exitCode, 0);
        QVERIFY(plan.out.contains("uneven-shard"));
        QVERIFY(plan.out.contains("strided-shard-chunk"));
        const Scenario s = readScenarioFile(out.toStdString());
        QVERIFY(s.params.front().dtype == DType::F32);
    }

    // The CLI's file reads back and `run` verifies it (shapes shrunk).
    void cliScenarioRunsVerified_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("mesh");
        QTest::newRow("Qwen2.5-0.5B dp_shard=2,tp=2") << "qwen2_5_0_5b"
                                                      << "dp_shard=2,tp=2";
        QTest::newRow("Qwen2-7B dp_shard=2,tp=2") << "qwen2_7b"
                                                  << "dp_shard=2,tp=2";
        QTest::newRow("Mistral-7B dp_shard=2,tp=2") << "mistral_7b_v0_1"
                                                    << "dp_shard=2,tp=2";
        QTest::newRow("Llama-3-70B dp_replicate=2,dp_shard=2,tp=2")
            << "llama3_70b"
            << "dp_replicate=2,dp_shard=2,tp=2";
        QTest::newRow("Qwen1.5-MoE per expert dp_shard=2,tp=2") << "qwen1_5_moe_a2_7b"
                                                                << "dp_shard=2,tp=2";
        QTest::newRow("Qwen1.5-MoE dp_shard=2,tp=2,ep=2") << "qwen1_5_moe_a2_7b"
                                                          << "dp_shard=2,tp=2,ep=2";
        QTest::newRow("Mixtral-8x7B dp_shard=2,tp=2,ep=2") << "mixtral_8x7b"
                                                           << "dp_shard=2,tp=2,ep=2";
        QTest::newRow("DeepSeek-V3 dp_shard=2,tp=2,ep=2") << "deepseek_v3"
                                                          << "dp_shard=2,tp=2,ep=2";
    }
    void cliScenarioRunsVerified() {
        QFETCH(QString, config);
        QFETCH(QString, mesh);
        QTemporaryDir dir;
        const QString out = dir.filePath("scenario.json");
        const CliOutcome made = inspect(
            {"scenario", "--from-config", QString::fromStdString(configPath(config)), "--mesh",
             mesh, "--tp-plan", "torchtitan", "--name", "from config", "-o", out});
        QCOMPARE(made.exitCode, 0);
        QVERIFY(made.out.contains("6 TP transitions"));
        const Scenario s = readScenarioFile(out.toStdString());
        QCOMPARE(QString::fromStdString(s.name), QString("from config"));
        // The sanitizer presets divide the run budgets, as the other run tests do.
        const int divisor = runBudgetDivisor();
        const CliOutcome run =
            inspect({"run", "--max-bytes", QString::number((qint64(256) << 20) / divisor),
                     "--max-flops", QString::number(4e10 / divisor), out});
        QVERIFY2(run.exitCode == 0, run.out.constData());
        QVERIFY(run.out.contains("VERIFIED"));
        QVERIFY(!run.out.contains("NOT VERIFIED"));
        QVERIFY(run.out.contains("tp transitions: 6 of 6 exact"));
    }

    // The configs shipped in samples/configs (the models' published
    // config.json, every field) give the published parameter counts through
    // the command the README shows; a shipped config without a count here fails.
    void shippedSampleConfigsGiveThePublishedCounts() {
        const std::map<QString, qint64> published = {{"qwen2.5-7b", 7615616512},
                                                     {"mistral-7b-v0.1", 7241732096}};
        QDir dir(sample("configs"));
        const QStringList models = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QVERIFY(models.size() >= 2);
        QTemporaryDir out;
        for (const QString& model : models) {
            QVERIFY2(published.count(model), qPrintable(model + ": no published count"));
            const QString scenario = out.filePath(model + ".json");
            const CliOutcome r =
                inspect({"scenario", "--from-config", dir.filePath(model + "/config.json"),
                         "--mesh", "dp_replicate=2,dp_shard=8,tp=4", "-o", scenario});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const Scenario s = readScenarioFile(scenario.toStdString());
            QCOMPARE(qint64(totalNumel(s)), published.at(model));
            QVERIFY2(!makePlan(s).hasErrors(), qPrintable(model + " plans with errors"));
        }
    }

    // The params' dtype weighs on every byte a plan predicts: without
    // --dtype the note says bf16 was chosen and how to price fp32 master
    // weights; with it, nothing (a new user took the default for the job's).
    void theDefaultDtypeIsSaid() {
        QTemporaryDir dir;
        const QString config = QString::fromStdString(configPath("qwen2_7b"));
        const CliOutcome plain = inspect({"scenario", "--from-config", config, "--mesh",
                                          "dp_shard=2", "-o", dir.filePath("a.json")});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.err.contains("note: params in bf16, the default") &&
                     plain.err.contains("--dtype f32"),
                 plain.err.constData());
        const CliOutcome chosen =
            inspect({"scenario", "--from-config", config, "--mesh", "dp_shard=2", "--dtype", "f32",
                     "-o", dir.filePath("b.json")});
        QCOMPARE(chosen.exitCode, 0);
        QVERIFY2(!chosen.err.contains("params in bf16"), chosen.err.constData());
    }

    // The description explains the TP plan only where there is one.
    void theDescriptionExplainsOnlyTheLayoutsPlacements() {
        QTemporaryDir dir;
        const QString config = QString::fromStdString(configPath("qwen2_7b"));
        for (const char* mesh : {"dp_shard=2", "dp_shard=2,tp=2"}) {
            const QString out = dir.filePath(QStringLiteral("%1.json").arg(mesh));
            QCOMPARE(
                inspect({"scenario", "--from-config", config, "--mesh", mesh, "-o", out}).exitCode,
                0);
            QFile file(out);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const auto doc = nlohmann::json::parse(file.readAll().toStdString());
            const std::string description = doc.at("description");
            const bool tp = std::string(mesh).find("tp=") != std::string::npos;
            QCOMPARE(description.find("column-wise") != std::string::npos, tp);
            QCOMPARE(description.find("_StridedShard") != std::string::npos, tp);
        }
    }

    // As torchtitan, Moonlight and Megatron run Muon: embeddings, the output
    // head, norms and 1-D params (biases) on AdamW by default; --all-muon
    // keeps every param on Muon, as before (issue 44).
    void optimizersByDefaultAndAllMuon() {
        QTemporaryDir dir;
        const QString config = QString::fromStdString(configPath("qwen2_7b"));
        const QString byDefault = dir.filePath("default.json"), allMuon = dir.filePath("muon.json");
        QCOMPARE(inspect({"scenario", "--from-config", config, "--mesh", "dp_shard=2,tp=2", "-o",
                          byDefault})
                     .exitCode,
                 0);
        QCOMPARE(inspect({"scenario", "--from-config", config, "--mesh", "dp_shard=2,tp=2",
                          "--all-muon", "-o", allMuon})
                     .exitCode,
                 0);
        const Scenario s = readScenarioFile(byDefault.toStdString());
        const std::set<std::string> adamw = {"model.embed_tokens.weight",
                                             "lm_head.weight",
                                             "model.norm.weight",
                                             "model.layers.{i}.input_layernorm.weight",
                                             "model.layers.{i}.post_attention_layernorm.weight",
                                             "model.layers.{i}.self_attn.q_proj.bias",
                                             "model.layers.{i}.self_attn.k_proj.bias",
                                             "model.layers.{i}.self_attn.v_proj.bias"};
        int adamwCount = 0;
        for (const ParamSpec& p : s.params) {
            std::string name = p.name;
            if (name.rfind("model.layers.", 0) == 0)  // the layer index as the repeat variable
                name = "model.layers.{i}" + name.substr(name.find('.', 13));
            QVERIFY2(p.isAdamW() == (adamw.count(name) == 1), p.name.c_str());
            QVERIFY(!p.isAdamW() || p.ndim() <= 1 || name.find("embed") != std::string::npos ||
                    name == "lm_head.weight");
            adamwCount += p.isAdamW();
        }
        QCOMPARE(adamwCount, 3 + 5 * 28);  // Qwen2-7B: 28 layers
        QVERIFY(QString::fromStdString(s.description).contains("on AdamW"));
        const Plan plan = makePlan(s);
        QCOMPARE(int(plan.adamwParams.size()), adamwCount);
        for (const Group& g : plan.groups)
            for (int p : g.params) QVERIFY(!s.params[size_t(p)].isAdamW());
        const Scenario muon = readScenarioFile(allMuon.toStdString());
        for (const ParamSpec& p : muon.params) QVERIFY(!p.isAdamW());
        QVERIFY(makePlan(muon).adamwParams.empty());
        QVERIFY(QString::fromStdString(muon.description).contains("--all-muon"));
        QCOMPARE(totalNumel(muon), totalNumel(s));
    }

    void outputDashWritesStandardOutput() {
        const CliOutcome r =
            inspect({"scenario", "--from-config", QString::fromStdString(configPath("llama2_7b")),
                     "--mesh", "dp_shard=2", "-o", "-"});
        QCOMPARE(r.exitCode, 0);
        const Scenario s = readScenario(r.out.toStdString());
        QCOMPARE(totalNumel(s), int64_t(6738415616));
    }
};

QTEST_GUILESS_MAIN(TestModelConfig)
#include "tst_model_config.moc"
