// SPDX-License-Identifier: Apache-2.0
// Exported reports (hsdp-inspect report, report/): every sample in
// both formats through the CLI, checked against the plan's and the run's
// JSON; the document model on its own; a 4,000-parameter plan's appendix;
// exit codes and the atomic write. The HTML must parse as XML and reference
// nothing outside itself; the PDF's text (pdftotext, from scripts/bootstrap)
// must carry the plan's key numbers.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "cluster/reader.h"
#include "derived/plan/plan_result.h"
#include "derived/plan/scenario_document.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/run_index.h"
#include "plan/load_imbalance.h"
#include "report/report_builder.h"
#include "report/report_html.h"
#include "report/report_pdf.h"
#include "report/report_pictures.h"
#include "run/runner.h"
#include "studio_test_util.h"
#include "trace/predicted_timeline_widget.h"
#include "trace/trace_canvas.h"
#include "types/figures.h"
#include "wrong_rows/wrong_rows_widget.h"

using nlohmann::json;
using namespace hsdp;
using namespace hsdp::testing;

namespace {

const char* const kSamples[] = {
    "diagnostics_tour.json",         "llama3_70b_hsdp_tp_2x4x4.json",  "llama3_8b_hsdp_2x4.json",
    "mixtral_8x7b_expert_mesh.json", "replica_count_indivisible.json", "teaching_2x2.json",
};

json planJson(const QString& scenario) {
    const CliOutcome plan = inspect({QStringLiteral("plan"), QStringLiteral("--json"), scenario});
    if (plan.exitCode != 0 && plan.exitCode != 1) return {};
    return json::parse(plan.out.toStdString());
}

bool planHasErrors(const json& plan) {
    for (const auto& d : plan["diagnostics"])
        if (d["severity"] == "error") return true;
    return false;
}

// The plan's worst owner imbalance from its JSON, where the owner-imbalance
// rule judges it (docs/plan.md §6): the heaviest coordinate's load over the
// mean, of each batch with at least as many owned params as coordinates and
// of each group of two batches or more over its batches summed ("none
// judged" when nothing is).
QString worstImbalance(const json& plan) {
    double worst = -1;
    auto judge = [&](const std::vector<double>& loads, size_t owned) {
        double sum = 0, most = 0;
        for (double l : loads) {
            sum += l;
            most = std::max(most, l);
        }
        if (loads.size() >= 2 && owned >= loads.size() && most > 0)
            worst = std::max(worst, most / (sum / double(loads.size())));
    };
    for (const auto& g : plan["groups"]) {
        std::vector<double> total;
        size_t owned = 0;
        for (const auto& b : g["batches"]) {
            std::vector<double> loads;
            for (const auto& l : b["loads"]) loads.push_back(l["numel"].get<double>());
            total.resize(std::max(total.size(), loads.size()), 0.0);
            for (size_t c = 0; c < loads.size(); ++c) total[c] += loads[c];
            owned += b["owner"].size();
            judge(loads, b["owner"].size());
        }
        if (g["batches"].size() >= 2) judge(total, owned);
    }
    return worst < 0 ? QStringLiteral("none judged") : QString::number(worst, 'f', 2);
}

// The busiest rank's Newton–Schulz elements over the mean of every rank's,
// from the plan's per-rank figures ("" when no rank computes).
QString rankComputeImbalance(const json& plan) {
    double sum = 0, most = 0;
    for (const auto& r : plan["ranks"]) {
        const double numel = r["computed_numel"].get<double>();
        sum += numel;
        most = std::max(most, numel);
    }
    if (sum <= 0) return {};
    return QString::number(most * double(plan["ranks"].size()) / sum, 'f', 2);
}

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Parses as XML (the writer closes every element) and names nothing outside.
QString htmlProblems(const QString& html) {
    QXmlStreamReader xml(html);
    while (!xml.atEnd()) xml.readNext();
    if (xml.hasError())
        return QStringLiteral("not well-formed at line %1: %2")
            .arg(xml.lineNumber())
            .arg(xml.errorString());
    for (const char* banned : {"http://", "https://", "<link", "<script", "@import", "url(",
                               "<iframe", "<object", "<embed"})
        if (html.contains(QLatin1String(banned), Qt::CaseInsensitive))
            return QStringLiteral("contains %1").arg(QLatin1String(banned));
    static const QRegularExpression source(QStringLiteral(R"re((src|href)\s*=\s*"([^"]*)")re"));
    for (auto it = source.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        const QString target = m.captured(2);
        if (!target.startsWith(QLatin1String("data:")) && !target.startsWith(QLatin1Char('#')))
            return QStringLiteral("references %1").arg(target.left(80));
    }
    // Every link inside the document lands on an anchor that exists.
    static const QRegularExpression link(QStringLiteral(R"re(href="#([^"]+)")re"));
    for (auto it = link.globalMatch(html); it.hasNext();) {
        const QString anchor = it.next().captured(1);
        if (!html.contains(QStringLiteral("id=\"%1\"").arg(anchor)))
            return QStringLiteral("dangling link #%1").arg(anchor);
    }
    return {};
}

QString pdfText(const QString& path) {
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (tool.isEmpty()) return {};
    const CliOutcome out = runProgram(tool, {QStringLiteral("-layout"), path, QStringLiteral("-")});
    return out.exitCode == 0 ? QString::fromUtf8(out.out) : QString();
}

QString withoutSpace(QString text) {
    return text.remove(QRegularExpression(QStringLiteral("\\s+")));
}

// A sample with its prediction on `cluster` and, with `run`, its run held
// against that prediction, as `report --run --cluster` makes them.
ReportInput predictedInput(const char* name, const char* cluster, bool run) {
    ReportInput input;
    input.plan = computePlanResult(sample(name));
    const auto on = std::make_shared<const Cluster>(readClusterPreset(cluster));
    input.plan.prediction = predictPlan(input.plan, on);
    if (run)
        input.run = preparedRun(
            input.plan,
            std::make_shared<const RunResult>(runPlan(*input.plan.scenario, *input.plan.plan, {})),
            on);
    return input;
}

std::vector<ReportPicture> picturesOf(const ReportDocument& doc, const QString& view = {}) {
    std::vector<ReportPicture> pictures;
    for (const ReportSection& s : doc.sections)
        for (const ReportBlock& b : s.blocks)
            if (b.kind == ReportBlock::Picture && (view.isEmpty() || b.picture.view == view))
                pictures.push_back(b.picture);
    return pictures;
}

// The share of pixels of two pictures of one size that differ by more than
// a little in some channel (the same drawing replayed from a QPicture
// differs only where antialiasing falls differently).
double differingShare(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) return 1.0;
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    qint64 differing = 0;
    for (int row = 0; row < x.height(); ++row)
        for (int col = 0; col < x.width(); ++col) {
            const QRgb p = x.pixel(col, row), q = y.pixel(col, row);
            differing += std::abs(qRed(p) - qRed(q)) > 48 || std::abs(qGreen(p) - qGreen(q)) > 48 ||
                         std::abs(qBlue(p) - qBlue(q)) > 48;
        }
    return double(differing) / double(qint64(x.width()) * x.height());
}

// Whether a pixel is drawn content, not the white (or near-white: a
// timeline's gutter and row bands) a picture is painted on.
bool isInk(QRgb pixel) {
    return qRed(pixel) < 215 || qGreen(pixel) < 215 || qBlue(pixel) < 215;
}

// The rectangle holding every pixel of ink.
QRect inkBounds(const QImage& image) {
    int left = image.width(), right = -1, top = image.height(), bottom = -1;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (isInk(image.pixel(x, y))) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
    return right < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

}  // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void documentNamesEverything_data();
    void documentNamesEverything();
    void largePlanKeepsEveryParameter();
    void appendixTablesAreCapped();
    void cliReports_data();
    void cliReports();
    void runReports_data();
    void runReports();
    void exitCodesAndAtomicWrite();
    void jobAddsTheJobCheck();
    void studioExportsTheSameDocument();
    void clusterAddsTheCost();
    void outOfMemoryIsAnErrorOfTheReport();
    void wrongRowsAreDrawn();
    void runPictureShowsTheRunAboveItsPrediction();
    void everyPictureIsItsContentAlone_data();
    void everyPictureIsItsContentAlone();
    void balancePicturesShowTheWorstJudgedPlace();
    void loadSharesAreOfTheOwnersMean();
    void bandwidthsKeepTheirFigures();
    void reportTimingIsTheCommandsWallTime();
    void pdfCommandWrapsOnlyBetweenArguments();

private:
    QTemporaryDir dir_;
};

void TestReport::initTestCase() {
    QVERIFY(dir_.isValid());
    // scripts/bootstrap installs poppler-utils: a missing tool is a failure, not a skip.
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty(),
             "pdftotext is missing: run scripts/bootstrap (it installs poppler-utils)");
}

void TestReport::documentNamesEverything_data() {
    QTest::addColumn<QString>("scenario");
    for (const char* name : kSamples) QTest::newRow(name) << sample(name);
}

// The document model alone: every group, diagnostic code and parameter is in
// it (body or appendix), in the order the issue asks for.
void TestReport::documentNamesEverything() {
    QFETCH(QString, scenario);
    ReportInput input;
    input.plan = computePlanResult(scenario);
    input.command = QStringLiteral("hsdp-inspect report x -o y.html");
    const ReportDocument doc = buildReport(input);
    QString all;
    QStringList anchors;
    for (const ReportSection& s : doc.sections) {
        anchors << s.anchor;
        all += s.title + QLatin1Char('\n');
        for (const ReportBlock& b : s.blocks) {
            all += b.text + QLatin1Char('\n') + b.picture.caption;
            for (const auto& [l, v] : b.facts) all += l + QLatin1Char(' ') + v + QLatin1Char('\n');
            for (const QStringList& row : b.table.rows) all += row.join(QLatin1Char('\t')) + '\n';
        }
    }
    const Plan& plan = *input.plan.plan;
    for (size_t g = 0; g < plan.groups.size(); ++g)
        QVERIFY2(anchors.contains(QStringLiteral("group-%1").arg(g)),
                 qPrintable(anchors.join(' ')));
    for (const Diagnostic& d : plan.diagnostics)
        QVERIFY2(all.contains(QString::fromStdString(d.code)), d.code.c_str());
    for (const ParamSpec& p : input.plan.scenario->params)
        QVERIFY2(all.contains(QString::fromStdString(p.name)), p.name.c_str());
    // Sections in the issue's order.
    const QStringList order = {QStringLiteral("summary"), QStringLiteral("diagnostics"),
                               QStringLiteral("groups"), QStringLiteral("pictures"),
                               QStringLiteral("tp-lowering")};
    int last = -1;
    for (const QString& a : order) {
        const int at = int(anchors.indexOf(a));
        QVERIFY2(at > last, qPrintable(a));
        last = at;
    }
    QCOMPARE(doc.findings, plan.hasErrors());
    // A table summarised in the body points at an appendix section holding every row.
    for (const ReportSection& s : doc.sections)
        for (const ReportBlock& b : s.blocks) {
            if (b.kind != ReportBlock::Table || b.table.fullAnchor.isEmpty()) continue;
            const ReportSection* full = doc.find(b.table.fullAnchor);
            QVERIFY(full && full->appendix);
            QVERIFY(full->blocks.front().table.rows.size() > b.table.rows.size());
            // The worst rows first: the body's rows are the full table's first rows.
            QCOMPARE(full->blocks.front().table.rows.front(), b.table.rows.front());
        }
}

// 4,000 parameters: the body stays short, the appendix names every one.
void TestReport::largePlanKeepsEveryParameter() {
    const QString path = dir_.filePath(QStringLiteral("large.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"json({"format": "hsdp-scenario/1", "name": "large", "mesh": {"shape": [2, 4],
      "dim_names": ["dp_replicate", "dp_shard"]}, "params": [{"repeat": 4000, "var": "i",
      "params": [{"name": "block{i}.weight", "shape": [96, 64], "dtype": "f32", "placements": ["R", "S(0)"]}]}]})json");
    file.close();
    ReportInput input;
    input.plan = computePlanResult(path);
    QCOMPARE(input.plan.scenario->params.size(), size_t(4000));
    const ReportDocument doc = buildReport(input);
    ReportPictures pictures(input.plan, input.run);
    const QString html = QString::fromUtf8(reportToHtml(doc, pictures));
    QVERIFY2(htmlProblems(html).isEmpty(), qPrintable(htmlProblems(html)));
    for (int i = 0; i < 4000; ++i)
        QVERIFY2(html.contains(QStringLiteral("block%1.weight<").arg(i)),
                 qPrintable(QString::number(i)));
    const ReportSection* every = doc.find(QStringLiteral("appendix-parameters"));
    QVERIFY(every && every->appendix);
    QCOMPARE(every->blocks.front().table.rows.size(), size_t(4000));
    QCOMPARE(doc.find(QStringLiteral("parameters"))->blocks.back().table.rows.size(),
             size_t(kReportBodyRows));
}

// 4,000 batches x 8 coordinates of loads: the appendix keeps the worst
// kReportAppendixRows and says where the rest are.
void TestReport::appendixTablesAreCapped() {
    const QString path = dir_.filePath(QStringLiteral("batches.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"json({"format": "hsdp-scenario/1", "name": "batches", "mesh": {"shape": [8, 2],
      "dim_names": ["dp_replicate", "dp_shard"]}, "options": {"max_batch_numel": 100},
      "params": [{"repeat": 4000, "var": "i", "params": [{"name": "p{i}", "shape": [16, 4],
      "dtype": "f32", "placements": ["R", "S(0)"]}]}]})json");
    file.close();
    ReportInput input;
    input.plan = computePlanResult(path);
    size_t loads = 0;
    for (const Batch& b : input.plan.plan->groups.front().batches) loads += b.loads.size();
    QVERIFY(loads > size_t(kReportAppendixRows));
    const ReportDocument doc = buildReport(input);
    const ReportSection* all = doc.find(QStringLiteral("group-0-loads"));
    QVERIFY(all && all->appendix);
    QCOMPARE(all->blocks.front().table.rows.size(), size_t(kReportAppendixRows));
    QVERIFY(all->blocks.front().table.note.contains(QStringLiteral("plan --json")));
    // Every parameter still is in the appendix: 4,000 < the cap.
    QCOMPARE(doc.find(QStringLiteral("appendix-parameters"))->blocks.front().table.rows.size(),
             size_t(4000));
}

void TestReport::cliReports_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("suffix");
    for (const char* name : kSamples)
        for (const char* suffix : {"html", "pdf"})
            QTest::addRow("%s %s", name, suffix) << sample(name) << QString::fromLatin1(suffix);
}

void TestReport::cliReports() {
    QFETCH(QString, scenario);
    QFETCH(QString, suffix);
    const json plan = planJson(scenario);
    QVERIFY(!plan.is_null());
    const QString out =
        dir_.filePath(QFileInfo(scenario).completeBaseName() + QLatin1Char('.') + suffix);
    const CliOutcome report =
        inspect({QStringLiteral("report"), scenario, QStringLiteral("-o"), out});
    QVERIFY2(report.exitCode == (planHasErrors(plan) ? 1 : 0), report.err.constData());
    QVERIFY(report.err.contains(out.toUtf8()));  // says where the report is
    // The offscreen platform's harmless size-hint warning is not the user's business.
    QVERIFY2(!report.err.contains("propagateSizeHints"), report.err.constData());
    const int worldSize = plan["world_size"];
    if (suffix == QLatin1String("html")) {
        const QString html = QString::fromUtf8(readAll(out));
        QVERIFY2(htmlProblems(html).isEmpty(), qPrintable(htmlProblems(html)));
        QVERIFY(html.contains(QStringLiteral("<dt>World size</dt><dd>%1</dd>").arg(worldSize)));
        QVERIFY(html.contains(
            QStringLiteral("<dt>Owner imbalance</dt><dd>%1 ").arg(worstImbalance(plan))));
        // The imbalance the step waits for is a headline of its own.
        if (const QString compute = rankComputeImbalance(plan); !compute.isEmpty())
            QVERIFY2(
                html.contains(QStringLiteral("<dt>Per-rank Newton–Schulz imbalance</dt><dd>%1:")
                                  .arg(compute)),
                qPrintable(compute));
        for (size_t g = 0; g < plan["groups"].size(); ++g)
            QVERIFY(html.contains(QStringLiteral("id=\"group-%1\"").arg(g)));
        for (const auto& d : plan["diagnostics"])
            QVERIFY2(html.contains(escaped(d["code"])), d["code"].get<std::string>().c_str());
        for (const auto& p : plan["params"])
            QVERIFY2(html.contains(escaped(p["name"])), p["name"].get<std::string>().c_str());
        QVERIFY(html.contains(QStringLiteral("data:image/png;base64,")));
        return;
    }
    const QString text = pdfText(out);
    QVERIFY2(!text.isEmpty(), "pdftotext read nothing");
    QVERIFY2(
        text.contains(QRegularExpression(QStringLiteral("World size\\s+%1\\b").arg(worldSize))),
        qPrintable(text.left(3000)));
    QVERIFY2(text.contains(
                 QRegularExpression(QStringLiteral("Owner imbalance\\s+%1\\b")
                                        .arg(QRegularExpression::escape(worstImbalance(plan))))),
             qPrintable(worstImbalance(plan)));
    const QString compact = withoutSpace(text);
    for (const auto& d : plan["diagnostics"])
        QVERIFY2(compact.contains(QString::fromStdString(d["code"])),
                 d["code"].get<std::string>().c_str());
    QVERIFY(text.contains(QStringLiteral("page 2")));  // numbered pages
}

void TestReport::runReports_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("suffix");
    QTest::newRow("teaching corrected html") << sample("teaching_2x2.json") << "corrected"
                                             << "html";
    QTest::newRow("teaching corrected pdf") << sample("teaching_2x2.json") << "corrected"
                                            << "pdf";
    QTest::newRow("hazards reference html") << sample("diagnostics_tour.json") << "reference"
                                            << "html";
    QTest::newRow("hazards reference pdf") << sample("diagnostics_tour.json") << "reference"
                                           << "pdf";
    QTest::newRow("70B corrected html") << sample("llama3_70b_hsdp_tp_2x4x4.json") << "corrected"
                                        << "html";
    // A shrunk run: eleven traffic columns on a page.
    QTest::newRow("70B corrected pdf") << sample("llama3_70b_hsdp_tp_2x4x4.json") << "corrected"
                                       << "pdf";
}

// With --run: the verdict, the totals and every mismatch text of `run --json`.
void TestReport::runReports() {
    QFETCH(QString, scenario);
    QFETCH(QString, mode);
    QFETCH(QString, suffix);
    const CliOutcome runOut = inspect({QStringLiteral("run"), QStringLiteral("--json"),
                                       QStringLiteral("--mode"), mode, scenario});
    const json run = json::parse(runOut.out.toStdString());
    const QString out = dir_.filePath(
        QStringLiteral("run-%1-%2.%3").arg(QFileInfo(scenario).completeBaseName(), mode, suffix));
    const CliOutcome report = inspect({QStringLiteral("report"), scenario, QStringLiteral("--run"),
                                       QStringLiteral("--mode"), mode, QStringLiteral("-o"), out});
    QCOMPARE(report.exitCode, run["verified"].get<bool>() ? 0 : 1);
    const bool html = suffix == QLatin1String("html");
    const QString text = html ? QString::fromUtf8(readAll(out)) : pdfText(out);
    if (html) QVERIFY2(htmlProblems(text).isEmpty(), qPrintable(htmlProblems(text)));
    QVERIFY(text.contains(run["verified"].get<bool>() ? QStringLiteral("VERIFIED")
                                                      : QStringLiteral("NOT VERIFIED")));
    QVERIFY(text.contains(QLocale(QLocale::English).toString(run["collectives"].get<qint64>()) +
                          QStringLiteral(" collectives")));
    const QString compact = withoutSpace(text);
    int mismatches = 0;
    for (const auto& p : run["params"])
        for (const auto& m : p.value("mismatches", json::array())) {
            const QString mismatch =
                html ? escaped(m["text"]) : withoutSpace(QString::fromStdString(m["text"]));
            QVERIFY2((html ? text : compact).contains(mismatch),
                     m["text"].get<std::string>().c_str());
            ++mismatches;
        }
    QCOMPARE(mismatches > 0, mode == QLatin1String("reference"));  // the hazard sample's
    for (const char* op : {"all_gather", "broadcast"}) QVERIFY(text.contains(QLatin1String(op)));
    QVERIFY(text.contains(QStringLiteral("busbw")));
    // Every traffic column is as wide as its widest word: no "Coll/ecti/ves".
    QVERIFY2(text.count(QStringLiteral("Collectives")) >= 2, qPrintable(text));
    if (mode == QLatin1String("reference") && html)
        QVERIFY(text.contains(QStringLiteral("as the reference run gathered it")));
}

void TestReport::exitCodesAndAtomicWrite() {
    const QString out = dir_.filePath(QStringLiteral("kept.html"));
    QFile old(out);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old report");
    old.close();
    // An unreadable scenario: exit 2, named; the old file is untouched.
    const QString missing = dir_.filePath(QStringLiteral("no-such-scenario.json"));
    CliOutcome r = inspect({QStringLiteral("report"), missing, QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no-such-scenario.json"), r.err.constData());
    QCOMPARE(readAll(out), QByteArray("old report"));
    // An unwritable output: exit 2, named.
    const QString nowhere = dir_.filePath(QStringLiteral("missing-folder/r.pdf"));
    r = inspect(
        {QStringLiteral("report"), sample("teaching_2x2.json"), QStringLiteral("-o"), nowhere});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("missing-folder/r.pdf"), r.err.constData());
    // A format the suffix does not name, and a missing -o.
    r = inspect({QStringLiteral("report"), sample("teaching_2x2.json"), QStringLiteral("-o"),
                 dir_.filePath(QStringLiteral("r.txt"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("r.txt"));
    QCOMPARE(inspect({QStringLiteral("report"), sample("teaching_2x2.json")}).exitCode, 2);
    QCOMPARE(
        inspect({QStringLiteral("report"), sample("teaching_2x2.json"), QStringLiteral("--mode"),
                 QStringLiteral("reference"), QStringLiteral("-o"), out})
            .exitCode,
        2);
    // Written: replaced whole, and nothing else left in the folder.
    const QStringList before = QDir(dir_.path()).entryList(QDir::Files | QDir::Hidden);
    r = inspect({QStringLiteral("report"), sample("teaching_2x2.json"), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(readAll(out).startsWith("<!DOCTYPE html>"));
    QCOMPARE(QDir(dir_.path()).entryList(QDir::Files | QDir::Hidden), before);
    // Help in the tool's style.
    r = inspect({QStringLiteral("report"), QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("usage: hsdp-inspect report"));
    QVERIFY(
        inspect({QStringLiteral("--help")}).out.contains("report SCENARIO -o FILE.html|FILE.pdf"));
}

// --job DUMPS holds a job's dumps against the plan: a Job check section,
// exit 1 when the job diverged, 2 with the reader's message when a dump
// does not read.
void TestReport::jobAddsTheJobCheck() {
    const QString dumps = dir_.filePath(QStringLiteral("fr"));
    QVERIFY(QDir().mkpath(dumps));
    CliOutcome r = inspect({QStringLiteral("run"), sample("teaching_2x2.json"),
                            QStringLiteral("--flight-recorder"), dumps});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString out = dir_.filePath(QStringLiteral("job.html"));
    const QStringList report = {QStringLiteral("report"), sample("teaching_2x2.json"),
                                QStringLiteral("--job"),  dumps,
                                QStringLiteral("-o"),     out};
    r = inspect(report);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QString html = QString::fromUtf8(readAll(out));
    QVERIFY(html.contains(QStringLiteral("id=\"job-check\"")));
    QVERIFY(html.contains(QStringLiteral("0 divergences")));
    // Rank 3 never recorded its first collective: missing.
    const QString rank3 = QDir(dumps).filePath(QStringLiteral("nccl_trace_rank_3.json"));
    QJsonObject dump = QJsonDocument::fromJson(readAll(rank3)).object();
    QJsonArray entries = dump.value(QStringLiteral("entries")).toArray();
    QVERIFY(entries.size() > 1);
    const QString group =
        entries.first().toObject().value("process_group").toArray().at(0).toString();
    entries.removeFirst();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        QJsonObject entry = entries[i].toObject();
        if (entry.value("process_group").toArray().at(0).toString() != group) continue;
        for (const char* key : {"collective_seq_id", "op_id"})
            entry[QLatin1String(key)] = entry.value(QLatin1String(key)).toInteger() - 1;
        entries[i] = entry;
    }
    dump[QStringLiteral("entries")] = entries;
    QFile edited(rank3);
    QVERIFY(edited.open(QIODevice::WriteOnly | QIODevice::Truncate));
    edited.write(QJsonDocument(dump).toJson());
    edited.close();
    r = inspect(report);
    QVERIFY2(r.exitCode == 1, r.err.constData());
    html = QString::fromUtf8(readAll(out));
    QVERIFY(html.contains(QStringLiteral("rank 3 never recorded")));
    // The summary's verdict says the job diverged, before the job's own pages
    // (a reviewer read "VERIFIED" there and missed them).
    const qsizetype verdict = html.indexOf(QStringLiteral("; job: 4 ranks"));
    QVERIFY2(verdict >= 0 && verdict < html.indexOf(QStringLiteral("id=\"job-check\"")),
             qPrintable(html.left(3000)));
    QVERIFY(html.mid(verdict, 200).contains(QStringLiteral("1 divergence")));
    // A dump cut short: exit 2, the file named.
    QVERIFY(edited.open(QIODevice::ReadWrite));
    QVERIFY(edited.resize(edited.size() / 2));
    edited.close();
    r = inspect(report);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("nccl_trace_rank_3.json"), r.err.constData());
}

// File ▸ Export Report writes what the CLI writes for the same file (all but
// the header: date, command, file path), and then the run on screen.
void TestReport::studioExportsTheSameDocument() {
    MainWindow window;
    QVERIFY(testing::openAndWait(window, sample("teaching_2x2.json")));
    // The studio's prediction is the chosen cluster's; the CLI is told the same one.
    QSignalSpy costed(window.session(), &Session::predictionReady);
    QVERIFY(window.chooseCluster(QStringLiteral("h100-dgx"), true));
    QVERIFY(costed.wait(20000));
    QVERIFY(window.reportAction());
    QCOMPARE(window.reportAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
    QStringList keys;  // no shortcut is taken twice
    for (QAction* a : window.shortcutActions())
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString();
    QCOMPARE(keys.removeDuplicates(), 0);

    const QString fromStudio = dir_.filePath(QStringLiteral("studio.html"));
    QVERIFY(window.exportReport(fromStudio, true));
    const QString fromCli = dir_.filePath(QStringLiteral("cli.html"));
    QCOMPARE(inspect({QStringLiteral("report"), sample("teaching_2x2.json"), QStringLiteral("-o"),
                      fromCli, QStringLiteral("--cluster"), QStringLiteral("h100-dgx")})
                 .exitCode,
             0);
    auto body = [](const QString& path) {
        const QString html = QString::fromUtf8(readAll(path));
        return html.mid(html.indexOf(QStringLiteral("</header>")));
    };
    QVERIFY(!body(fromCli).isEmpty());
    QCOMPARE(body(fromStudio), body(fromCli));
    const QString studioHtml = QString::fromUtf8(readAll(fromStudio));
    QVERIFY(
        studioHtml.contains(QStringLiteral("hsdp-inspect report ") + sample("teaching_2x2.json")));
    QVERIFY(!studioHtml.contains(QStringLiteral("unsaved edits")));
    QVERIFY(studioHtml.contains(QStringLiteral("--cluster h100-dgx")));
    QVERIFY(studioHtml.contains(QStringLiteral("Cost on 1× h100-dgx")));

    // What is on screen, edits included, with a note that the file lacks them.
    QSignalSpy replanned(&window, &MainWindow::planShown);
    window.document()->setValue(QStringLiteral("/name"), Json("teaching, edited"),
                                QStringLiteral("rename"));
    QVERIFY(replanned.wait(20000));
    const QString edited = dir_.filePath(QStringLiteral("studio-edited.html"));
    QVERIFY(window.exportReport(edited, true));
    const QString editedHtml = QString::fromUtf8(readAll(edited));
    QVERIFY(editedHtml.contains(QStringLiteral("Scenario: teaching, edited")));
    QVERIFY(editedHtml.contains(QStringLiteral("unsaved edits")));

    QSignalSpy ran(&window, &MainWindow::runReady);
    QVERIFY(window.startRun(RunRequest{}));
    QVERIFY(ran.wait(60000));
    const QString withRun = dir_.filePath(QStringLiteral("studio-run.pdf"));
    QVERIFY(window.exportReport(withRun, true));
    const QString text = pdfText(withRun);
    // The command may wrap anywhere on the page (its paths' lengths vary).
    QVERIFY(withoutSpace(text).contains(QStringLiteral("--run--modecorrected")));
    QVERIFY(text.contains(QStringLiteral("Run: verification")));
    QVERIFY(!window.exportReport(dir_.filePath(QStringLiteral("missing/x.html")), true));
}

// report --cluster: the Cost section says the step and the peak rank as
// plan --cluster --json computes them, with the timeline and memory pictures;
// without --cluster there is none, and a cluster that does not read is named.
void TestReport::clusterAddsTheCost() {
    const QString scenario = sample("llama3_70b_hsdp_tp_2x4x4.json");
    const CliOutcome plan = inspect({QStringLiteral("plan"), QStringLiteral("--json"), scenario,
                                     QStringLiteral("--cluster"), QStringLiteral("h100-dgx")});
    QCOMPARE(plan.exitCode, 0);
    const json cost = json::parse(plan.out.toStdString())["cost"];
    const QString out = dir_.filePath(QStringLiteral("cost.html"));
    const CliOutcome report =
        inspect({QStringLiteral("report"), scenario, QStringLiteral("-o"), out,
                 QStringLiteral("--cluster"), QStringLiteral("h100-dgx")});
    QVERIFY2(report.exitCode == 0, report.err.constData());
    const QString html = QString::fromUtf8(readAll(out));
    QVERIFY2(htmlProblems(html).isEmpty(), qPrintable(htmlProblems(html)));
    QVERIFY(html.contains(QStringLiteral("Cost on 4× h100-dgx")));
    QVERIFY(html.contains(QString::fromStdString(durationText(cost["step_seconds"].get<double>())) +
                          QStringLiteral(" ") +
                          QString::fromStdString(cost["step_validated_error"].get<std::string>()) +
                          QStringLiteral(" (makespan at real size")));
    int peakRank = 0;
    int64_t peak = -1;
    for (const auto& r : cost["ranks"])
        if (r["peak_bytes"].get<int64_t>() > peak) {
            peak = r["peak_bytes"].get<int64_t>();
            peakRank = r["rank"].get<int>();
        }
    QVERIFY(html.contains(QStringLiteral("%1 on rank %2")
                              .arg(QString::fromStdString(humanBytes(double(peak))))
                              .arg(peakRank)));
    QVERIFY(html.contains(QStringLiteral("The predicted step, one row per rank")));
    // The same text as plan --cluster, its gather strategies per group included.
    QVERIFY(html.contains(QStringLiteral("gather strategies  per gathered group")));
    QVERIFY(html.contains(QStringLiteral("predicted peak by kind of buffer")));

    const QString plain = dir_.filePath(QStringLiteral("plain.html"));
    QCOMPARE(inspect({QStringLiteral("report"), scenario, QStringLiteral("-o"), plain}).exitCode,
             0);
    QVERIFY(!QString::fromUtf8(readAll(plain)).contains(QStringLiteral("Cost on")));
    const CliOutcome bad =
        inspect({QStringLiteral("report"), scenario, QStringLiteral("-o"), plain,
                 QStringLiteral("--cluster"), QStringLiteral("no-such-cluster")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("no-such-cluster"));
}

// A reference run's wrong rows are drawn against a corrected run: red rows
// in every picture; without the corrected run, a sentence and no picture.
void TestReport::wrongRowsAreDrawn() {
    const PlanResult plan = computePlanResult(sample("diagnostics_tour.json"));
    auto runIn = [&](RunMode mode) {
        RunOptions options;
        options.mode = mode;
        return RunData{plan,
                       std::make_shared<RunResult>(runPlan(*plan.scenario, *plan.plan, options))};
    };
    ReportInput input;
    input.plan = plan;
    input.run = runIn(RunMode::Reference);
    input.comparison = runIn(RunMode::Corrected);
    auto wrongRowPictures = [](const ReportDocument& doc) {
        std::vector<ReportPicture> pictures;
        for (const ReportSection& s : doc.sections)
            for (const ReportBlock& b : s.blocks)
                if (b.kind == ReportBlock::Picture && b.picture.view == QLatin1String("wrongRows"))
                    pictures.push_back(b.picture);
        return pictures;
    };
    const std::vector<ReportPicture> drawn = wrongRowPictures(buildReport(input));
    QVERIFY(!drawn.empty());
    ReportPictures pictures(input.plan, input.run, input.comparison);
    const QRgb red = WrongRowsWidget::wrongColor().rgb();
    for (const ReportPicture& p : drawn) {
        const QImage image = pictures.image(p, p.size).convertToFormat(QImage::Format_RGB32);
        int wrong = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) wrong += image.pixel(x, y) == red;
        QVERIFY2(wrong > 100, qPrintable(p.caption));
    }
    input.comparison = {};
    QVERIFY(wrongRowPictures(buildReport(input)).empty());
}

// A plan whose predicted peak is over the device's memory: the report's
// verdict counts the out-of-memory error, the Diagnostics section lists it
// first among the errors, and the report is a finding (exit 1), as plan
// --cluster and the status bar have it.
void TestReport::outOfMemoryIsAnErrorOfTheReport() {
    ReportInput input;
    input.plan = computePlanResult(sample("llama3_8b_hsdp_2x4.json"));
    auto small = std::make_shared<Cluster>(readClusterPreset("h100-dgx"));
    small->device.memoryBytes = int64_t(4) << 30;  // the 8B step peaks far above 4 GiB
    input.plan.prediction = predictPlan(input.plan, small);
    QVERIFY(input.plan.prediction && !input.plan.prediction->diagnostics.empty());
    for (const Diagnostic& d : input.plan.plan->diagnostics)
        QVERIFY(d.severity != Severity::Error);  // the plan alone has none
    const ReportDocument doc = buildReport(input);
    QString verdict;
    const ReportTable* errors = nullptr;
    for (const ReportSection& section : doc.sections)
        for (const ReportBlock& block : section.blocks) {
            for (const auto& [label, value] : block.facts)
                if (label == QStringLiteral("Verdict")) verdict = value;
            if (section.anchor == QStringLiteral("diagnostics-errors") &&
                block.kind == ReportBlock::Table)
                errors = &block.table;
        }
    QVERIFY2(verdict.startsWith(QStringLiteral("plan has 1 error diagnostic(s)")),
             qPrintable(verdict));
    QVERIFY(errors);
    QCOMPARE(errors->rows.front().front(), QStringLiteral("out-of-memory"));
    QVERIFY(doc.findings);  // report exits 1 on it, as plan --cluster does
    // The cost facts say it beside the device's memory.
    QString device;
    for (const ReportSection& section : doc.sections)
        for (const ReportBlock& block : section.blocks)
            for (const auto& [label, value] : block.facts)
                if (label == QStringLiteral("Device memory")) device = value;
    QVERIFY2(device.contains(QStringLiteral(": DOES NOT FIT (out of memory: peak ")),
             qPrintable(device));
}

// report --run --cluster: the run-versus-prediction picture is the run as
// measured above the prediction of the same run, each timeline under its
// title and nothing else (no Show box, no caption beside it), its rows
// filling it; the plan's predicted timeline is the plan's canvas alone. The
// plan's picture comes first in the document, so the view that draws both
// is made without the run and must be given it for the second.
void TestReport::runPictureShowsTheRunAboveItsPrediction() {
    const ReportInput input = predictedInput("teaching_2x2.json", "h100-dgx", true);
    QVERIFY(input.run.prediction);
    const std::vector<ReportPicture> drawn =
        picturesOf(buildReport(input), QStringLiteral("predicted"));
    QCOMPARE(drawn.size(), size_t(2));
    QCOMPARE(drawn[0].part, QStringLiteral("plan"));
    QCOMPARE(drawn[1].part, QStringLiteral("run"));
    // Its caption says, as the CLI does, that a GPU preset does not describe
    // the machine the run measured: the gap is a distance to that hardware,
    // never called the model's error.
    const RunPrediction& p = *input.run.prediction->prediction;
    QVERIFY2(
        drawn[1].caption.contains(
            QStringLiteral("this machine's step took %1 the predicted one there")
                .arg(QString::fromStdString(ratioText(p.measuredSeconds / p.predictedSeconds)))) &&
            drawn[1].caption.contains(QStringLiteral("on one time axis")) &&
            drawn[1].caption.contains(QStringLiteral("not the model's error")) &&
            !drawn[1].caption.contains(QStringLiteral("Makespan error ")),
        qPrintable(drawn[1].caption));
    QVERIFY2(drawn[1].caption.contains(QStringLiteral("h100-dgx describes GPUs, not this machine")),
             qPrintable(drawn[1].caption));
    ReportPictures pictures(input.plan, input.run);
    std::vector<QImage> images;
    for (const ReportPicture& p : drawn)
        images.push_back(pictures.image(p, pictures.fittedSize(p, p.size)));

    // What the pictures must be: the canvases of a timeline view given the plan and the run.
    PlanSelection selection;
    PredictedTimelineWidget expected(&selection);
    expected.showPlan(input.plan);
    expected.showRun(input.run);
    const QImage& plan = images[0];
    QCOMPARE(plan.width(), drawn[0].size.width());
    // Under its title band ("Predicted, not measured: ..."), the timeline alone.
    const QRect planTimeline(0, PredictedTimelineWidget::kPictureTitleHeight, plan.width(),
                             plan.height() - PredictedTimelineWidget::kPictureTitleHeight);
    QVERIFY2(differingShare(plan.copy(planTimeline),
                            expected.planCanvas()->renderImage(planTimeline.size())) < 0.01,
             "the plan's picture is not its predicted timeline under its title");
    const QImage& run = images[1];
    QCOMPARE(run.width(), drawn[1].size.width());
    const PredictedTimelineWidget::RunPicture areas =
        PredictedTimelineWidget::runPicture(run.size());
    QVERIFY2(differingShare(run.copy(areas.measured),
                            expected.measuredCanvas()->renderImage(areas.measured.size())) < 0.01,
             "the measured run is not above");
    QVERIFY2(differingShare(run.copy(areas.predicted), expected.runPredictionCanvas()->renderImage(
                                                           areas.predicted.size())) < 0.01,
             "the run's prediction is not below");
    // Each title strip is text on white (a combo box or a label's panel is not).
    for (const QRect& title : {areas.measuredTitle, areas.predictedTitle}) {
        const QImage strip = run.copy(title).convertToFormat(QImage::Format_RGB32);
        int ink = 0;
        for (int y = 0; y < strip.height(); ++y)
            for (int x = 0; x < strip.width(); ++x) ink += strip.pixel(x, y) != qRgb(255, 255, 255);
        QVERIFY2(ink > 50 && ink < strip.width() * strip.height() / 8,
                 qPrintable(QStringLiteral("%1 pixels of ink in a title strip").arg(ink)));
    }
    // Four ranks: every row as tall as a row gets, and no blank band under the last.
    for (const auto& [canvas, area] :
         {std::pair{expected.measuredCanvas(), areas.measured},
          std::pair{expected.runPredictionCanvas(), areas.predicted}}) {
        const double rows = canvas->rowLayout().lineCount() * canvas->rowHeight(area.size());
        QCOMPARE(canvas->rowHeight(area.size()), double(TraceCanvas::kMaxRowHeight));
        QVERIFY2(
            area.height() - TraceCanvas::kHeader - rows <= 6,
            qPrintable(
                QStringLiteral("%1 px of rows in a %2 px timeline").arg(rows).arg(area.height())));
    }
}

void TestReport::everyPictureIsItsContentAlone_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("width");  // 0: each picture's own size (HTML), else at most this wide
    // An A4 PDF lays a picture out at most 1.3 times its column: 210 mm less
    // 2 x 14 mm of margins at 96 dpi (report_pdf.cpp).
    const int a4 = int((210.0 - 28.0) / 25.4 * 96 * 1.3);
    for (const char* name : {"teaching_2x2.json", "llama3_70b_hsdp_tp_2x4x4.json"}) {
        QTest::newRow(name) << QString::fromLatin1(name) << 0;
        QTest::newRow(qPrintable(QStringLiteral("%1, A4 PDF").arg(name)))
            << QString::fromLatin1(name) << a4;
    }
}

// Every picture of a report with a run and a prediction draws what it is
// about and nothing else: no control of the studio (a combo box's grey),
// the drawing spanning the picture with no blank band beside or under it.
void TestReport::everyPictureIsItsContentAlone() {
    QFETCH(QString, name);
    QFETCH(int, width);
    const ReportInput input = predictedInput(qPrintable(name), "h100-dgx", true);
    const ReportDocument doc = buildReport(input);
    ReportPictures pictures(input.plan, input.run);
    const QRgb window = QApplication::palette().color(QPalette::Window).rgb();
    for (const ReportPicture& p : picturesOf(doc)) {
        const int wide = width > 0 ? std::min(width, p.size.width()) : p.size.width();
        const QSize asked(wide, wide * p.size.height() / p.size.width());
        const QSize size = pictures.fittedSize(p, asked);
        const QString what = QStringLiteral("%1 at %2x%3: %4")
                                 .arg(p.view + QLatin1Char(':') + p.part)
                                 .arg(size.width())
                                 .arg(size.height())
                                 .arg(p.caption.left(60));
        QVERIFY2(size.width() <= asked.width() && size.height() > 0, qPrintable(what));
        const QImage image = pictures.image(p, size).convertToFormat(QImage::Format_RGB32);
        qint64 chrome = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) chrome += image.pixel(x, y) == window;
        QVERIFY2(
            chrome < qint64(image.width()) * image.height() / 200,
            qPrintable(QStringLiteral("%1 px of the window's grey in %2").arg(chrome).arg(what)));
        const QRect ink = inkBounds(image);
        // A margin, a legend's ragged edge: an eighth at most.
        const int slackX = std::max(24, image.width() / 8);
        const int slackY = std::max(24, image.height() / 8);
        QVERIFY2(ink.left() <= slackX && image.width() - 1 - ink.right() <= slackX &&
                     ink.top() <= slackY && image.height() - 1 - ink.bottom() <= slackY,
                 qPrintable(QStringLiteral("%1: drawn in %2,%3 %4x%5")
                                .arg(what)
                                .arg(ink.left())
                                .arg(ink.top())
                                .arg(ink.width())
                                .arg(ink.height())));
    }
}

// The owner-balance pictures are where the owner-imbalance rule judges the
// plan worst (worstOwnerImbalance, the summary's and the status bar's
// figure): that batch, or the group over its batches summed (the Mixtral
// sample: its expert group, not its first one-parameter batch); with
// nothing judged, the first batch, and the caption says so.
void TestReport::balancePicturesShowTheWorstJudgedPlace() {
    for (const char* name : kSamples) {
        ReportInput input;
        input.plan = computePlanResult(sample(name));
        const std::vector<ReportPicture> balance =
            picturesOf(buildReport(input), QStringLiteral("ownerBalance"));
        QVERIFY2(balance.size() >= 2, name);
        const ReportPicture& coord = balance.front();
        const Plan& plan = *input.plan.plan;
        const std::optional<OwnerImbalance> worst = worstOwnerImbalance(plan.groups);
        if (!worst) {
            QCOMPARE(coord.part, QStringLiteral("coord"));
            QCOMPARE(coord.group, 0);
            QCOMPARE(coord.batch, 0);
            QVERIFY2(coord.caption.startsWith(QStringLiteral("No batch or group is judged")),
                     qPrintable(coord.caption));
            continue;
        }
        const Group& group = plan.groups[size_t(worst->group)];
        QCOMPARE(coord.group, worst->group);
        // The groups not drawn are said to be elsewhere, not left to be guessed.
        QCOMPARE(coord.caption.contains(QStringLiteral("group(s) are not drawn")),
                 plan.groups.size() > 1);
        QVERIFY2(coord.caption.contains(
                     QStringLiteral("(max/mean %1)").arg(QString::number(worst->ratio, 'f', 2))),
                 qPrintable(coord.caption));
        if (worst->overGroup()) {
            QCOMPARE(coord.part, QStringLiteral("group-coord"));
            QCOMPARE(coord.batch, -1);
            QVERIFY2(coord.caption.contains(QStringLiteral("group %1 over its %2 batches")
                                                .arg(group.id)
                                                .arg(group.batches.size())),
                     qPrintable(coord.caption));
        } else {
            QCOMPARE(coord.part, QStringLiteral("coord"));
            QCOMPARE(coord.batch, worst->batch);
        }
        if (QLatin1String(name) == QLatin1String("mixtral_8x7b_expert_mesh.json"))
            QVERIFY2(worst->overGroup(), "the sample no longer shows a group's imbalance");
    }
}

// `report` times the whole command, and says which part the run was.
// Each coordinate's share of the batch mean is of the owners' loads, so the
// largest share is the batch's max/mean: a frozen param of the batch (no
// owner) does not lower it (0.67 beside a max/mean of 1.00).
void TestReport::loadSharesAreOfTheOwnersMean() {
    ReportInput input;
    input.plan = computePlanResult(sample("teaching_2x2.json"));
    const ReportDocument doc = buildReport(input);
    const ReportTable* batches = nullptr;
    const ReportTable* loads = nullptr;
    for (const ReportSection& section : doc.sections)
        for (const ReportBlock& block : section.blocks) {
            if (block.kind != ReportBlock::Table) continue;
            if (!batches && block.table.header.contains(QStringLiteral("Imbalance (max/mean)")))
                batches = &block.table;
            if (!loads && block.table.header.contains(QStringLiteral("Share of the batch mean")))
                loads = &block.table;
        }
    QVERIFY(batches && loads);
    const int imbalance = int(batches->header.indexOf(QStringLiteral("Imbalance (max/mean)")));
    const int share = int(loads->header.indexOf(QStringLiteral("Share of the batch mean")));
    QCOMPARE(batches->rows.front().front(), QStringLiteral("0"));  // group 0's batch 0
    QString largest;
    for (const QStringList& row : loads->rows)
        if (row.front() == QStringLiteral("0") && largest.isEmpty()) largest = row[share];
    QCOMPARE(largest, batches->rows.front()[imbalance]);
}

// A run's bandwidths are figures, never "0.000" (loopback moves a few KiB in
// hundreds of µs: 7e-6 GB/s): every busbw cell of a collective that moved
// bytes is above zero.
void TestReport::bandwidthsKeepTheirFigures() {
    const ReportInput input = predictedInput("teaching_2x2.json", "h100-dgx", true);
    const ReportDocument doc = buildReport(input);
    int cells = 0;
    for (const ReportSection& section : doc.sections)
        for (const ReportBlock& block : section.blocks) {
            if (block.kind != ReportBlock::Table) continue;
            const auto& header = block.table.header;
            for (int c = 0; c < header.size(); ++c) {
                if (!header[c].startsWith(QStringLiteral("busbw (GB/s"))) continue;
                for (const QStringList& row : block.table.rows) {
                    ++cells;
                    QVERIFY2(row[c].toDouble() > 0, qPrintable(row.join(QStringLiteral(" | "))));
                }
            }
        }
    QVERIFY(cells > 3);
}

void TestReport::reportTimingIsTheCommandsWallTime() {
    QTemporaryDir dir;
    const CliOutcome r = inspect({"report", HSDP_SOURCE_DIR "/tests/data/figures/even_2x4.json",
                                  "--run", "-o", dir.filePath(QStringLiteral("r.html"))});
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(r.exitCode == 0, qPrintable(err));
    static const QRegularExpression line(
        QStringLiteral("wrote .* in ([0-9.]+) s wall for the whole command \\(the run "
                       "([0-9.]+) s wall, writing the file ([0-9.]+) s\\)"));
    const auto m = line.match(err);
    QVERIFY2(m.hasMatch(), qPrintable(err));
    const double command = m.captured(1).toDouble();
    const double run = m.captured(2).toDouble();
    const double writing = m.captured(3).toDouble();
    QVERIFY2(command >= run + writing - 0.02, qPrintable(err));  // it contains both parts
    QVERIFY2(command <= double(r.millis) / 1000.0 + 0.01, qPrintable(err));  // and no more
}

// The command in a PDF wraps only between its arguments, whatever the length
// of its paths: "--cluster" was cut after "--", a line ending in "-".
void TestReport::pdfCommandWrapsOnlyBetweenArguments() {
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QSKIP("needs pdftotext");
    ReportInput input;
    input.plan = computePlanResult(sample("teaching_2x2.json"));
    ReportPictures pictures(input.plan, input.run);
    const QString marker = QStringLiteral("The command that reproduces this report:");
    int wrapped = 0;
    for (int n = 0; n < 50; n += 2) {
        ReportDocument doc;
        doc.title = QStringLiteral("Command");
        doc.scenarioName = QStringLiteral("teaching");
        const QString home = QStringLiteral("/home/someone/") + QString(n, QLatin1Char('d'));
        doc.command = QStringLiteral(
                          "hsdp-inspect report %1/samples/teaching_2x2.json --run --mode "
                          "corrected -o %1/out/report.pdf --cluster h100-dgx --job "
                          "%1/dumps/rank-dumps --page letter --title 'A title, with spaces'")
                          .arg(home);
        const QString path = dir_.filePath(QStringLiteral("command-%1.pdf").arg(n));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(reportToPdf(doc, pictures, &file), QString());
        file.close();
        const QStringList lines = pdfText(path).split(QLatin1Char('\n'));
        qsizetype at = lines.indexOf(marker);
        if (at < 0)  // -layout may indent it
            for (qsizetype i = 0; i < lines.size() && at < 0; ++i)
                if (lines[i].trimmed() == marker) at = i;
        QVERIFY2(at >= 0, qPrintable(lines.join(QLatin1Char('\n'))));
        QStringList shown;
        for (qsizetype i = at + 1; i < lines.size() && !lines[i].trimmed().isEmpty(); ++i)
            shown << lines[i].simplified();
        wrapped += shown.size() > 1;
        // Lines joined at spaces give the command back: no argument is split.
        QCOMPARE(shown.join(QLatin1Char(' ')), doc.command);
        for (const QString& line : shown)
            QVERIFY2(!line.endsWith(QLatin1Char('-')), qPrintable(line));
    }
    QVERIFY(wrapped > 0);
}

QTEST_MAIN(TestReport)
#include "tst_report.moc"
