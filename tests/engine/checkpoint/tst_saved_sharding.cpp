// SPDX-License-Identifier: Apache-2.0
// Saved sharding: the pieces PyTorch's Hugging Face storage writer leaves
// (one file per rank, DCP_SHARDING_INFO giving each piece's place) give back
// the placements of the job that wrote them. The tests play that job: each
// rank's DTensor shard by PyTorch's rules (torch.chunk sizes, strided
// shards), replicated pieces kept once on the least loaded holder as the
// writer's deduplication does, written as shard-<rank+1>-model-… files.
// Then fitSavedPlacements and `--from-checkpoint` reconstruct the
// placements on 1-D and 2-D meshes, infer the saved mesh, and name the
// tensors whose pieces fit no placement.
#include <QtTest>

#include <QTemporaryDir>
#include <map>
#include <set>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_error.h"
#include "checkpoint/saved_sharding.h"
#include "checkpoint/scenario_from_checkpoint.h"
#include "hf_config/parallel_layout.h"
#include "hf_config/placement_rules.h"
#include "safetensors_writer.h"
#include "scenario/reader.h"
#include "types/geometry.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

Placement P(const char* text) {
    return *parsePlacement(text);
}

struct JobTensor {
    std::string name;
    std::vector<int64_t> shape;
    std::vector<Placement> placements;
};

// What each rank holds, deduplicated as torch's dedup_save_plans does: each
// distinct piece stays with the holder whose plan is smallest so far.
std::map<int64_t, std::vector<TensorSpec>> saveJob(const std::vector<JobTensor>& tensors,
                                                   const std::vector<int64_t>& mesh) {
    const std::vector<Coord> coords = allCoordinates(mesh);
    std::map<int64_t, std::vector<TensorSpec>> files;
    std::vector<int64_t> planned(coords.size(), 0);
    for (const JobTensor& t : tensors) {
        std::map<std::pair<std::vector<int64_t>, std::vector<int64_t>>, std::vector<int64_t>>
            holders;
        for (size_t r = 0; r < coords.size(); ++r) {
            const ShardLayout layout = shardLayout(t.shape, t.placements, mesh, coords[r]);
            if (layout.localNumel() == 0) continue;
            std::vector<int64_t> offsets;
            for (const IndexSet& d : layout.dims) offsets.push_back(d.front().begin);
            holders[{offsets, layout.localShape()}].push_back(int64_t(r));
        }
        for (const auto& [box, ranks] : holders) {
            const int64_t keeper = *std::min_element(
                ranks.begin(), ranks.end(),
                [&](int64_t a, int64_t b) { return planned[size_t(a)] < planned[size_t(b)]; });
            int64_t numel = 1;
            for (int64_t d : box.second) numel *= d;
            planned[size_t(keeper)] += numel;
            files[keeper].push_back({t.name, "F32", box.second, box.first});
        }
    }
    return files;
}

std::string shardFileName(int64_t rank) {
    return QString::asprintf("shard-%05lld-model-00001-of-00001.safetensors", qlonglong(rank + 1))
        .toStdString();
}

void writeJob(const QString& dir, const std::vector<JobTensor>& tensors,
              const std::vector<int64_t>& mesh) {
    for (const auto& [rank, specs] : saveJob(tensors, mesh))
        writeSafetensors((dir + "/").toStdString() + shardFileName(rank), specs, false);
}

std::vector<TensorPiece> piecesOf(const JobTensor& t, const std::vector<int64_t>& mesh) {
    std::vector<TensorPiece> pieces;
    for (const auto& [rank, specs] : saveJob({t}, mesh))
        for (const TensorSpec& s : specs) pieces.push_back({0, rank, s.savedOffsets, s.shape});
    return pieces;
}

QString text(const std::optional<std::vector<Placement>>& placements) {
    return placements ? QString::fromStdString(placementsToString(*placements)) : QString("none");
}

// name -> placements, from a scenario document.
std::map<std::string, QString> placementsByName(const Json& document) {
    std::map<std::string, QString> out;
    for (const ParamSpec& p : readScenarioJson(document).params)
        out[p.name] = p.placements ? QString::fromStdString(placementsToString(*p.placements))
                                   : QString("none");
    return out;
}

}  // namespace

class TestSavedSharding : public QObject {
    Q_OBJECT
private slots:
    // 1-D: each placement a job could have used is the one found, from any start.
    void oneDimensionalMeshes_data() {
        QTest::addColumn<QString>("placement");
        QTest::addColumn<QVector<qlonglong>>("shape");
        QTest::addColumn<int>("ranks");
        QTest::newRow("rows over 4") << "S(0)" << QVector<qlonglong>{8, 6} << 4;
        QTest::newRow("columns over 4") << "S(1)" << QVector<qlonglong>{8, 6} << 4;
        QTest::newRow("uneven rows, torch.chunk") << "S(0)" << QVector<qlonglong>{10, 3} << 4;
        QTest::newRow("fewer rows than ranks") << "S(0)" << QVector<qlonglong>{3, 2} << 4;
        QTest::newRow("replicated, saved once") << "R" << QVector<qlonglong>{5, 5} << 4;
        QTest::newRow("a vector") << "S(0)" << QVector<qlonglong>{16} << 8;
    }
    void oneDimensionalMeshes() {
        QFETCH(QString, placement);
        QFETCH(QVector<qlonglong>, shape);
        QFETCH(int, ranks);
        const JobTensor t{"w", {shape.begin(), shape.end()}, {P(qPrintable(placement))}};
        const std::vector<int64_t> mesh{ranks};
        for (const char* start : {"R", "S(0)", "S(1)"}) {
            if (t.shape.size() == 1 && std::string(start) == "S(1)") continue;
            const auto found = fitSavedPlacements(t.shape, piecesOf(t, mesh), mesh, {P(start)});
            // With fewer rows than ranks, R and S(0) save the same single piece
            // on rank 0... only when the preferred one says so: both are right.
            if (shape == QVector<qlonglong>{3, 2} && found && found->front() == P("R")) continue;
            QCOMPARE(text(found), text(t.placements));
        }
    }

    // 2-D: TP's Shard(1) under FSDP's Shard(0), FSDP's strided shard of a dim
    // TP split, and HSDP's replicas (which file keeps a piece tells the mesh's order).
    void twoDimensionalMeshes_data() {
        QTest::addColumn<QString>("placements");
        QTest::addColumn<QVector<qlonglong>>("mesh");
        QTest::newRow("dp_shard x tp, row-wise") << "S(0),S(1)" << QVector<qlonglong>{2, 2};
        QTest::newRow("dp_shard x tp, column-wise strided")
            << "_StridedShard(dim=0, sf=2),S(0)" << QVector<qlonglong>{2, 2};
        QTest::newRow("dp_shard x tp, strided 4x2")
            << "_StridedShard(dim=0, sf=2),S(0)" << QVector<qlonglong>{4, 2};
        QTest::newRow("HSDP 2 x 4") << "R,S(0)" << QVector<qlonglong>{2, 4};
        QTest::newRow("HSDP 4 x 2") << "R,S(0)" << QVector<qlonglong>{4, 2};
        QTest::newRow("norm over tp") << "S(0),R" << QVector<qlonglong>{4, 2};
    }
    void twoDimensionalMeshes() {
        QFETCH(QString, placements);
        QFETCH(QVector<qlonglong>, mesh);
        std::vector<Placement> want;
        for (const QString& p : placements.split(QRegularExpression(",(?![^()]*\\))")))
            want.push_back(P(qPrintable(p)));
        const JobTensor t{"w", {16, 8}, want};
        const std::vector<int64_t> m(mesh.begin(), mesh.end());
        const auto found = fitSavedPlacements(t.shape, piecesOf(t, m), m, {P("R"), P("R")});
        QCOMPARE(text(found), text(want));
        // Plain Shard(0) x Shard(0) and the strided layout hold the same
        // pieces on different ranks: the writers tell them apart.
        if (want[0].kind == Placement::Kind::StridedShard) {
            const JobTensor plain{"w", {16, 8}, {P("S(0)"), P("S(0)")}};
            QCOMPARE(text(fitSavedPlacements(plain.shape, piecesOf(plain, m), m, want)),
                     text(plain.placements));
        }
    }

    void piecesNoPlacementMakesAreRefused() {
        // Rows 0-3 and 3-8 on two ranks: torch.chunk would cut at 4.
        const std::vector<TensorPiece> uneven = {{0, 0, {0, 0}, {3, 8}}, {0, 1, {3, 0}, {5, 8}}};
        QVERIFY(!fitSavedPlacements({8, 8}, uneven, {2}, {P("S(0)")}));
        // The right cut on the wrong ranks.
        const std::vector<TensorPiece> swapped = {{0, 1, {0, 0}, {4, 8}}, {0, 0, {4, 0}, {4, 8}}};
        QVERIFY(!fitSavedPlacements({8, 8}, swapped, {2}, {P("S(0)")}));
        // A piece where a replicated tensor's holder has the whole.
        const std::vector<TensorPiece> half = {{0, 0, {0, 0}, {4, 8}}, {0, 1, {4, 0}, {4, 8}}};
        QVERIFY(!fitSavedPlacements({8, 8}, half, {4}, {P("R")}));
    }

    // A job's files, read back by --from-checkpoint: the saved mesh inferred
    // (2-D: dp_shard x tp from the TP rules' tensors) and every placement as saved.
    void aJobsFilesGiveItsPlacementsBack_data() {
        QTest::addColumn<QString>("layout");
        QTest::newRow("1-D FSDP") << "dp_shard=4";
        QTest::newRow("HSDP") << "dp_replicate=2,dp_shard=2";
        QTest::newRow("FSDP x TP") << "dp_shard=2,tp=2";
    }
    void aJobsFilesGiveItsPlacementsBack() {
        QFETCH(QString, layout);
        const ParallelLayout l = parseParallelLayout(layout.toStdString());
        const bool tp = l.tp > 1, hsdp = l.dpReplicate > 1;
        const Placement R = P("R"), S0 = P("S(0)"), S1 = P("S(1)");
        const auto on = [&](Placement fsdp, Placement onTp) {
            std::vector<Placement> p;
            if (hsdp) p.push_back(R);
            p.push_back(fsdp);
            if (tp) p.push_back(onTp);
            return p;
        };
        std::vector<JobTensor> job;
        const Placement colFsdp = tp ? P("_StridedShard(dim=0, sf=2)") : S0;
        for (int i = 0; i < 3; ++i) {
            const std::string p = "model.layers." + std::to_string(i) + ".";
            job.push_back({p + "self_attn.q_proj.weight", {16, 8}, on(colFsdp, S0)});
            job.push_back({p + "self_attn.o_proj.weight", {8, 16}, on(S0, S1)});
            job.push_back({p + "input_layernorm.weight", {8}, on(S0, R)});
        }
        QTemporaryDir dir;
        writeJob(dir.path(), job, denseMesh(l).shape);
        const Checkpoint checkpoint = readCheckpoint(dir.path().toStdString());
        QVERIFY(checkpoint.savedSharding);
        QCOMPARE(checkpoint.writers, l.worldSize());
        const CheckpointScenario inferred = scenarioFromCheckpoint(checkpoint, {});
        QVERIFY(inferred.savedSharding);
        QCOMPARE(inferred.layout.dpReplicate, l.dpReplicate);
        QCOMPARE(inferred.layout.dpShard, l.dpShard);
        QCOMPARE(inferred.layout.tp, l.tp);
        const auto found = placementsByName(inferred.document);
        for (const JobTensor& t : job) QCOMPARE(found.at(t.name), text(t.placements));
        // Named by --mesh, the same.
        CheckpointScenarioRequest named;
        named.layout = l;
        QCOMPARE(placementsByName(scenarioFromCheckpoint(checkpoint, named).document), found);
        // Folded: the three identical layers are one block.
        QCOMPARE(inferred.document["params"].size(), size_t(1));
        QCOMPARE(inferred.document["params"][0]["repeat"].get<int>(), 3);
    }

    void aMeshThePiecesDoNotFitNamesTheTensorsAndPieces() {
        QTemporaryDir dir;
        // Saved by dp_shard=4; --mesh says dp_shard=8. (On dp_shard=2,tp=2 the
        // same pieces would fit: Shard(0) twice cuts as Shard(0) over 4 does.)
        writeJob(dir.path(),
                 {{"model.norm.weight", {8}, {P("S(0)")}}, {"lm_head.weight", {8, 4}, {P("S(1)")}}},
                 {4});
        const Checkpoint checkpoint = readCheckpoint(dir.path().toStdString());
        CheckpointScenarioRequest request;
        request.layout = parseParallelLayout("dp_shard=2,tp=2");
        QCOMPARE(placementsByName(scenarioFromCheckpoint(checkpoint, request).document)
                     .at("lm_head.weight"),
                 QString("[S(1), S(1)]"));
        request.layout = parseParallelLayout("dp_shard=8");
        try {
            scenarioFromCheckpoint(checkpoint, request);
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            const QString message = error.what();
            QVERIFY2(message.contains("fit no DTensor placement on dp_shard=8"), error.what());
            // lm_head's four columns fit Shard(1) over 8 (ranks 4-7 empty); the norm's do not.
            QVERIFY2(message.contains("the saved pieces of 1 tensor fit no"), error.what());
            QVERIFY2(message.contains("model.norm.weight [0:2] (rank 0), [2:4] (rank 1), [4:6] "
                                      "(rank 2), [6:8] (rank 3)"),
                     error.what());
        }
        // Too few ranks for the writers.
        request.layout = parseParallelLayout("dp_shard=2");
        QVERIFY_THROWS_EXCEPTION(CheckpointError, scenarioFromCheckpoint(checkpoint, request));
        // Afresh on any mesh, when asked.
        request.ignoreSavedSharding = true;
        const auto fresh = scenarioFromCheckpoint(checkpoint, request);
        QVERIFY(!fresh.savedSharding);
        QCOMPARE(placementsByName(fresh.document).at("lm_head.weight"), QString("[S(0)]"));
    }

    void irregularPiecesAreNamed() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString() + "/";
        // Three pieces that tile [4, 4] without a grid.
        writeSafetensors(d + shardFileName(0), {{"w", "F32", {2, 4}, {0, 0}}}, false);
        writeSafetensors(d + shardFileName(1), {{"w", "F32", {2, 2}, {2, 0}}}, false);
        writeSafetensors(d + shardFileName(2), {{"w", "F32", {2, 2}, {2, 2}}}, false);
        const Checkpoint checkpoint = readCheckpoint(dir.path().toStdString());
        QVERIFY(checkpoint.tensors[0].irregularPieces);
        try {
            scenarioFromCheckpoint(checkpoint, {});
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            QVERIFY2(QString(error.what())
                         .contains("w [0:2, 0:4] (rank 0), [2:4, 0:2] (rank 1), "
                                   "[2:4, 2:4] (rank 2)"),
                     error.what());
        }
    }

    void overlappingAndMissingPiecesAreRefused() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString() + "/";
        writeSafetensors(d + shardFileName(0), {{"w", "F32", {3, 4}, {0, 0}}}, false);
        writeSafetensors(d + shardFileName(1), {{"w", "F32", {2, 4}, {2, 0}}}, false);
        QVERIFY_THROWS_EXCEPTION(CheckpointError, readCheckpoint(dir.path().toStdString()));
        writeSafetensors(d + shardFileName(1), {{"w", "F32", {1, 4}, {4, 0}}},
                         false);  // row 3 missing
        try {
            readCheckpoint(dir.path().toStdString());
            QFAIL("accepted");
        } catch (const CheckpointError& error) {
            QCOMPARE(error.tensor, std::string("w"));
            QVERIFY2(QString(error.what()).contains("hold 16 of its 20 elements"), error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestSavedSharding)
#include "tst_saved_sharding.moc"
