// SPDX-License-Identifier: Apache-2.0
// The tensor layout view against the engine: for every param of every
// sample, the blocks tile the shown 2-D index space and each rank's blocks
// are exactly its shardLayout ranges on those dims (uneven, empty, nested and
// strided shards included); rendered into QImages, each block shows its
// shard coordinate's colour and hazard blocks the warning outline; a
// slide-sized picture is filled, its legend whole and clear of the axis
// labels, and the picture a dock's view gives for export holds the whole
// legend and no blank band; the dim choices show their whole text.
#include <QComboBox>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QStyleOptionComboBox>
#include <QtTest>
#include <algorithm>
#include <set>

#include "derived/plan/plan_index.h"
#include "derived/run/run_data.h"
#include "run/runner.h"
#include "sample_rows.h"
#include "scenario/reader.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "types/geometry.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

const QSize kImageSize(1200, 800);

bool within(const IndexRange& inner, const IndexSet& set) {
    return std::any_of(set.begin(), set.end(), [&](const IndexRange& r) {
        return r.begin <= inner.begin && inner.end <= r.end;
    });
}

IndexSet engineSet(const ShardLayout& layout, int dim) {
    return dim < 0 ? IndexSet{IndexRange{0, 1}} : layout.dims[static_cast<size_t>(dim)];
}

bool holdsSlice(const ShardLayout& layout, const TensorAxes& axes) {
    for (size_t d = 0; d < layout.dims.size(); ++d) {
        if (static_cast<int>(d) == axes.rowDim || static_cast<int>(d) == axes.colDim) continue;
        if (!within(IndexRange{axes.slice[d], axes.slice[d] + 1}, layout.dims[d])) return false;
    }
    return true;
}

// The bands cover [0, extent) in order: blocks tile without gap or overlap.
void checkTiling(const TensorBlocks& blocks, const ParamSpec& spec) {
    auto extent = [&](int dim) {
        return dim < 0 ? int64_t{1} : spec.shape[static_cast<size_t>(dim)];
    };
    QCOMPARE(blocks.rowCuts.front(), int64_t{0});
    QCOMPARE(blocks.rowExtent(), extent(blocks.axes.rowDim));
    QCOMPARE(blocks.colCuts.front(), int64_t{0});
    QCOMPARE(blocks.colExtent(), extent(blocks.axes.colDim));
    QVERIFY(std::adjacent_find(blocks.rowCuts.begin(), blocks.rowCuts.end(),
                               std::greater_equal<>()) == blocks.rowCuts.end());
    QVERIFY(std::adjacent_find(blocks.colCuts.begin(), blocks.colCuts.end(),
                               std::greater_equal<>()) == blocks.colCuts.end());
    const size_t cols = blocks.colCuts.size() - 1;
    QCOMPARE(blocks.blocks.size(), (blocks.rowCuts.size() - 1) * cols);
    int64_t area = 0;
    for (size_t i = 0; i < blocks.blocks.size(); ++i) {
        const TensorBlock& block = blocks.blocks[i];
        QCOMPARE(block.rows, (IndexRange{blocks.rowCuts[i / cols], blocks.rowCuts[i / cols + 1]}));
        QCOMPARE(block.cols, (IndexRange{blocks.colCuts[i % cols], blocks.colCuts[i % cols + 1]}));
        area += block.rows.size() * block.cols.size();
        QVERIFY(!block.groups.empty());  // every index is held by someone
        if (!blocks.merged) QCOMPARE(block.groups.size(), size_t(1));
    }
    QCOMPARE(area, extent(blocks.axes.rowDim) * extent(blocks.axes.colDim));
}

// Every rank of the mesh in one group; the union of the blocks listing a
// rank equals its engine ranges on the shown dims (in the slice), or none.
void checkAgainstEngine(const Scenario& scenario, const TensorBlocks& blocks) {
    const ParamSpec& spec = scenario.params[static_cast<size_t>(blocks.param)];
    const Mesh& mesh = scenario.mesh(spec.mesh);
    std::set<int> seen;
    for (size_t g = 0; g < blocks.groups.size(); ++g) {
        for (int rank : blocks.groups[g].ranks) {
            QVERIFY(seen.insert(rank).second);
            ShardLayout engine =
                shardLayout(spec.shape, *spec.placements, mesh.shape, *mesh.coordinateOf(rank));
            QCOMPARE(blocks.groups[g].isEmpty(), engine.localNumel() == 0);
            bool shown = holdsSlice(engine, blocks.axes);
            QCOMPARE(blocks.groups[g].inSlice, shown);
            IndexSet rows = engineSet(engine, blocks.axes.rowDim);
            IndexSet cols = engineSet(engine, blocks.axes.colDim);
            int64_t area = 0;
            for (const TensorBlock& block : blocks.blocks) {
                if (!std::binary_search(block.groups.begin(), block.groups.end(), int(g))) continue;
                QVERIFY(shown);
                QVERIFY(within(block.rows, rows) && within(block.cols, cols));
                area += block.rows.size() * block.cols.size();
            }
            if (shown) QCOMPARE(area, indexCount(rows) * indexCount(cols));
        }
    }
    QCOMPARE(static_cast<int64_t>(seen.size()), mesh.size());
}

void checkParam(const PlanResult& result, int param, const TensorAxes& axes) {
    const ParamSpec& spec = result.scenario->params[static_cast<size_t>(param)];
    TensorBlocks blocks = computeTensorBlocks(
        *result.scenario, param, axes, layoutHazardCodes(*result.plan, *result.index, param));
    if (!blocks.error.empty()) {
        QVERIFY2(result.plan->isRejected(param),
                 blocks.error.c_str());  // only what the planner rejects
        return;
    }
    checkTiling(blocks, spec);
    // A layout hazard the plan names marks some piece; none marks nothing.
    bool marked = std::any_of(blocks.groups.begin(), blocks.groups.end(),
                              [](const ShardGroup& group) { return group.hazard; });
    QCOMPARE(marked, !blocks.hazardCodes.empty());
    if (spec.isDTensor())
        checkAgainstEngine(*result.scenario, blocks);
    else
        QCOMPARE(static_cast<int>(blocks.groups.front().ranks.size()), result.plan->worldSize);
}

// Where the tests probe a painted block: its own colour left of the label,
// the hazard outline near its left edge.
QPoint fillProbe(const QRectF& rect) {
    return QPointF(rect.left() + 9.5, rect.center().y()).toPoint();
}
QPoint hazardProbe(const QRectF& rect) {
    return QPointF(rect.left() + 5.5, rect.center().y()).toPoint();
}

void checkRendering(const TensorLayoutWidget& view) {
    QImage image = view.renderImage(kImageSize);
    TensorGrid grid = view.canvas()->grid(kImageSize);
    const TensorBlocks& blocks = view.blocks();
    int probed = 0;
    for (const TensorBlock& block : blocks.blocks) {
        QRectF rect = grid.rectOf(block);
        QVERIFY(rect.height() >= 1.0 && rect.width() >= 1.0);  // tiny shards stay visible
        if (rect.width() < 24 || rect.height() < 16) continue;
        QColor expected = block.groups.size() == 1 ? TensorLayoutCanvas::shardColor(block.groups[0])
                                                   : TensorLayoutCanvas::mergedColor();
        QCOMPARE(image.pixelColor(fillProbe(rect)), expected);
        QCOMPARE(image.pixelColor(hazardProbe(rect)) == TensorLayoutCanvas::hazardColor(),
                 block.hazard);
        ++probed;
    }
    QVERIFY(probed > 0);
}

PlanResult inlineResult(const char* json) {
    return computePlanResult(readScenario(json));
}

}  // namespace

class TestTensorLayout : public QObject {
    Q_OBJECT
private slots:
    void everyParamMatchesTheEngine_data() { testing::addSampleRows(); }
    void everyParamMatchesTheEngine();
    void focusParamRendersInShardColours_data() { testing::addSampleRows(); }
    void focusParamRendersInShardColours();
    void unevenShardsListTheEmptyRanks();
    void stridedShardsInterleave();
    void stridedPiecesRepeat();
    void otherDimsAreSliced();
    void clickPicksTheBlockRanks();
    void manyRanksStayExactOrSayMerged();
    void wrongRowsOfAReferenceRunAreDrawn();
    void wrongRowLabelsNeverOverlap();
    void slideSizedPicturesFitTheirContent_data();
    void slideSizedPicturesFitTheirContent();
    void aDockedViewsPictureHoldsItsLegend();
    void dimChoicesShowTheirWholeText();
};

void TestTensorLayout::everyParamMatchesTheEngine() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    for (size_t p = 0; p < result.scenario->params.size(); ++p) {
        const ParamSpec& spec = result.scenario->params[p];
        checkParam(result, static_cast<int>(p), TensorAxes::defaultFor(spec));
        if (QTest::currentTestFailed()) QFAIL(spec.name.c_str());
        if (spec.ndim() == 2) {  // the transposed choice too
            checkParam(result, static_cast<int>(p), TensorAxes{1, 0, {0, 0}});
            if (QTest::currentTestFailed()) QFAIL(spec.name.c_str());
        }
    }
}

void TestTensorLayout::focusParamRendersInShardColours() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    int param = mostInterestingPlannedParam(*result.scenario, *result.plan);
    selection.selectParam(param);
    QCOMPARE(view.blocks().param, param);
    QCOMPARE(view.blocks().hazardCodes, layoutHazardCodes(*result.plan, *result.index, param));
    checkRendering(view);
}

void TestTensorLayout::unevenShardsListTheEmptyRanks() {
    // dim 0 of 5 over 4 (pieces 2, 2, 1, 0) and of 2 over 4 (1, 1, 0, 0).
    PlanResult result = inlineResult(R"json({"format": "hsdp-scenario/1", "name": "uneven",
      "mesh": {"shape": [4, 2], "dim_names": ["dp_shard", "tp"]},
      "params": [
        {"name": "five", "shape": [5, 6], "dtype": "f32", "placements": ["S(0)", "R"]},
        {"name": "two", "shape": [2, 8], "dtype": "f32", "placements": ["S(0)", "S(1)"]}]})json");
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    for (int param : {0, 1}) {
        selection.selectParam(param);
        const TensorBlocks& blocks = view.blocks();
        QVERIFY(std::count(blocks.hazardCodes.begin(), blocks.hazardCodes.end(), "uneven-shard"));
        checkTiling(blocks, result.scenario->params[static_cast<size_t>(param)]);
        checkAgainstEngine(*result.scenario, blocks);
        std::vector<int> empty;
        for (const ShardGroup& group : blocks.groups) {
            if (group.isEmpty()) empty.insert(empty.end(), group.ranks.begin(), group.ranks.end());
            if (group.isEmpty()) QVERIFY(group.hazard);  // short pieces are marked
        }
        std::sort(empty.begin(), empty.end());
        // The engine's empty ranks: dp_shard coordinate 3 (five) and 2, 3 (two).
        std::vector<int> expected;
        for (int rank = 0; rank < 8; ++rank)
            if (shardLayout(result.scenario->params[static_cast<size_t>(param)].shape,
                            *result.scenario->params[static_cast<size_t>(param)].placements, {4, 2},
                            *result.scenario->meshes[0].coordinateOf(rank))
                    .localNumel() == 0)
                expected.push_back(rank);
        QCOMPARE(empty, expected);
        QVERIFY(!expected.empty());
        checkRendering(view);
    }
    selection.selectParam(0);  // the one-row remainder is drawn at least kMinBandPixels high
    TensorGrid grid = view.canvas()->grid(kImageSize);
    for (size_t r = 0; r + 1 < grid.rowEdges.size(); ++r)
        QVERIFY(grid.rowEdges[r + 1] - grid.rowEdges[r] >= TensorLayoutCanvas::kMinBandPixels);
}

namespace {

// The groups down the rows, band by band, in the first column.
std::vector<int> groupsDownTheRows(const TensorBlocks& blocks) {
    std::vector<int> order;
    for (const TensorBlock& block : blocks.blocks)
        if (block.colBand == 0) order.push_back(block.groups.front());
    return order;
}

}  // namespace

void TestTensorLayout::stridedShardsInterleave() {
    // PyTorch's FSDP+TP layout: _StridedShard on dp_shard, Shard on tp, so
    // down the rows the dp_shard coordinate alternates (tp-major order).
    PlanResult result = computePlanResult(sample("diagnostics_tour.json"));
    int param = -1;
    for (const ParamSpec& spec : result.scenario->params)
        if (spec.name == "colwise.strided") param = spec.index;
    QVERIFY(param >= 0);
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    selection.selectParam(param);
    const TensorBlocks& blocks = view.blocks();
    checkAgainstEngine(*result.scenario, blocks);
    std::vector<int64_t> dpDownTheRows;
    for (int g : groupsDownTheRows(blocks))
        dpDownTheRows.push_back(blocks.groups[static_cast<size_t>(g)].coord[0]);
    QVERIFY(!std::is_sorted(dpDownTheRows.begin(), dpDownTheRows.end()));
    QVERIFY(
        std::count(blocks.hazardCodes.begin(), blocks.hazardCodes.end(), "strided-shard-chunk"));
    for (const TensorBlock& block : blocks.blocks) QVERIFY(block.hazard);
    checkRendering(view);
}

void TestTensorLayout::stridedPiecesRepeat() {
    // _StridedShard alone: each coordinate holds several ranges, so its
    // blocks come back down the rows.
    PlanResult result = inlineResult(R"json({"format": "hsdp-scenario/1", "name": "strided",
      "mesh": {"shape": [2, 2], "dim_names": ["dp_shard", "tp"]},
      "params": [{"name": "w", "shape": [12, 4], "dtype": "f32",
                  "placements": ["_StridedShard(dim=0, sf=3)", "R"]}]})json");
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    selection.selectParam(0);
    const TensorBlocks& blocks = view.blocks();
    checkTiling(blocks, result.scenario->params[0]);
    checkAgainstEngine(*result.scenario, blocks);
    std::vector<int> order = groupsDownTheRows(blocks);
    std::set<int> distinct(order.begin(), order.end());
    QCOMPARE(distinct.size(), blocks.groups.size());
    QVERIFY(order.size() > distinct.size());
    for (size_t i = 0; i + 1 < order.size(); ++i) QVERIFY(order[i] != order[i + 1]);
    for (const ShardGroup& group : blocks.groups) QVERIFY(blocks.rowSet(group).size() > 1);
    checkRendering(view);
}

void TestTensorLayout::otherDimsAreSliced() {
    // A 3-D param whose dim 0 is split: the rows x columns picture at each
    // index of dim 0 shows only the coordinates holding that index.
    PlanResult result = inlineResult(R"json({"format": "hsdp-scenario/1", "name": "3d",
      "mesh": {"shape": [2, 2], "dim_names": ["dp_shard", "tp"]},
      "params": [{"name": "experts", "shape": [4, 6, 8], "dtype": "f32",
                  "placements": ["S(0)", "S(2)"]}]})json");
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    selection.selectParam(0);
    QCOMPARE(view.blocks().axes.rowDim, 1);
    QCOMPARE(view.blocks().axes.colDim, 2);
    for (int64_t index = 0; index < 4; ++index) {
        view.setAxes(TensorAxes{1, 2, {index, 0, 0}});
        checkTiling(view.blocks(), result.scenario->params[0]);
        checkAgainstEngine(*result.scenario, view.blocks());
        int shown = 0;
        for (const ShardGroup& group : view.blocks().groups) shown += group.inSlice;
        QCOMPARE(shown, 2);  // the tp halves of one dp_shard coordinate
    }
    view.setAxes(TensorAxes{0, 2, {0, 5, 0}});  // dims 0 and 2: every coordinate appears
    checkAgainstEngine(*result.scenario, view.blocks());
    QCOMPARE(view.blocks().blocks.size(), size_t(4));
    view.setAxes(TensorAxes{2, 2, {}});  // not two dims: the default
    QCOMPARE(view.blocks().axes.rowDim, 1);
    QCOMPARE(view.blocks().axes.colDim, 2);
    // The controls: the rows taking the columns' dim swaps the two; the
    // spin box of the dim not shown moves the slice.
    auto combos = view.findChildren<QComboBox*>();
    QCOMPARE(combos.size(), qsizetype(2));
    QComboBox* rows = combos[0];
    rows->setCurrentIndex(rows->findData(2));
    emit rows->activated(rows->currentIndex());
    QCOMPARE(view.blocks().axes.rowDim, 2);
    QCOMPARE(view.blocks().axes.colDim, 1);
    auto spins = view.findChildren<QSpinBox*>();
    QCOMPARE(spins.size(), qsizetype(1));
    QCOMPARE(spins[0]->maximum(), 3);
    spins[0]->setValue(3);
    QCOMPARE(view.blocks().axes.slice[0], int64_t{3});
    checkAgainstEngine(*result.scenario, view.blocks());
}

void TestTensorLayout::clickPicksTheBlockRanks() {
    PlanResult result = computePlanResult(sample("teaching_2x2.json"));
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    selection.selectParam(0);  // embed.weight [32, 8], [R, S(0)]: two replicas per block
    TensorLayoutCanvas* canvas = view.canvas();
    canvas->resize(kImageSize);
    TensorGrid grid = canvas->grid(canvas->size());
    const TensorBlock& last = view.blocks().blocks.back();
    QTest::mouseClick(canvas, Qt::LeftButton, {}, grid.rectOf(last).center().toPoint());
    QCOMPARE(selection.ranks(), view.blocks().ranksOf(last));
    QCOMPARE(selection.ranks().size(), size_t(2));  // the replicate copies
    QCOMPARE(selection.focusParam(), 0);            // a rank pick keeps the param
    QCOMPARE(view.blocks().param, 0);
    QImage image = view.renderImage(kImageSize);
    QRectF rect = grid.rectOf(last);
    QCOMPARE(image.pixelColor(QPointF(rect.left() + 1.5, rect.center().y()).toPoint()),
             TensorLayoutCanvas::pickColor());
}

void TestTensorLayout::manyRanksStayExactOrSayMerged() {
    PlanResult result = inlineResult(R"json({"format": "hsdp-scenario/1", "name": "8192",
      "mesh": {"shape": [64, 128], "dim_names": ["dp_shard", "tp"]},
      "params": [
        {"name": "embed", "shape": [128256, 8192], "dtype": "bf16", "placements": ["S(0)", "S(1)"]},
        {"name": "strided", "shape": [128256, 8192], "dtype": "bf16",
         "placements": ["_StridedShard(dim=0, sf=8)", "S(0)"]}]})json");
    QElapsedTimer timer;
    timer.start();
    TensorBlocks exact = computeTensorBlocks(*result.scenario, 0, TensorAxes{0, 1, {}});
    QCOMPARE(exact.blocks.size(), size_t(8192));
    QVERIFY(!exact.merged);
    checkTiling(exact, result.scenario->params[0]);
    TensorBlocks merged = computeTensorBlocks(*result.scenario, 1, TensorAxes{0, 1, {}});
    QVERIFY(merged.merged);
    QVERIFY(merged.exactBlockCount > TensorBlocks::kMaxBlocks);
    QVERIFY(static_cast<int64_t>(merged.blocks.size()) <= TensorBlocks::kMaxBlocks);
    checkTiling(merged, result.scenario->params[1]);
    std::set<int> listed;
    for (const TensorBlock& block : merged.blocks)
        listed.insert(block.groups.begin(), block.groups.end());
    size_t holding = 0;
    for (const ShardGroup& group : merged.groups) holding += group.isEmpty() ? 0 : 1;
    QCOMPARE(listed.size(), holding);  // no piece lost in merging
    qInfo("8,192 ranks: both layouts in %lld ms", static_cast<long long>(timer.elapsed()));
}

namespace {

// Pixels of `rect` (shrunk by `inset`) that differ between two images.
double changedShare(const QImage& a, const QImage& b, const QRectF& rect, double inset) {
    const QRect r = rect.adjusted(inset, inset, -inset, -inset).toAlignedRect();
    int changed = 0, all = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x, ++all)
            changed += a.pixel(x, y) != b.pixel(x, y);
    return all ? double(changed) / all : 0.0;
}

}  // namespace

// Reference mode on the hazards: picking a rank with a mismatch draws
// exactly the rows its Mismatch names, where the truth's rows belong and the
// true rows they hold, and changes no pixel of the blocks elsewhere.
void TestTensorLayout::wrongRowsOfAReferenceRunAreDrawn() {
    PlanResult result = computePlanResult(
        QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/fsdp_tp_hazards.scenario.json"));
    RunOptions options;
    options.mode = RunMode::Reference;
    auto run = std::make_shared<const RunResult>(runPlan(*result.scenario, *result.plan, options));
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    int checked = 0;
    for (const ParamRunResult& param : run->params) {
        for (const Mismatch& m : param.mismatches) {
            if (m.what != "gather" || m.rows.empty()) continue;
            selection.selectParam(param.index);
            selection.selectRanks({m.rank});
            view.setRun(RunData{});
            QVERIFY(view.canvas()->wrongRows().isEmpty());
            const QImage without = view.renderImage(kImageSize);
            view.setRun(RunData{result, run});
            const WrongRowOverlay& drawn = view.canvas()->wrongRows();
            QCOMPARE(drawn.rank, m.rank);
            QCOMPARE(drawn.what, std::string("gather"));
            QCOMPARE(drawn.bands.size(), m.rows.size());
            const QImage with = view.renderImage(kImageSize);
            const TensorGrid grid = view.canvas()->grid(kImageSize);
            QRegion marked;
            for (size_t i = 0; i < m.rows.size(); ++i) {
                QCOMPARE(drawn.bands[i].rows, m.rows[i]);
                QCOMPARE(drawn.bands[i].held, m.heldRows[i]);
                for (const IndexRange& rows : {m.rows[i], m.heldRows[i]}) {
                    if (rows.size() == 0) continue;
                    const QRectF rect = view.canvas()->wrongRowsRect(grid, rows);
                    QVERIFY2(rect.height() >= 6, m.text.c_str());  // past the end too
                    QVERIFY2(changedShare(with, without, rect, 2) > 0.1,
                             m.text.c_str());  // hatched
                    marked += rect.toAlignedRect().adjusted(-2, -2, 2, 2);
                }
            }
            // Elsewhere over the blocks, nothing changed.
            const QRect area = grid.area.toAlignedRect();
            for (int y = area.top(); y < area.bottom(); y += 3)
                for (int x = area.left(); x < area.right(); x += 3)
                    if (!marked.contains(QPoint(x, y)))
                        QVERIFY2(with.pixel(x, y) == without.pixel(x, y), m.text.c_str());
            ++checked;
        }
    }
    QVERIFY(checked >= 4);  // the nested and the uneven param, on several ranks
    // A run of another plan (the scenario re-planned) draws nothing.
    view.setResult(computePlanResult(
        QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/fsdp_tp_hazards.scenario.json")));
    QVERIFY(view.canvas()->wrongRows().isEmpty());
}

// A swap of two row ranges (a common fault) puts each band's true rows where
// the other's wrong rows are: four labels for two places. Their plates must
// not overlap: a later one goes lower in its band or is left out, and the
// tooltip over a band names every label of it in full.
void TestTensorLayout::wrongRowLabelsNeverOverlap() {
    PlanResult result = computePlanResult(
        QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/fsdp_tp_hazards.scenario.json"));
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    // A param whose dim 0 runs down the picture, at least 4 rows long.
    for (size_t p = 0; p < result.scenario->params.size(); ++p) {
        selection.selectParam(int(p));
        const TensorBlocks& b = view.canvas()->blocks();
        if (b.axes.rowDim == 0 && b.rowExtent() >= 4) break;
    }
    const TensorBlocks& blocks = view.canvas()->blocks();
    QVERIFY(blocks.axes.rowDim == 0);
    const int64_t rows = blocks.rowExtent();
    QVERIFY(rows >= 4);
    const int64_t half = rows / 2;
    WrongRowOverlay swap;
    swap.param = blocks.param;
    swap.rank = 0;
    swap.what = "gather";
    swap.runRows = rows;
    swap.bands = {{{0, half}, {half, 2 * half}}, {{half, 2 * half}, {0, half}}};
    view.canvas()->setWrongRows(swap);
    for (const QSize size : {kImageSize, QSize(900, 1400), QSize(500, 900)}) {
        const TensorGrid grid = view.canvas()->grid(size);
        const auto labels = view.canvas()->wrongRowsLabels(grid);
        QCOMPARE(labels.size(), size_t(4));
        // The bands do coincide: at their top left the labels would overlap.
        QCOMPARE(labels[0].band, labels[3].band);
        QCOMPARE(labels[1].band, labels[2].band);
        int drawn = 0;
        for (size_t i = 0; i < labels.size(); ++i) {
            if (labels[i].plate.isEmpty()) continue;
            ++drawn;
            QVERIFY(labels[i].band.contains(labels[i].plate));
            for (size_t j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].plate.intersects(labels[j].plate),
                         qPrintable(labels[i].text + " / " + labels[j].text));
        }
        QVERIFY(drawn >= 2);
        for (const auto& label : labels) {
            const QStringList texts = view.canvas()->wrongRowsTextsAt(label.band.center(), size);
            QVERIFY(texts.contains(label.text));
        }
    }
}

namespace {

// 16 shard coordinates (more than a docked legend lists) of a flat and of a
// tall tensor: Qwen2-7B's down and gate projections.
const char* kProjections = R"json({"format": "hsdp-scenario/1", "name": "projections",
  "mesh": {"shape": [8, 2], "dim_names": ["dp_shard", "tp"]},
  "params": [
    {"name": "down_proj", "shape": [3584, 18944], "dtype": "bf16", "placements": ["S(0)", "S(1)"]},
    {"name": "gate_proj", "shape": [18944, 3584], "dtype": "bf16", "placements": ["S(0)", "S(1)"]}]})json";

// The smallest rectangle holding every pixel unlike the top-left one.
QRect drawnBounds(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    const QRgb background = rgb.pixel(0, 0);
    QRect bounds;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            if (line[x] != background) bounds |= QRect(x, y, 1, 1);
    }
    return bounds;
}

}  // namespace

void TestTensorLayout::slideSizedPicturesFitTheirContent_data() {
    QTest::addColumn<int>("param");
    QTest::addColumn<double>("filled");
    QTest::newRow("flat [3584, 18944]") << 0 << 0.85;
    QTest::newRow("tall [18944, 3584]") << 1 << 0.65;
}

// At 1920 x 1080 the blocks and the legend fill the picture (the flat
// tensor once used half its height, the tall one 60 % of its width), the
// legend lists all 16 coordinates, and it starts right of the last column
// label ("18944", centred on the blocks' right edge), which it once covered.
void TestTensorLayout::slideSizedPicturesFitTheirContent() {
    QFETCH(int, param);
    QFETCH(double, filled);
    const PlanResult result = inlineResult(kProjections);
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    selection.selectParam(param);
    const QSize slide(1920, 1080);
    const QImage image = view.renderImage(slide);
    const QRect drawn = drawnBounds(image);
    const double share = double(drawn.width()) * drawn.height() / (slide.width() * slide.height());
    QVERIFY2(share >= filled, qPrintable(QStringLiteral("the drawing covers %1 of the picture (%2)")
                                             .arg(share, 0, 'f', 2)
                                             .arg(QStringLiteral("%1x%2+%3+%4")
                                                      .arg(drawn.width())
                                                      .arg(drawn.height())
                                                      .arg(drawn.left())
                                                      .arg(drawn.top()))));

    const TensorGrid grid = view.canvas()->grid(slide);
    QFont axisFont = view.canvas()->font();
    axisFont.setPixelSize(10);
    const QString extent = QString::number(view.blocks().colCuts.back());
    const double labelRight =
        grid.area.right() + QFontMetricsF(axisFont).horizontalAdvance(extent) / 2 + 1;
    QVERIFY2(grid.legend.left() > labelRight,
             qPrintable(QStringLiteral("the legend starts at %1, the label '%2' ends at %3")
                            .arg(grid.legend.left())
                            .arg(extent)
                            .arg(labelRight)));
    // Every coordinate's swatch, one a line under the legend's title.
    int line = 0;
    for (size_t g = 0; g < view.blocks().groups.size(); ++g) {
        const ShardGroup& group = view.blocks().groups[g];
        if (!group.inSlice || group.isEmpty()) continue;
        const QPoint swatch =
            QPointF(grid.legend.left() + 7, grid.legend.top() + 22 + 17 * line + 7).toPoint();
        QVERIFY2(image.pixelColor(swatch) == TensorLayoutCanvas::shardColor(int(g)),
                 qPrintable(QStringLiteral("no swatch for coordinate %1 of 16").arg(line + 1)));
        ++line;
    }
    QCOMPARE(line, 16);
}

// In a dock (narrow) the canvas is as tall as its dock or its content;
// the picture it gives Export View is the content, legend whole, with
// nothing blank under it, however tall the dock.
void TestTensorLayout::aDockedViewsPictureHoldsItsLegend() {
    const PlanResult result = inlineResult(kProjections);
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.setResult(result);
    selection.selectParam(1);
    for (int height : {300, 1400}) {
        view.resize(380, height);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        TensorLayoutCanvas* canvas = view.canvas();
        const QSize picture = view.shownPictureSize();
        QCOMPARE(picture.width(), canvas->width());
        const double legendBottom = canvas->grid(picture).area.bottom() + 16 +
                                    canvas->narrowLegendHeight(picture.width() - 24);
        QVERIFY2(picture.height() >= legendBottom && picture.height() <= legendBottom + 16,
                 qPrintable(QStringLiteral("in a dock %1 px tall: a picture %2 px tall, its "
                                           "legend ends at %3")
                                .arg(height)
                                .arg(picture.height())
                                .arg(legendBottom)));
    }
}

// Shown before any param, the boxes were sized empty and cut "dim 0 (18944)".
void TestTensorLayout::dimChoicesShowTheirWholeText() {
    PlanSelection selection;
    TensorLayoutWidget view(&selection);
    view.resize(600, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setResult(inlineResult(kProjections));
    selection.selectParam(1);
    QApplication::processEvents();
    const QList<QComboBox*> boxes = view.findChildren<QComboBox*>();
    QCOMPARE(boxes.size(), 2);
    for (QComboBox* box : boxes) {
        QStyleOptionComboBox option;
        option.initFrom(box);
        const int room =
            box->style()
                ->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box)
                .width();
        for (int i = 0; i < box->count(); ++i)
            QVERIFY2(
                box->fontMetrics().horizontalAdvance(box->itemText(i)) <= room,
                qPrintable(
                    QStringLiteral("'%1' in a box %2 px wide").arg(box->itemText(i)).arg(room)));
    }
}

QTEST_MAIN(TestTensorLayout)
#include "tst_tensor_layout.moc"
