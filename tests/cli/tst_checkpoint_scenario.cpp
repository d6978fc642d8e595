// SPDX-License-Identifier: Apache-2.0
// `hsdp-inspect scenario --from-checkpoint` as a user runs it: a checkpoint
// folder of a model outside --from-config's families (Gemma-2-2B, sparse
// shards and its config) becomes in one command a scenario that plans and
// runs verified; Phi-3-mini's fused projections are named when tp asks for
// them; a job's per-rank files give the saved placements; a malformed header
// is exit 2 naming the file and the tensor (every kind the reader refuses).
#include <QtTest>

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "checkpoint_recipes.h"
#include "cli_process.h"

using namespace hsdp::testing;

namespace {

void writeText(const QString& path, const char* text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

}  // namespace

class TestCheckpointScenario : public QObject {
    Q_OBJECT
private slots:
    void aModelOutsideTheFamiliesPlansAndRunsVerified() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("gemma-2-2b"));
        const QString ckpt = dir.filePath("gemma-2-2b");
        writeShardedCheckpoint(ckpt, gemma2_2bTensors(), 2, uint64_t(5228683776));
        writeText(ckpt + "/config.json", kGemma2_2bConfig);
        const QString scenario = dir.filePath("gemma.json");
        auto made = inspect({"scenario", "--from-checkpoint", ckpt, "--mesh", "dp_shard=2,tp=2",
                             "--tp-plan", "torchtitan", "-o", scenario});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        QVERIFY2(made.out.contains("288 parameters, 2614341888 elements, 6 TP transitions"),
                 made.out.constData());
        QVERIFY2(made.out.contains("read the headers of 2 safetensors files"),
                 made.out.constData());
        // gemma2 is not a family the shapes are checked against: said, not refused.
        QVERIFY2(made.err.contains("note: ") && made.err.contains("gemma2"), made.err.constData());
        auto plan = inspect({"plan", scenario});
        QVERIFY2(plan.exitCode == 0, plan.out.constData());
        QVERIFY(plan.out.contains("world size 4"));
        auto run = inspect({"run", scenario, "--max-bytes", "256MiB"});
        QVERIFY2(run.exitCode == 0, run.out.constData());
        QVERIFY2(run.out.contains("VERIFIED") && run.out.contains("288 exact"),
                 run.out.constData());
        QVERIFY(run.out.contains("tp transitions: 6 of 6 exact"));
    }

    void phi3sFusedProjectionsCannotTakeTp() {
        QTemporaryDir dir;
        writeShardedCheckpoint(dir.path(), phi3MiniTensors(), 2, uint64_t(7642159104));
        writeText(dir.filePath("config.json"), kPhi3MiniConfig);
        const QString scenario = dir.filePath("phi3-fsdp.json");
        auto fsdp =
            inspect({"scenario", "--from-checkpoint", dir.filePath("model.safetensors.index.json"),
                     "--mesh", "dp_replicate=2,dp_shard=4", "-o", scenario});
        QCOMPARE(fsdp.exitCode, 0);
        QVERIFY2(fsdp.out.contains("195 parameters, 3821079552 elements"), fsdp.out.constData());
        auto plan = inspect({"plan", scenario});
        QVERIFY2(plan.exitCode == 0, plan.out.constData());
        auto tp = inspect({"scenario", "--from-checkpoint", dir.path(), "--mesh", "dp_shard=4,tp=2",
                           "-o", dir.filePath("phi3.json")});
        QCOMPARE(tp.exitCode, 2);
        QVERIFY2(tp.err.contains("tp=2 cannot place 64 tensors") &&
                     tp.err.contains("model.layers.{i}.self_attn.qkv_proj.weight (i = 0…31)"),
                 tp.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("phi3.json")));
    }

    void aJobsPiecesGiveItsPlacements() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString() + "/";
        // FSDP over 4 ranks: rows of a [8, 4] weight, the norm's 4 elements.
        for (int r = 0; r < 4; ++r)
            writeSafetensors(
                d + QString::asprintf("shard-%05d-model-00001-of-00001.safetensors", r + 1)
                        .toStdString(),
                {{"model.layers.0.mlp.up_proj.weight", "BF16", {2, 4}, {2 * r, 0}},
                 {"model.norm.weight", "BF16", {1}, {r}}},
                false);
        auto made = inspect({"scenario", "--from-checkpoint", dir.path(), "-o", "-"});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        QVERIFY2(made.err.contains("saved mesh inferred from the pieces of the 4 ranks that wrote "
                                   "them: dp_shard=4"),
                 made.err.constData());
        QVERIFY(made.out.contains("\"dim_names\": [\"dp_shard\"]"));
        QVERIFY(made.out.contains("[8, 4], \"dtype\": \"bf16\", \"placements\": [\"Shard(0)\"]"));
    }

    void aMalformedHeaderIsExit2NamingFileAndTensor() {
        QTemporaryDir dir;
        const QString file = dir.filePath("model.safetensors");
        const std::string json =
            safetensorsHeaderJson({{"a", "F32", {2}, {}}, {"b", "F32", {2}, {}}});
        std::string bytes = safetensorsBytes(json, 16);
        bytes.replace(bytes.find("[8,16]"), 6, "[4,12]");
        writeBytes(file.toStdString(), bytes);
        auto refused =
            inspect({"scenario", "--from-checkpoint", file, "--mesh", "dp_shard=2", "-o", "-"});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(file.toUtf8() + ": tensor b: data_offsets [4, 12) overlap "
                                                      "tensor a's [0, 8)"),
                 refused.err.constData());
        QVERIFY(refused.out.isEmpty());
    }

    // Every kind of malformed header the reader refuses, end to end: exit 2,
    // nothing written, the message names the file (and the tensor, where
    // the fault is a tensor's).
    void everyMalformedHeaderIsExit2_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<qint64>("fileSize");
        QTest::addColumn<QString>("named");
        const auto tensor = [](const char* name, const char* dtype, const char* shape, int begin,
                               int end) {
            return std::string("\"") + name + "\": {\"dtype\": \"" + dtype +
                   "\", \"shape\": " + shape + ", \"data_offsets\": [" + std::to_string(begin) +
                   ", " + std::to_string(end) + "]}";
        };
        const auto add = [](const char* tag, const std::string& bytes, qint64 size,
                            const char* named) {
            QTest::newRow(tag) << QByteArray::fromStdString(bytes) << size << QString(named);
        };
        const auto file = [&](const char* tag, const std::string& json, qint64 data,
                              const char* named) {
            const std::string bytes = safetensorsPrefix(json);
            add(tag, bytes, qint64(bytes.size()) + data, named);
        };
        add("header over 100 MiB", safetensorsPrefix("{}", (uint64_t(100) << 20) + 1),
            qint64(101) << 20, "is more than the 100 MiB");
        add("length past the end", safetensorsPrefix("{}", 1000), 100, "goes past the file's end");
        file("header not an object", "[1, 2]  ", 0, ": the header is an array");
        file("invalid UTF-8", "{\"w\": {\"dtype\": \"F\xc3\x28\"}}", 0, ": tensor w: ");
        file("duplicate name",
             "{" + tensor("w", "F32", "[1]", 0, 4) + ", " + tensor("w", "F32", "[1]", 4, 8) + "}",
             8, ": tensor w: ");
        file("unknown dtype", "{" + tensor("w", "Q8", "[1]", 0, 1) + "}", 1, ": tensor w: ");
        file("offsets out of the file", "{" + tensor("w", "F32", "[4]", 0, 16) + "}", 8,
             ": tensor w: ");
        file("overlap",
             "{" + tensor("a", "F32", "[2]", 0, 8) + ", " + tensor("b", "F32", "[2]", 4, 12) + "}",
             12, ": tensor b: ");
    }

    void everyMalformedHeaderIsExit2() {
        QFETCH(QByteArray, bytes);
        QFETCH(qint64, fileSize);
        QFETCH(QString, named);
        QTemporaryDir dir;
        const QString path = dir.filePath("model.safetensors");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        QVERIFY(file.resize(fileSize));  // sparse past the bytes written
        file.close();
        const QString out = dir.filePath("scenario.json");
        auto refused =
            inspect({"scenario", "--from-checkpoint", path, "--mesh", "dp_shard=2", "-o", out});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(path.toUtf8()) && refused.err.contains(named.toUtf8()),
                 refused.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    // The shipped recipes give the published counts, and the shipped tiny
    // checkpoint is what its recipe writes.
    void theSamplesRecipes() {
        const QString python = QStandardPaths::findExecutable("python3");
        QVERIFY2(!python.isEmpty(),
                 "python3 is missing: run scripts/bootstrap (it installs python3)");
        const QString samples = QStringLiteral(HSDP_SOURCE_DIR "/samples/checkpoints/");
        QTemporaryDir dir;
        const std::pair<const char*, const char*> recipes[] = {
            {"phi-3-mini-4k", "195 parameters, 3821079552 elements"},
            {"gemma-2-2b", "288 parameters, 2614341888 elements"},
            {"tiny-phi3", "27 parameters, 57632 elements"}};
        for (const auto& [recipe, counts] : recipes) {
            const QString out = dir.filePath(recipe);
            QStringList args = {samples + "make_checkpoint.py", samples + recipe + ".json", out};
            if (QString(recipe) == "tiny-phi3") args << "--data";
            auto made = runProgram(python, args);
            QVERIFY2(made.exitCode == 0, made.err.constData());
            auto scenario = inspect({"scenario", "--from-checkpoint", out, "--mesh", "dp_shard=2",
                                     "-o", dir.filePath(QString(recipe) + ".scenario.json")});
            QVERIFY2(scenario.out.contains(counts), scenario.out.constData());
        }
        for (const char* file : {"model.safetensors", "config.json"}) {
            QFile shipped(samples + "tiny-phi3/" + file),
                written(dir.filePath("tiny-phi3/") + file);
            QVERIFY(shipped.open(QIODevice::ReadOnly) && written.open(QIODevice::ReadOnly));
            QVERIFY2(shipped.readAll() == written.readAll(), file);
        }
    }

    void usage() {
        auto help = inspect({"scenario", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--from-checkpoint PATH"));
        auto both = inspect({"scenario", "--from-config", "x.json", "--from-checkpoint", "y",
                             "--mesh", "dp_shard=2", "-o", "-"});
        QCOMPARE(both.exitCode, 2);
        QVERIFY(both.err.contains("not both"));
        auto noMesh =
            inspect({"scenario", "--from-checkpoint", HSDP_SOURCE_DIR "/README.md", "-o", "-"});
        QCOMPARE(noMesh.exitCode, 2);
        QVERIFY2(noMesh.err.contains("README.md"), noMesh.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCheckpointScenario)
#include "tst_checkpoint_scenario.moc"
