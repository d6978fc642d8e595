// SPDX-License-Identifier: Apache-2.0
// Reading checkpoints: a single file, a folder, a shard index over several
// files; only headers are read (every read is counted and must fall inside a
// header, also for a 141 GB sparse Llama-3-70B of 30 shards); the published
// parameter counts of Llama-3-8B, Qwen2.5-7B and Mistral-7B-v0.1 from
// checkpoints whose index carries the published total_size; the config
// beside a checkpoint cross-checked; and every inconsistency refused naming
// the file and the tensor.
#include <QtTest>

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <map>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_error.h"
#include "checkpoint/scenario_from_checkpoint.h"
#include "checkpoint_recipes.h"
#include "hf_config/config_params.h"
#include "hf_config/model_config.h"
#include "hf_config/model_config_error.h"
#include "hf_config/scenario_from_config.h"
#include "scenario/reader.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

// Reads through the disk, and checks each read stays within the file's header.
class HeaderOnlyReader : public CheckpointFileReader {
public:
    uint64_t size(const std::string& path) override { return disk_.size(path); }
    std::string read(const std::string& path, uint64_t offset, uint64_t length) override {
        std::string bytes = disk_.read(path, offset, length);
        if (offset == 0 && bytes.size() >= 8) {
            uint64_t n = 0;
            for (int i = 7; i >= 0; --i) n = (n << 8) | uint8_t(bytes[size_t(i)]);
            headerEnd_[path] = 8 + n;
        }
        const auto end = headerEnd_.find(path);
        if (end == headerEnd_.end() || offset + length > end->second) outsideHeader_ = true;
        return bytes;
    }
    uint64_t bytesRead() const { return disk_.bytesRead(); }
    bool readOutsideAHeader() const { return outsideHeader_; }

private:
    DiskFileReader disk_;
    std::map<std::string, uint64_t> headerEnd_;
    bool outsideHeader_ = false;
};

std::vector<TensorSpec> specsOf(const ModelConfig& config) {
    std::vector<TensorSpec> out;
    for (const ConfigParam& p : configParams(config)) out.push_back({p.name, "BF16", p.shape, {}});
    return out;
}

std::string dataConfig(const char* name) {
    return std::string(HSDP_SOURCE_DIR "/tests/data/model_configs/") + name + ".json";
}

void copyFile(const std::string& from, const QString& to) {
    QFile::remove(to);
    QVERIFY(QFile::copy(QString::fromStdString(from), to));
}

void writeText(const QString& path, const char* text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

CheckpointError refusal(const std::string& path) {
    try {
        readCheckpoint(path);
    } catch (const CheckpointError& error) {
        return error;
    }
    return CheckpointError("", "", "(accepted)");
}

}  // namespace

class TestCheckpointReader : public QObject {
    Q_OBJECT
private slots:
    void aSmallFileWithData() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("model.safetensors").toStdString();
        const std::vector<TensorSpec> specs = {{"model.layers.10.w", "F32", {2, 3}, {}},
                                               {"model.layers.2.w", "F32", {2, 3}, {}},
                                               {"model.embed_tokens.weight", "BF16", {16, 4}, {}}};
        writeSafetensors(file, specs, false);
        HeaderOnlyReader reader;
        for (const std::string& path : {file, dir.path().toStdString()}) {
            const Checkpoint c = readCheckpoint(path, reader);
            QCOMPARE(c.files.size(), size_t(1));
            QCOMPARE(c.tensors.size(), size_t(3));
            // Natural order: layer 2 before layer 10.
            QCOMPARE(c.tensors[1].name, std::string("model.layers.2.w"));
            QCOMPARE(c.tensors[2].name, std::string("model.layers.10.w"));
            QCOMPARE(c.numel(), int64_t(6 + 6 + 64));
            QCOMPARE(c.tensorBytes(), uint64_t(24 + 24 + 128));
            QVERIFY(!c.savedSharding);
            QVERIFY(c.configPath.empty());
        }
        QVERIFY(!reader.readOutsideAHeader());
        // No --mesh and nothing saved: the scenario needs one.
        QVERIFY_THROWS_EXCEPTION(CheckpointError, scenarioFromCheckpoint(readCheckpoint(file), {}));
    }

    // Published counts from the shapes, the index's total_size the published bytes.
    void publishedCountsFromTheIndex_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<qint64>("published");
        QTest::addColumn<qint64>("totalSize");
        QTest::newRow("Llama-3-8B")
            << QString(HSDP_SOURCE_DIR "/tests/data/model_configs/llama3_8b.json")
            << qint64(8030261248) << qint64(16060522496);
        QTest::newRow("Qwen2.5-7B")
            << QString(HSDP_SOURCE_DIR "/samples/configs/qwen2.5-7b/config.json")
            << qint64(7615616512) << qint64(15231233024);
        QTest::newRow("Mistral-7B-v0.1")
            << QString(HSDP_SOURCE_DIR "/samples/configs/mistral-7b-v0.1/config.json")
            << qint64(7241732096) << qint64(14483464192);
    }
    void publishedCountsFromTheIndex() {
        QFETCH(QString, config);
        QFETCH(qint64, published);
        QFETCH(qint64, totalSize);
        QTemporaryDir dir;
        const ModelConfig model = readModelConfigFile(config.toStdString());
        writeShardedCheckpoint(dir.path(), specsOf(model), 4, uint64_t(totalSize));
        copyFile(config.toStdString(), dir.filePath("config.json"));
        HeaderOnlyReader reader;
        const Checkpoint c = readCheckpoint(dir.path().toStdString(), reader);
        QCOMPARE(c.files.size(), size_t(4));
        QCOMPARE(qint64(c.numel()), published);
        QCOMPARE(c.indexTotalSize, std::optional(uint64_t(totalSize)));
        QCOMPARE(qint64(c.tensorBytes()), totalSize);
        QVERIFY2(c.notes.empty(), c.notes.empty() ? "" : c.notes.front().c_str());
        QVERIFY(!reader.readOutsideAHeader());
        QCOMPARE(reader.bytesRead(), c.headerBytes());
        // The same parameters, shapes, placements and order as --from-config
        // writes for the config (cross-checked: no note, no error).
        CheckpointScenarioRequest request;
        request.layout = parseParallelLayout("dp_replicate=2,dp_shard=2,tp=2");
        const CheckpointScenario fromCheckpoint = scenarioFromCheckpoint(c, request);
        ConfigScenarioRequest fromConfig;
        fromConfig.config = model;
        fromConfig.layout = *request.layout;
        const Scenario a = readScenarioJson(fromCheckpoint.document);
        const Scenario b = readScenarioJson(scenarioFromModelConfig(fromConfig));
        QCOMPARE(a.params.size(), b.params.size());
        for (size_t i = 0; i < a.params.size(); ++i) {
            QCOMPARE(a.params[i].name, b.params[i].name);
            QCOMPARE(a.params[i].shape, b.params[i].shape);
            QCOMPARE(placementsToString(*a.params[i].placements),
                     placementsToString(*b.params[i].placements));
        }
    }

    // 141 GB in 30 sparse files: every read is inside a header.
    void aLargeCheckpointReadsOnlyItsHeaders() {
        QTemporaryDir dir;
        const ModelConfig model = readModelConfigFile(dataConfig("llama3_70b"));
        writeShardedCheckpoint(dir.path(), specsOf(model), 30);
        HeaderOnlyReader reader;
        QElapsedTimer timer;
        timer.start();
        const Checkpoint c = readCheckpoint(dir.path().toStdString(), reader);
        const qint64 ms = timer.elapsed();
        uint64_t fileBytes = 0;
        for (const CheckpointFile& f : c.files) fileBytes += f.size;
        QCOMPARE(c.numel(), int64_t(70553706496));
        QCOMPARE(c.tensorBytes(), uint64_t(141107412992));
        QVERIFY(fileBytes > c.tensorBytes());
        QVERIFY(!reader.readOutsideAHeader());
        QCOMPARE(reader.bytesRead(), c.headerBytes());
        QVERIFY(reader.bytesRead() < 200000);
        qInfo("Llama-3-70B, %zu files, %llu bytes: read %llu bytes of headers in %lld ms",
              c.files.size(), (unsigned long long)fileBytes, (unsigned long long)reader.bytesRead(),
              ms);
    }

    void theConfigBesideIsCrossChecked() {
        QTemporaryDir dir;
        const ModelConfig model = readModelConfigFile(dataConfig("llama3_8b"));
        std::vector<TensorSpec> specs = specsOf(model);
        copyFile(dataConfig("llama3_8b"), dir.filePath("config.json"));
        // One shape off.
        for (TensorSpec& t : specs)
            if (t.name == "model.layers.7.mlp.up_proj.weight") t.shape = {11008, 4096};
        writeShardedCheckpoint(dir.path(), specs, 2);
        const Checkpoint c = readCheckpoint(dir.path().toStdString());
        CheckpointScenarioRequest request;
        request.layout = parseParallelLayout("dp_shard=2");
        try {
            scenarioFromCheckpoint(c, request);
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            QCOMPARE(error.tensor, std::string("model.layers.7.mlp.up_proj.weight"));
            QVERIFY2(QString(error.what())
                         .contains("the config gives it [14336, 4096], the "
                                   "checkpoint holds [11008, 4096]"),
                     error.what());
            QVERIFY(QString::fromStdString(error.file).endsWith("config.json"));
        }
        // One missing; one extra (a note, not an error).
        specs = specsOf(model);
        specs.erase(specs.begin() + 5);
        specs.push_back({"model.layers.0.self_attn.rotary_emb.inv_freq", "F32", {64}, {}});
        QTemporaryDir other;
        copyFile(dataConfig("llama3_8b"), other.filePath("config.json"));
        writeShardedCheckpoint(other.path(), specs, 2);
        try {
            scenarioFromCheckpoint(readCheckpoint(other.path().toStdString()), request);
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            QVERIFY2(QString(error.what()).contains("the config's model has it"), error.what());
        }
    }

    void aModelOutsideTheFamilies() {
        QTemporaryDir dir;
        writeShardedCheckpoint(dir.path(), phi3MiniTensors(), 2, uint64_t(7642159104));
        writeText(dir.filePath("config.json"), kPhi3MiniConfig);
        const Checkpoint c = readCheckpoint(dir.path().toStdString());
        QCOMPARE(c.numel(), int64_t(3821079552));
        QCOMPARE(c.tensorBytes(), uint64_t(7642159104));
        CheckpointScenarioRequest request;
        request.layout = parseParallelLayout("dp_replicate=2,dp_shard=4");
        const CheckpointScenario s = scenarioFromCheckpoint(c, request);
        QVERIFY(!s.notes.empty());  // phi3 is not a known family: shapes taken as they are
        const Scenario scenario = readScenarioJson(s.document);
        QCOMPARE(scenario.params.size(), size_t(2 + 32 * 6 + 1));
        for (const ParamSpec& p : scenario.params)
            QCOMPARE(QString::fromStdString(placementsToString(*p.placements)),
                     QString("[R, S(0)]"));
        // Folded: lm_head, the embedding, one block of 32 layers, the norm (natural order).
        const Json& params = s.document.at("params");
        QCOMPARE(params.size(), size_t(4));
        QCOMPARE(params.at(0).at("name").get<std::string>(), std::string("lm_head.weight"));
        QCOMPARE(params.at(2).at("repeat").get<int>(), 32);
        // TP: the fused projections are named, folded.
        request.layout = parseParallelLayout("dp_shard=4,tp=2");
        try {
            scenarioFromCheckpoint(c, request);
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            const QString message = error.what();
            QVERIFY2(message.contains("tp=2 cannot place 64 tensors"), error.what());
            QVERIFY2(message.contains("model.layers.{i}.self_attn.qkv_proj.weight (i = 0…31)"),
                     error.what());
            QVERIFY2(message.contains("model.layers.{i}.mlp.gate_up_proj.weight (i = 0…31)"),
                     error.what());
        }
        // tp not dividing the heads (from the config, any family).
        request.layout = parseParallelLayout("dp_shard=2,tp=3");
        QVERIFY_THROWS_EXCEPTION(ModelConfigError, scenarioFromCheckpoint(c, request));
    }

    void dtypesAScenarioCannotHoldAreNamed() {
        QTemporaryDir dir;
        writeSafetensors(dir.filePath("model.safetensors").toStdString(),
                         {{"model.layers.0.mlp.down_proj.weight", "F8_E4M3", {8, 8}, {}},
                          {"model.layers.1.mlp.down_proj.weight", "F8_E4M3", {8, 8}, {}},
                          {"model.layers.0.mlp.down_proj.weight_scale_inv", "F32", {1, 1}, {}},
                          {"position_ids", "I64", {1, 16}, {}}},
                         false);
        const Checkpoint c = readCheckpoint(dir.path().toStdString());
        CheckpointScenarioRequest request;
        request.layout = parseParallelLayout("dp_shard=2");
        try {
            scenarioFromCheckpoint(c, request);
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            const QString message = error.what();
            QVERIFY2(message.contains("F8_E4M3: model.layers.{i}.mlp.down_proj.weight (i = 0…1)"),
                     error.what());
            QVERIFY2(message.contains("I64: position_ids"), error.what());
            QVERIFY2(message.contains("--dtype bf16"), error.what());
        }
        request.dtype = DType::BF16;
        const Scenario s = readScenarioJson(scenarioFromCheckpoint(c, request).document);
        for (const ParamSpec& p : s.params) QCOMPARE(p.dtype, DType::BF16);
    }

    void inconsistentFilesAreRefused() {
        QTemporaryDir dir;
        const QString d = dir.path() + "/";
        writeSafetensors((d + "a.safetensors").toStdString(), {{"w", "F32", {2}, {}}}, false);
        writeSafetensors((d + "b.safetensors").toStdString(), {{"w", "F32", {2}, {}}}, false);
        CheckpointError twice = refusal(dir.path().toStdString());
        QCOMPARE(twice.tensor, std::string("w"));
        QVERIFY2(QString(twice.what()).contains("is also in"), twice.what());
        QVERIFY(QString::fromStdString(twice.file).endsWith("b.safetensors"));

        // The index puts a tensor where it is not; lists a file that is missing;
        // misses a tensor a file holds.
        writeSafetensors((d + "b.safetensors").toStdString(), {{"v", "F32", {2}, {}}}, false);
        writeShardIndex((d + "model.safetensors.index.json").toStdString(),
                        {{"w", "b.safetensors"}, {"v", "b.safetensors"}}, 16);
        CheckpointError absent = refusal(dir.path().toStdString());
        QCOMPARE(absent.tensor, std::string("w"));
        QVERIFY2(QString(absent.what())
                     .contains("the index puts it in b.safetensors, which does "
                               "not hold it"),
                 absent.what());
        writeShardIndex((d + "model.safetensors.index.json").toStdString(),
                        {{"w", "b.safetensors"}, {"v", "a.safetensors"}}, 16);
        CheckpointError misplaced = refusal(dir.path().toStdString());
        QCOMPARE(misplaced.tensor, std::string("v"));
        QVERIFY2(QString(misplaced.what()).contains("the index puts it in a.safetensors, but") &&
                     QString(misplaced.what()).contains("b.safetensors holds it"),
                 misplaced.what());
        writeShardIndex((d + "model.safetensors.index.json").toStdString(),
                        {{"w", "a.safetensors"}, {"v", "c.safetensors"}}, 16);
        CheckpointError missing = refusal(dir.path().toStdString());
        QVERIFY(QString::fromStdString(missing.file).endsWith("c.safetensors"));
        writeSafetensors((d + "b.safetensors").toStdString(),
                         {{"v", "F32", {2}, {}}, {"u", "F32", {2}, {}}}, false);
        writeShardIndex((d + "model.safetensors.index.json").toStdString(),
                        {{"w", "a.safetensors"}, {"v", "b.safetensors"}}, 24);
        CheckpointError unlisted = refusal(dir.path().toStdString());
        QCOMPARE(unlisted.tensor, std::string("u"));
        QVERIFY2(QString(unlisted.what()).contains("is not in the index's weight_map"),
                 unlisted.what());
        // A duplicate key in the index, and a file outside its folder.
        writeText(d + "model.safetensors.index.json",
                  R"({"weight_map": {"w": "a.safetensors", "w": "b.safetensors"}})");
        CheckpointError duplicate = refusal(dir.path().toStdString());
        QVERIFY2(QString(duplicate.what()).contains("/weight_map/w: the key \"w\" is given twice"),
                 duplicate.what());
        writeText(d + "model.safetensors.index.json",
                  R"({"weight_map": {"w": "../a.safetensors"}})");
        QVERIFY2(
            QString(refusal(dir.path().toStdString()).what()).contains("in the index's folder"),
            "a path outside the folder");
        // A malformed file in a folder is named with its path.
        QFile::remove(d + "model.safetensors.index.json");
        writeBytes((d + "b.safetensors").toStdString(), safetensorsPrefix("{}", 99));
        CheckpointError malformed = refusal(dir.path().toStdString());
        QVERIFY(QString::fromStdString(malformed.file).endsWith("b.safetensors"));
        QVERIFY2(QString(malformed.what()).contains("goes past the file's end"), malformed.what());
    }

    void foldersResolve() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("sharded"));
        CheckpointError empty = refusal(dir.path().toStdString());
        QVERIFY2(QString(empty.what()).contains("no .safetensors file"), empty.what());
        QVERIFY2(QString(refusal(dir.filePath("nothing-here").toStdString()).what())
                     .contains("No such file"),
                 "missing path");
        // Only sharded/: read from there.
        writeSafetensors(
            dir.filePath("sharded/shard-00001-model-00001-of-00001.safetensors").toStdString(),
            {{"w", "F32", {4}, {0}}}, false);
        const Checkpoint pieces = readCheckpoint(dir.path().toStdString());
        QCOMPARE(pieces.files.size(), size_t(1));
        QCOMPARE(pieces.files[0].rank, int64_t(0));
        // A consolidated file beside sharded/: that one, with a note.
        writeSafetensors(dir.filePath("model.safetensors").toStdString(), {{"w", "F32", {4}, {}}},
                         false);
        const Checkpoint consolidated = readCheckpoint(dir.path().toStdString());
        QVERIFY(QString::fromStdString(consolidated.files[0].path).endsWith("/model.safetensors"));
        QCOMPARE(consolidated.notes.size(), size_t(1));
        QVERIFY(QString::fromStdString(consolidated.notes[0]).contains("sharded"));
    }
};

QTEST_APPLESS_MAIN(TestCheckpointReader)
#include "tst_checkpoint_reader.moc"
