// SPDX-License-Identifier: Apache-2.0
// The mesh view rendered into QImages for every sample and mesh: one cell per
// rank, each cell painted in the heat colour of the Newton–Schulz numel its
// rank computes, the selection's owner ranks outlined (and no others), the
// ranks that run the selected param's Newton–Schulz flagged (and no others),
// the tooltip naming what a rank holds, gathers and computes, labels dropped
// before cells at 8,192 ranks; with a cluster, its nodes outlined where the
// ranks on either side of a cell edge run on different nodes; the mesh and
// dim choices above it show their whole text.
#include <QComboBox>
#include <QDir>
#include <QPainter>
#include <QStyleOptionComboBox>
#include <QtTest>
#include <algorithm>
#include <set>

#include "cluster/reader.h"
#include "derived/plan/plan_index.h"
#include "derived/run/plan_prediction.h"
#include "mesh/mesh_canvas.h"
#include "mesh/mesh_widget.h"
#include "mixed_optimizer_scenario.h"
#include "run/runner.h"
#include "run_budget.h"
#include "sample_rows.h"
#include "scenario/reader.h"
#include "view_fit.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

const QSize kImageSize(1200, 800);
const QColor kOwnerColor(0xe6, 0x61, 0x00);

QRectF deviceRect(const MeshCanvas& view, const MeshCell& cell) {
    return view.fitTransform(kImageSize).mapRect(cell.rect);
}

// Does the horizontal line through the cell's middle, in the band where the
// owner outline is drawn, hold the owner colour?
bool hasOwnerOutline(const QImage& image, const QRectF& box) {
    double scale = std::clamp(box.width() / 48.0, 0.35, 1.5);
    double width = std::max(1.0, 3 * scale);
    double inset = 7 * scale + width / 2;
    int y = static_cast<int>(box.center().y());
    for (int x = static_cast<int>(box.left() + inset) - 2;
         x <= static_cast<int>(box.left() + inset) + 2; ++x)
        if (image.pixelColor(x, y) == kOwnerColor) return true;
    return false;
}

std::vector<int> ownersFromPlan(const Plan& plan, int param) {
    std::vector<int> ranks;
    for (const RankOwnership& rank : plan.ranks)
        if (std::binary_search(rank.owned.begin(), rank.owned.end(), param))
            ranks.push_back(rank.rank);
    return ranks;
}

// The ranks that run `param`'s Newton–Schulz, from the plan's decisions and
// the mesh coordinates: in a gathered batch the rank of each owning replica
// at the param's shard-compute coordinate, else every rank of the owner.
std::vector<int> newtonSchulzRanks(const Plan& plan, const Mesh& mesh, int param) {
    const Group& group = *plan.groupOf(param);
    std::vector<int> ranks;
    for (const Batch& batch : group.batches) {
        auto owner = batch.owner.find(param);
        if (owner == batch.owner.end()) continue;
        for (int rank : mesh.ranks) {
            Coord coord = *mesh.coordinateOf(rank);
            Coord replicate, shard;
            for (size_t j = 0; j < group.replicateMeshDims.size(); ++j)
                replicate.push_back(coord[static_cast<size_t>(group.replicateMeshDims[j])] %
                                    batch.replicateSizes[j]);
            for (int d : group.shardMeshDims) shard.push_back(coord[static_cast<size_t>(d)]);
            if (replicate != owner->second) continue;
            bool runs = !batch.isShard;
            for (const ShardCompute& sc : batch.shardCompute)
                runs =
                    runs || (sc.replicateCoord == replicate && sc.computeCoord.at(param) == shard);
            if (runs) ranks.push_back(rank);
        }
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

const QColor kComputeColor(0xff, 0xc4, 0x00);

int pixelsOf(const QImage& image, const QColor& color) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) count += image.pixelColor(x, y) == color;
    return count;
}

// For every pair of neighbouring cells: is the middle of their shared edge
// drawn in the node colour exactly when `nodeOf` puts them on different nodes?
void checkNodeEdges(const MeshCanvas& view, const QImage& image,
                    const std::function<int(int)>& nodeOf) {
    const auto& cells = view.meshLayout().cells();
    int boundaries = 0;
    for (size_t c = 0; c < cells.size(); ++c) {
        const QRectF box = QRectF(deviceRect(view, cells[c]).toRect());
        for (auto [dr, dc] : {std::pair{0, 1}, std::pair{1, 0}}) {
            int n = view.meshLayout().neighbour(static_cast<int>(c), dr, dc);
            if (n < 0) continue;
            const QPoint probe = dc ? QPoint(int(box.right()), int(box.center().y()))
                                    : QPoint(int(box.center().x()), int(box.bottom()));
            const bool differ = nodeOf(cells[c].rank) != nodeOf(cells[size_t(n)].rank);
            boundaries += differ;
            QVERIFY2((image.pixelColor(probe) == MeshCanvas::nodeColor()) == differ,
                     qPrintable(QStringLiteral("ranks %1 and %2")
                                    .arg(cells[c].rank)
                                    .arg(cells[size_t(n)].rank)));
        }
    }
    QVERIFY(boundaries > 0);  // the case tests something
}

}  // namespace

class TestMeshView : public QObject {
    Q_OBJECT
private slots:
    void samples_data();
    void oneCellPerRankInItsHeatColour_data() { samples_data(); }
    void oneCellPerRankInItsHeatColour();
    void selectionOutlinesTheOwnerRanks_data() { samples_data(); }
    void selectionOutlinesTheOwnerRanks();
    void newtonSchulzRanksAreFlagged_data() { samples_data(); }
    void newtonSchulzRanksAreFlagged();
    void aRunsFaultyRanksAreMarked();
    void toolTipNamesHeldGatheredComputed();
    void toolTipNamesAdamWParams();
    void dimChoiceAndSmallMultiples();
    void labelsGoBeforeCellsAt8192Ranks();
    void aLongRowOfRanksIsNumbered();
    void longThinMeshesWrap_data();
    void longThinMeshesWrap();
    void heatScaleIsOrdered();
    void aLogScaleSaysSo();
    void smallLoadsBesideLargeOnesStayBlue();
    void nodesAreOutlinedWhereRanksChangeNode();
    void choicesShowTheirWholeText_data();
    void choicesShowTheirWholeText();
};

void TestMeshView::samples_data() {
    testing::addSampleRows();
}

void TestMeshView::oneCellPerRankInItsHeatColour() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    for (size_t m = 0; m < result.scenario->meshes.size(); ++m) {
        const Mesh& mesh = result.scenario->meshes[m];
        view.setMesh(static_cast<int>(m));
        QImage image = view.renderImage(kImageSize);
        const auto& cells = view.meshLayout().cells();
        QCOMPARE(static_cast<int64_t>(cells.size()), mesh.size());
        if (mesh.size() == result.plan->worldSize)
            QCOMPARE(static_cast<int>(cells.size()), result.plan->worldSize);
        std::set<int> ranks;
        for (const MeshCell& cell : cells) {
            QVERIFY(ranks.insert(cell.rank).second);
            QCOMPARE(mesh.rankAt(cell.coord), cell.rank);
            QRectF box = deviceRect(view, cell);
            QPoint probe =
                (box.topLeft() + QPointF(box.width() * 0.15, box.height() * 0.15)).toPoint();
            int64_t computed = result.plan->ranks.at(static_cast<size_t>(cell.rank)).computedNumel;
            QCOMPARE(image.pixelColor(probe), view.heatScale().colorFor(computed));
        }
    }
}

void TestMeshView::selectionOutlinesTheOwnerRanks() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    int param = mostInterestingPlannedParam(*result.scenario, *result.plan);
    QVERIFY(param >= 0);
    QVERIFY(result.plan->groupOf(param));  // every sample has a grouped param to show
    selection.selectParam(param);
    std::vector<int> owners = ownersFromPlan(*result.plan, param);
    QCOMPARE(view.overlay().ownerRanks, owners);
    const Mesh* mesh = view.mesh();
    QCOMPARE(mesh->name,
             result.scenario->params[static_cast<size_t>(param)].mesh);  // followed the param
    QImage image = view.renderImage(kImageSize);
    std::set<int> ownerSet(owners.begin(), owners.end());
    for (const MeshCell& cell : view.meshLayout().cells())
        QCOMPARE(hasOwnerOutline(image, deviceRect(view, cell)), ownerSet.count(cell.rank) == 1);
    // The replicate group runs over the replicate dims through the first owner.
    const Group& group =
        result.plan
            ->groups[static_cast<size_t>(result.index->params[static_cast<size_t>(param)].group)];
    int64_t expected = 1;
    for (int d : group.replicateMeshDims) expected *= mesh->dimSize(d);
    QCOMPARE(static_cast<int64_t>(view.overlay().replicateGroup.size()),
             group.replicateMeshDims.empty() ? 0 : expected);
    Coord anchor = *mesh->coordinateOf(owners.front());
    for (int rank : view.overlay().replicateGroup)
        for (int d : group.shardMeshDims)
            QCOMPARE((*mesh->coordinateOf(rank))[static_cast<size_t>(d)],
                     anchor[static_cast<size_t>(d)]);
}

void TestMeshView::newtonSchulzRanksAreFlagged() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    int flagged = 0;
    for (const Group& group : result.plan->groups)
        for (int param : group.params) {
            selection.selectParam(param);
            const Mesh& mesh = *view.mesh();
            std::vector<int> expected = newtonSchulzRanks(*result.plan, mesh, param);
            QCOMPARE(view.overlay().computeRanks, expected);
            if (expected.empty() || flagged >= 3) continue;  // frozen: nobody computes it
            ++flagged;
            QImage image = view.renderImage(kImageSize);
            std::set<int> runs(expected.begin(), expected.end());
            double cellPixels = MeshLayout::kCellSize * view.fitTransform(kImageSize).m11();
            for (const MeshCell& cell : view.meshLayout().cells()) {
                QRectF mark = MeshCanvas::computeMarkRect(deviceRect(view, cell), cellPixels);
                if (mark.width() < 10) continue;
                QPoint inside = (mark.topRight() + QPointF(-0.3, 0.3) * mark.width()).toPoint();
                QCOMPARE(image.pixelColor(inside) == kComputeColor, runs.count(cell.rank) == 1);
            }
        }
    QVERIFY(flagged > 0);
}

// A run that failed on rank 2 (an injected transfer fault): the mesh marks
// that rank's cell, and only the ranks the run found at fault, names them in
// the tooltip and the legend, and drops the marks for another plan.
void TestMeshView::aRunsFaultyRanksAreMarked() {
    RunData run;
    run.plan = computePlanResult(sample("teaching_2x2.json"));
    RunOptions options;
    options.fault = FaultSpec{2, 3};
    run.run =
        std::make_shared<const RunResult>(runPlan(*run.plan.scenario, *run.plan.plan, options));
    QCOMPARE(run.run->errorRank, 2);
    std::set<int> faulty{2};
    for (const ParamRunResult& p : run.run->params)
        for (const Mismatch& m : p.mismatches) faulty.insert(m.rank);
    QVERIFY(faulty.size() < 4);  // some rank is not at fault
    PlanSelection selection;
    MeshWidget widget(&selection);
    widget.showPlan(run.plan);
    widget.showRun(run);
    MeshCanvas& view = *widget.canvas();
    QCOMPARE(std::set<int>(view.faults().ranks.begin(), view.faults().ranks.end()), faulty);
    QVERIFY2(view.faults().label.startsWith(QStringLiteral("wrong or failed in the run")),
             qPrintable(view.faults().label));
    QVERIFY2(view.toolTipFor(2).contains(QStringLiteral("the run failed here")),
             qPrintable(view.toolTipFor(2)));
    const QImage image = view.renderImage(kImageSize);
    const double cellPixels = MeshLayout::kCellSize * view.fitTransform(kImageSize).m11();
    for (const MeshCell& cell : view.meshLayout().cells()) {
        const QRectF mark = MeshCanvas::faultMarkRect(deviceRect(view, cell), cellPixels);
        // Inside its cell, off the corner four cells share.
        QVERIFY(mark.left() > deviceRect(view, cell).left() &&
                mark.bottom() < deviceRect(view, cell).bottom());
        const QPoint inside = QPointF(mark.left() + 1, mark.center().y()).toPoint();
        QCOMPARE(image.pixelColor(inside) == MeshCanvas::faultColor(),
                 faulty.count(cell.rank) == 1);
    }
    // A short canvas with every legend line (a selection's outlines, the
    // compute flag, the fault mark) keeps the legend whole: nothing is drawn
    // in its strip's last pixels, where a cut line would be.
    selection.selectParam(0);
    const QSize shortSize(520, 240);
    const QImage shortImage = view.renderImage(shortSize);
    const QColor base = shortImage.pixelColor(shortSize.width() - 2, shortSize.height() - 2);
    for (int y = shortSize.height() - 6; y < shortSize.height(); ++y)
        for (int x = shortSize.width() - int(MeshCanvas::kLegendWidth); x < shortSize.width(); ++x)
            QVERIFY2(
                shortImage.pixelColor(x, y) == base,
                qPrintable(QStringLiteral("ink at %1,%2 of the legend's strip").arg(x).arg(y)));
    selection.clear();

    widget.showPlan(computePlanResult(sample("diagnostics_tour.json")));
    QVERIFY(widget.canvas()->faults().isEmpty());

    // A selected param the run found wrong narrows the marks to its own wrong
    // ranks (all four stayed marked for a param wrong on two), and says so.
    RunData tour;
    tour.plan = computePlanResult(sample("diagnostics_tour.json"));
    RunOptions reference;
    reference.mode = RunMode::Reference;
    tour.run = std::make_shared<const RunResult>(
        runPlan(*tour.plan.scenario, *tour.plan.plan, testing::budgetedRunOptions(reference)));
    widget.showPlan(tour.plan);
    widget.showRun(tour);
    std::set<int> wholeRun;
    for (const ParamRunResult& p : tour.run->params)
        for (const Mismatch& m : p.mismatches) wholeRun.insert(m.rank);
    if (tour.run->errorRank >= 0) wholeRun.insert(tour.run->errorRank);
    const auto marked = [&] {
        const auto& ranks = widget.canvas()->faults().ranks;
        return std::set<int>(ranks.begin(), ranks.end());
    };
    QCOMPARE(marked(), wholeRun);
    int narrower = -1;
    std::set<int> itsRanks;
    for (size_t i = 0; i < tour.run->params.size() && narrower < 0; ++i) {
        std::set<int> ranks;
        for (const Mismatch& m : tour.run->params[i].mismatches)
            if (m.rank >= 0) ranks.insert(m.rank);
        if (!ranks.empty() && ranks.size() < wholeRun.size()) narrower = int(i), itsRanks = ranks;
    }
    QVERIFY2(narrower >= 0, "no param of the tour is wrong on fewer ranks than the run");
    if (tour.run->errorRank >= 0) itsRanks.insert(tour.run->errorRank);
    selection.selectParam(narrower);
    QCOMPARE(marked(), itsRanks);
    QVERIFY2(widget.canvas()->faults().label.startsWith(
                 QStringLiteral("wrong in the run for %1")
                     .arg(QString::fromStdString(tour.run->params[size_t(narrower)].name))),
             qPrintable(widget.canvas()->faults().label));
    selection.clear();
    QCOMPARE(marked(), wholeRun);
}

void TestMeshView::toolTipNamesHeldGatheredComputed() {
    PlanResult result = computePlanResult(sample("llama3_70b_hsdp_tp_2x4x4.json"));
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    const RankOwnership& r = result.plan->ranks[20];
    QString tip = view.toolTipFor(20);
    auto count = [](int64_t n) { return humanCount(static_cast<double>(n)); };
    QVERIFY2(tip.contains(QStringLiteral("holds %1 elements").arg(count(r.heldNumel))),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("gathers %1 elements").arg(count(r.gatheredNumel))),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("runs Newton–Schulz on %1 params, %2 elements")
                              .arg(r.computed.size())
                              .arg(count(r.computedNumel))),
             qPrintable(tip));
    QVERIFY(!tip.contains(QStringLiteral("<br>owns")));  // owning is not a per-rank load
}

// A rank's AdamW params (issue 44): it updates its own shards, no
// Newton–Schulz on them; a Muon-only plan's tooltip says nothing of AdamW.
void TestMeshView::toolTipNamesAdamWParams() {
    PlanResult result = computePlanResult(readScenario(testing::kMixedOptimizerScenario));
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    const QString tip = view.toolTipFor(1);
    QVERIFY2(tip.contains(QStringLiteral("updates 2 AdamW params itself, 72 elements of its "
                                         "shards (no communication)")),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("&nbsp;&nbsp;embed")) &&
                 tip.contains(QStringLiteral("&nbsp;&nbsp;norm")),
             qPrintable(tip));
    view.setResult(computePlanResult(sample("teaching_2x2.json")));
    QVERIFY(!view.toolTipFor(1).contains(QStringLiteral("AdamW")));
}

void TestMeshView::dimChoiceAndSmallMultiples() {
    PlanResult result = computePlanResult(sample("llama3_70b_hsdp_tp_2x4x4.json"));
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    QCOMPARE(view.meshLayout().panels().size(), size_t(2));  // dp_replicate as small multiples
    view.setDims(0, 1);                                      // rows dp_replicate, columns dp_shard
    QCOMPARE(view.meshLayout().panels().size(), size_t(4));  // one per tp coordinate
    for (const MeshCell& cell : view.meshLayout().cells()) {
        const MeshPanel& panel = view.meshLayout().panels()[static_cast<size_t>(cell.coord[2])];
        QVERIFY(panel.rect.contains(cell.rect.center()));
        QCOMPARE(cell.rect.top(),
                 panel.rect.top() + static_cast<double>(cell.coord[0]) * MeshLayout::kCellSize);
        QCOMPARE(cell.rect.left(),
                 panel.rect.left() + static_cast<double>(cell.coord[1]) * MeshLayout::kCellSize);
        QCOMPARE(view.meshLayout().cellAt(cell.rect.center()),
                 view.meshLayout().cellOfRank(cell.rank));
    }
}

// A 1 x 16 mesh in the studio's first centre (about 500 px wide) has cells of
// about 20 px: numbered (it was a strip of blank cells).
void TestMeshView::aLongRowOfRanksIsNumbered() {
    const char* json = R"json({"format": "hsdp-scenario/1", "name": "row",
      "mesh": {"shape": [16], "dim_names": ["dp_shard"]},
      "params": [{"name": "w", "shape": [64, 64], "dtype": "f32", "placements": ["Shard(0)"]}]})json";
    PlanResult result = computePlanResult(readScenario(json));
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    const QSize size(500, 430);
    const double cellPixels = MeshLayout::kCellSize * view.fitTransform(size).m11();
    QVERIFY2(cellPixels >= 16 && cellPixels < 24, qPrintable(QString::number(cellPixels)));
    QCOMPARE(MeshCanvas::detailFor(cellPixels), MeshCanvas::Detail::Rank);
    // Each cell has ink of its number: pixels of the text colour on its fill.
    const QImage image = view.renderImage(size);
    for (const MeshCell& cell : view.meshLayout().cells()) {
        const QRect box =
            view.fitTransform(size).mapRect(cell.rect).toAlignedRect().adjusted(2, 2, -2, -2);
        const QColor fill(image.pixel(box.topLeft()));
        int ink = 0;
        for (int y = box.top(); y <= box.bottom(); ++y)
            for (int x = box.left(); x <= box.right(); ++x)
                ink += std::abs(qGray(image.pixel(x, y)) - qGray(fill.rgb())) > 80;
        QVERIFY2(ink > 5, qPrintable(QStringLiteral("rank %1: %2").arg(cell.rank).arg(ink)));
    }
}

void TestMeshView::labelsGoBeforeCellsAt8192Ranks() {
    const char* json = R"json({"format": "hsdp-scenario/1", "name": "8192",
      "mesh": {"shape": [16, 8, 64], "dim_names": ["dp_replicate", "dp_shard", "tp"]},
      "params": [{"repeat": 40, "var": "i", "params": [
        {"name": "w{i}", "shape": [8192, 8192], "dtype": "bf16",
         "placements": ["R", "Shard(0)", "Shard(1)"]}]}]})json";
    PlanResult result = computePlanResult(readScenario(json));
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    QCOMPARE(view.meshLayout().cells().size(), size_t(8192));
    double cellPixels = MeshLayout::kCellSize * view.fitTransform(kImageSize).m11();
    QCOMPARE(MeshCanvas::detailFor(cellPixels), MeshCanvas::Detail::Cells);  // cells, no labels
    QVERIFY(cellPixels >= 4);
    QImage image = view.renderImage(kImageSize);
    std::set<QRgb> colours;
    for (const MeshCell& cell : view.meshLayout().cells()) {
        QPoint centre = deviceRect(view, cell).center().toPoint();
        int64_t computed = result.plan->ranks[static_cast<size_t>(cell.rank)].computedNumel;
        QCOMPARE(image.pixelColor(centre), view.heatScale().colorFor(computed));
        colours.insert(image.pixel(centre));
    }
    QVERIFY(colours.size() > 1);  // owners and idle ranks differ
}

namespace {

// A scenario of 16,384 ranks on `shape`: one sharded matrix that divides
// evenly on every dim, so the plan is valid and has owners to outline.
PlanResult planOnMesh(const QList<int>& shape) {
    QStringList dims, names, placements;
    for (int i = 0; i < shape.size(); ++i) {
        dims << QString::number(shape[i]);
        names << QStringLiteral("\"d%1\"").arg(i);
        placements << (i + 1 == shape.size() ? QStringLiteral("\"S(0)\"")
                                             : QStringLiteral("\"R\""));
    }
    const QString json = QStringLiteral(R"({"format": "hsdp-scenario/1", "name": "thin",
      "mesh": {"shape": [%1], "dim_names": [%2]},
      "params": [{"name": "w", "shape": [16384, 64], "dtype": "bf16", "placements": [%3]}]})")
                             .arg(dims.join(','), names.join(','), placements.join(','));
    return computePlanResult(readScenario(json.toStdString()));
}

}  // namespace

void TestMeshView::longThinMeshesWrap_data() {
    QTest::addColumn<QList<int>>("shape");
    QTest::newRow("4x4096") << QList<int>{4, 4096};
    QTest::newRow("2x8192") << QList<int>{2, 8192};
    QTest::newRow("16384") << QList<int>{16384};
    QTest::newRow("4096x4") << QList<int>{4096, 4};
}

// At fit zoom a long, thin mesh shows cells of a few pixels (not a hairline):
// most of the cell area is painted, every cell in its heat colour, and, with
// a param selected, every owner rank has the owner outline beside its cell.
void TestMeshView::longThinMeshesWrap() {
    QFETCH(QList<int>, shape);
    PlanResult result = planOnMesh(shape);
    QVERIFY(result.plan && result.plan->worldSize == 16384);
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    QCOMPARE(view.meshLayout().cells().size(), size_t(16384));
    const double cellPixels = MeshLayout::kCellSize * view.fitTransform(kImageSize).m11();
    QVERIFY2(cellPixels >= 4, qPrintable(QStringLiteral("cells of %1 px").arg(cellPixels)));
    QImage image = view.renderImage(kImageSize);
    const QColor base = view.palette().color(QPalette::Base);
    const int areaWidth = kImageSize.width() - static_cast<int>(MeshCanvas::kLegendWidth);
    int64_t painted = 0;
    for (int y = 0; y < kImageSize.height(); ++y)
        for (int x = 0; x < areaWidth; ++x) painted += image.pixelColor(x, y) != base;
    QVERIFY2(painted * 5 > int64_t(areaWidth) * kImageSize.height(),
             qPrintable(QStringLiteral("%1 painted pixels").arg(painted)));
    for (const MeshCell& cell : view.meshLayout().cells()) {
        const QPoint centre = deviceRect(view, cell).center().toPoint();
        const int64_t computed = result.plan->ranks[static_cast<size_t>(cell.rank)].computedNumel;
        QCOMPARE(image.pixelColor(centre), view.heatScale().colorFor(computed));
    }
    // Selected, set outlines run around the owner cells.
    selection.selectParam(0);
    image = view.renderImage(kImageSize);
    const std::vector<int>& owners = view.overlay().ownerRanks;
    QVERIFY(!owners.empty());
    for (size_t i = 0; i < owners.size(); i += std::max<size_t>(1, owners.size() / 64)) {
        const int cell = view.meshLayout().cellOfRank(owners[i]);
        const QRect near = deviceRect(view, view.meshLayout().cells()[static_cast<size_t>(cell)])
                               .toAlignedRect()
                               .adjusted(-4, -4, 4, 4);
        bool outlined = false;
        for (int y = near.top(); y <= near.bottom() && !outlined; ++y)
            for (int x = near.left(); x <= near.right() && !outlined; ++x)
                outlined = image.valid(x, y) && image.pixelColor(x, y) == kOwnerColor;
        QVERIFY2(outlined, qPrintable(QStringLiteral("owner rank %1 not outlined").arg(owners[i])));
    }
}

// The colour bar's title says "(log)" when its scale is, and only then.
void TestMeshView::aLogScaleSaysSo() {
    PlanSelection selection;
    MeshCanvas view(&selection);
    int logs = 0, linears = 0;
    for (const char* name : {"teaching_2x2.json", "diagnostics_tour.json"}) {
        view.setResult(computePlanResult(sample(name)));
        const bool log = view.heatScale().isLogarithmic();
        (log ? logs : linears)++;
        QCOMPARE(view.heatTitle().endsWith(QStringLiteral("(log)")), log);
    }
    QVERIFY(logs > 0 && linears > 0);
}

void TestMeshView::heatScaleIsOrdered() {
    HeatScale scale(1000);
    QCOMPARE(scale.colorFor(0), HeatScale::idleColor());
    QCOMPARE(scale.colorFor(1000), HeatScale::ramp(1.0));
    // Darker means more: lightness falls as the load grows.
    QVERIFY(scale.colorFor(100).lightnessF() > scale.colorFor(500).lightnessF());
    QVERIFY(scale.colorFor(500).lightnessF() > scale.colorFor(1000).lightnessF());
}

// A small matrix's shard beside a large one's: loads 4,096x apart. On a
// linear scale the small one was near white and read as "computes nothing";
// the mesh colours it clearly blue, apart from idle grey, and keeps darker
// for more.
void TestMeshView::smallLoadsBesideLargeOnesStayBlue() {
    const PlanResult result = computePlanResult(readScenario(
        R"json({"format": "hsdp-scenario/1", "name": "small beside large",
      "mesh": {"shape": [2], "dim_names": ["dp_shard"]},
      "params": [{"name": "w", "shape": [4096, 4096], "dtype": "bf16", "placements": ["S(0)"]},
                 {"name": "small", "shape": [64, 64], "dtype": "bf16", "placements": ["S(0)"]}]})json"));
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    const std::vector<int64_t>& computed = result.index->computedNumel;
    const auto [light, heavy] = std::minmax_element(
        computed.begin(), computed.end(),
        [](int64_t a, int64_t b) { return (a ? a : INT64_MAX) < (b ? b : INT64_MAX); });
    QCOMPARE(*light, int64_t(4096));
    QVERIFY(view.heatScale().isLogarithmic());
    const QColor lightest = view.heatScale().colorFor(*light);
    QVERIFY2(lightest.lightnessF() < 0.8, qPrintable(lightest.name()));
    QVERIFY(lightest != HeatScale::idleColor());
    QVERIFY(lightest.lightnessF() > view.heatScale().colorFor(int64_t(4096) * 4096).lightnessF());
    // What the view paints is that colour.
    const QImage image = view.renderImage(kImageSize);
    const int rank = int(light - computed.begin());
    const MeshCell& cell = view.meshLayout().cells()[size_t(view.meshLayout().cellOfRank(rank))];
    const QRectF box = deviceRect(view, cell);
    QCOMPARE(image.pixelColor(
                 (box.topLeft() + QPointF(box.width() * 0.15, box.height() * 0.15)).toPoint()),
             lightest);
    QVERIFY(*heavy > *light);
}

// 32 ranks on 8-GPU nodes (torchrun's layout, rank / 8), then on an explicit
// map that deals ranks to 4 nodes in turn: the outlines follow the map, the
// tooltip names the node, and neither "Nodes" off nor no cluster draws any.
void TestMeshView::nodesAreOutlinedWhereRanksChangeNode() {
    PlanResult result = computePlanResult(sample("llama3_70b_hsdp_tp_2x4x4.json"));
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    QVERIFY(!view.showsNodes());
    QCOMPARE(pixelsOf(view.renderImage(kImageSize), MeshCanvas::nodeColor()), 0);

    const Cluster dgx = readClusterPreset("h100-dgx");
    result.prediction = predictPlan(result, std::make_shared<const Cluster>(dgx));
    view.setPrediction(result);
    QVERIFY(view.showsNodes());
    QCOMPARE(view.nodes().nodes, 4);
    checkNodeEdges(view, view.renderImage(kImageSize), [](int rank) { return rank / 8; });
    QVERIFY2(view.toolTipFor(20).contains(QStringLiteral("node 2 of 4 × h100-dgx")),
             qPrintable(view.toolTipFor(20)));

    Cluster dealt = withNodes(dgx, 4);
    for (int rank = 0; rank < 32; ++rank) dealt.rankToNode[size_t(rank)] = rank % 4;
    result.prediction = predictPlan(result, std::make_shared<const Cluster>(dealt));
    view.setPrediction(result);
    checkNodeEdges(view, view.renderImage(kImageSize), [](int rank) { return rank % 4; });

    QCOMPARE(view.nodeLegendText(48), QStringLiteral("node, 8 ranks (h100-dgx)"));
    // Cells too small for the lines: none drawn, and the legend says so.
    QVERIFY(view.nodeLegendText(2).contains(QStringLiteral("zoom in")));
    view.setShowNodes(false);
    QCOMPARE(pixelsOf(view.renderImage(kImageSize), MeshCanvas::nodeColor()), 0);
    QVERIFY(view.nodeLegendText(48).isEmpty());

    // A world smaller than a node says how many of its devices the plan uses.
    PlanResult small = computePlanResult(sample("teaching_2x2.json"));
    small.prediction = predictPlan(small, std::make_shared<const Cluster>(dgx));
    view.setShowNodes(true);
    view.setResult(small);
    view.setPrediction(small);
    QCOMPARE(view.nodeLegendText(48),
             QStringLiteral("node of 8 devices (h100-dgx): the 4 ranks on one"));
}

namespace {

// Where a combo box draws its current text.
QRect textArea(QComboBox* box) {
    QStyleOptionComboBox option;
    option.initFrom(box);
    return box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField,
                                        box);
}

}  // namespace

// The window shows the view before any plan: the boxes, sized empty, once
// cut their choices to "main (8 r" and "dp_replic"; and in the window's
// centre at 1440 pixels (about 500 wide) the row of controls had no room
// for them: the dims' boxes go under the mesh's then.
void TestMeshView::choicesShowTheirWholeText_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("70B") << sample("llama3_70b_hsdp_tp_2x4x4.json");
    // Drawn in blocks: the block statistic's box joins the dims' row, which
    // squeezed "dp_replicate (128)" to "dp_replicate (" in a narrow panel.
    QTest::newRow("16,384 ranks") << QStringLiteral(HSDP_SOURCE_DIR
                                                    "/tests/data/scale/hsdp_128x128.json");
}

void TestMeshView::choicesShowTheirWholeText() {
    QFETCH(QString, path);
    PlanSelection selection;
    MeshWidget view(&selection);
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setResult(computePlanResult(path));
    for (int width : {1000, 500, 1000}) {
        view.resize(width, 700);
        // The boxes' row lays out first, the view's layout with its new size a turn later.
        QApplication::processEvents();
        QApplication::processEvents();
        int boxes = 0;
        for (QComboBox* box : view.findChildren<QComboBox*>()) {
            if (!box->isVisible()) continue;
            ++boxes;
            for (int i = 0; i < box->count(); ++i)
                QVERIFY2(
                    box->fontMetrics().horizontalAdvance(box->itemText(i)) <= textArea(box).width(),
                    qPrintable(QStringLiteral("at %1 px '%2' in a box %3 px wide")
                                   .arg(width)
                                   .arg(box->itemText(i))
                                   .arg(textArea(box).width())));
            QVERIFY2(view.rect().contains(QRect(box->mapTo(&view, QPoint(0, 0)), box->size())),
                     qPrintable(QStringLiteral("at %1 px a box runs off the view").arg(width)));
        }
        QVERIFY2(boxes >= 3, qPrintable(QString::number(boxes)));  // mesh, rows, columns
        const QStringList problems = testing::fitProblems(&view);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
}

QTEST_MAIN(TestMeshView)
#include "tst_mesh_view.moc"
