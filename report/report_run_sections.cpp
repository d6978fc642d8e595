// SPDX-License-Identifier: Apache-2.0
// The run's sections: verification (every mismatch text in full), traffic
// per op and per mesh dim with NCCL-tests bandwidths, the slowest collectives and,
// for a reference run, the wrong rows drawn.
#include "derived/run/run_status_text.h"
#include "derived/run/run_steps.h"
#include "derived/run/step_caption.h"
#include "derived/run/traffic_stats.h"
#include "export/run_figures.h"
#include "report/report_builder.h"
#include "report/report_sections.h"
#include "types/figures.h"
#include "wrong_rows/wrong_rows.h"

namespace hsdp::report {

namespace {

constexpr int kMaxWrongRowPictures = 4;

// NCCL-tests GB/s (1e9 bytes/s), the unit in the column's header, to three
// significant figures as the studio shows it (loopback's 7e-6 printed "0.000").
QString gbps(double bytesPerSecond) {
    QString text = QString::fromStdString(bandwidthText(bytesPerSecond));
    text.chop(QStringLiteral(" GB/s").size());
    return text;
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString verdictOf(const ParamRunResult& p) {
    if (paramFailed(p)) return QStringLiteral("FAILED");
    if (paramNotReached(p)) return QStringLiteral("not reached");
    return QStringLiteral("exact");
}

ReportTable paramVerification(const RunResult& run) {
    ReportTable table;
    table.header = {QStringLiteral("Parameter"), QStringLiteral("Verdict"),
                    QStringLiteral("Gather"),    QStringLiteral("Step"),
                    QStringLiteral("Replicas"),  QStringLiteral("Detail")};
    std::vector<const ParamRunResult*> order;
    for (const auto& p : run.params) order.push_back(&p);
    auto rank = [](const ParamRunResult* p) {
        return paramFailed(*p) ? 0 : paramNotReached(*p) ? 1 : 2;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](auto* a, auto* b) { return rank(a) < rank(b); });
    for (const ParamRunResult* p : order)
        table.rows.push_back(
            {QStringLiteral("#%1 %2").arg(p->index).arg(QString::fromStdString(p->name)),
             verdictOf(*p), gatherVerdictText(p->gather), checkVerdictText(p->step),
             replicaVerdictText(*p), QString::fromStdString(p->detail)});
    return table;
}

void addMismatchRows(const QString& what, const std::vector<Mismatch>& mismatches,
                     ReportTable& table) {
    for (const Mismatch& m : mismatches)
        table.rows.push_back({what, QString::number(m.rank), QString::fromStdString(m.what),
                              QString::fromStdString(m.text)});
}

ReportTable mismatchTable(const RunResult& run) {
    ReportTable table;
    table.header = {QStringLiteral("Where"), QStringLiteral("Rank"), QStringLiteral("Check"),
                    QStringLiteral("Mismatch (the engine's text)")};
    for (const auto& p : run.params)
        addMismatchRows(QStringLiteral("#%1 %2").arg(p.index).arg(QString::fromStdString(p.name)),
                        p.mismatches, table);
    for (const auto& t : run.tpTransitions)
        addMismatchRows(
            QStringLiteral("tp #%1 %2").arg(t.index).arg(QString::fromStdString(t.name)),
            t.mismatches, table);
    return table;
}

ReportTable transitionTable(const RunResult& run) {
    ReportTable table;
    table.header = {QStringLiteral("Transition"), QStringLiteral("Path"), QStringLiteral("Result"),
                    QStringLiteral("Detail")};
    for (const auto& t : run.tpTransitions)
        table.rows.push_back(
            {QStringLiteral("#%1 %2").arg(t.index).arg(QString::fromStdString(t.name)),
             QString::fromStdString(t.path), checkVerdictText(t.result),
             QString::fromStdString(t.detail)});
    std::stable_sort(table.rows.begin(), table.rows.end(), [](const auto& a, const auto& b) {
        return (a[2] != QLatin1String("exact")) > (b[2] != QLatin1String("exact"));
    });
    return table;
}

Facts runFacts(const RunResult& run) {
    Facts facts;
    facts.emplace_back(QStringLiteral("Mode"), QString::fromLatin1(runModeName(run.mode).data()));
    facts.emplace_back(QStringLiteral("Verdict"),
                       run.verified ? QStringLiteral("VERIFIED") : QStringLiteral("NOT VERIFIED"));
    facts.emplace_back(QStringLiteral("Counts"), runSummaryLine(run));
    if (!run.error.empty()) facts.emplace_back(QStringLiteral("Error"), runErrorText(run));
    if (run.shrink) facts.emplace_back(QStringLiteral("Shrunk"), qs(runShrinkText(run)));
    for (const auto& d : run.planErrors)
        facts.emplace_back(QStringLiteral("Plan error"), QString::fromStdString(d.code));
    facts.emplace_back(
        QStringLiteral("Totals"),
        qs(runTotalsText(run)) + QStringLiteral(" (%1 bytes on the wire)").arg(number(run.bytes)));
    return facts;
}

void addVerification(const RunResult& run, SectionList& list) {
    ReportSection& section =
        list.add(QStringLiteral("verification"), QStringLiteral("Run: verification"));
    section.factList(runFacts(run));
    section.paragraph(QStringLiteral("Parameters, the failed ones first:"));
    section.table(list.limited(paramVerification(run), QStringLiteral("appendix-verification"),
                               QStringLiteral("Verification of every parameter"), kReportBodyRows));
    ReportTable mismatches = mismatchTable(run);
    if (!mismatches.rows.empty()) {
        section.paragraph(QStringLiteral("Every mismatch the run found, its text in full:"));
        section.table(list.limited(std::move(mismatches), QStringLiteral("appendix-mismatches"),
                                   QStringLiteral("Every mismatch"), 4 * kReportBodyRows));
    }
    if (!run.tpTransitions.empty()) {
        section.paragraph(QStringLiteral("TP transitions, the failed ones first:"));
        section.table(list.limited(transitionTable(run), QStringLiteral("appendix-tp-verification"),
                                   QStringLiteral("Verification of every TP transition"),
                                   kReportBodyRows));
    }
    if (!run.notRun.empty()) {
        ReportTable notRun;
        notRun.header = {QStringLiteral("Parameter"), QStringLiteral("Why it did not run")};
        for (const auto& n : run.notRun)
            notRun.rows.push_back(
                {QStringLiteral("#%1 %2").arg(n.index).arg(QString::fromStdString(n.name)),
                 QString::fromStdString(n.reason)});
        section.paragraph(QStringLiteral("Parameters the planner rejected (not run):"));
        section.table(list.limited(std::move(notRun), QStringLiteral("appendix-not-run"),
                                   QStringLiteral("Parameters not run"), kReportBodyRows));
    }
}

ReportTable trafficTable(const QString& key, const TrafficStats& stats,
                         const std::vector<TrafficRow>& rows) {
    const QString of = stats.shrunk ? QStringLiteral(", shrunk run") : QString();
    ReportTable table;
    table.header = {key,
                    QStringLiteral("Collectives"),
                    QStringLiteral("Per-rank events"),
                    QStringLiteral("Wire bytes%1").arg(of),
                    QStringLiteral("Size S%1").arg(of),
                    QStringLiteral("Σ t (ms, summed over collectives)"),
                    QStringLiteral("Busy wall (ms)"),
                    QStringLiteral("algbw (GB/s%1)").arg(of),
                    QStringLiteral("busbw (GB/s%1)").arg(of)};
    if (stats.shrunk) {
        table.header.insert(4, QStringLiteral("Wire bytes, real size (≈)"));
        table.header.insert(6, QStringLiteral("Size S, real size (≈)"));
    }
    auto row = [&](const TrafficRow& r) {
        QStringList cells{r.key,
                          number(r.collectives),
                          number(r.events),
                          bytesText(double(r.wireBytes)),
                          bytesText(r.sizeBytes),
                          QString::number(r.seconds * 1e3, 'f', 3),
                          QString::number(r.wallSeconds * 1e3, 'f', 3),
                          gbps(r.algbw()),
                          gbps(r.busbw())};
        if (stats.shrunk) {
            cells.insert(4, bytesText(r.realWireBytes));
            cells.insert(6, bytesText(r.realSizeBytes));
        }
        return cells;
    };
    for (const TrafficRow& r : rows) table.rows.push_back(row(r));
    table.rows.push_back(row(stats.total));
    return table;
}

QString trafficConventions(const RunResult& run, const TrafficStats& stats) {
    QString text =
        QStringLiteral(
            "NCCL-tests conventions: S is the collective's whole buffer, t its own time (last "
            "arrival "
            "to last finish), algbw = S / t, busbw = algbw × 2(n−1)/n for all_reduce, (n−1)/n for "
            "all_gather, reduce_scatter and all_to_all, 1 for broadcast, in GB/s (1e9 bytes/s). "
            "Wire "
            "bytes: what the ranks sent under Gloo's algorithms. A collective is one call across "
            "its "
            "group, counted once; per-rank events count each member's part. Σ t sums the "
            "collectives' "
            "times: collectives of different groups run side by side, so it exceeds the run's wall "
            "time (%1); busy wall is the time at least one collective of the row was running "
            "(all: %2).")
            .arg(qs(wallTimeText(run.seconds)), qs(wallTimeText(stats.total.wallSeconds)));
    if (stats.shrunk)
        text += QStringLiteral(
                    " This is a shrunk run (every dim divided by %1): its bytes and bandwidths are "
                    "of the shrunk shapes, the real-size bytes are given beside them; how fast "
                    "the real sizes would move is not measured.")
                    .arg(run.shrink->factor);
    return text;
}

void addTraffic(const RunData& data, const std::vector<RunStep>& steps, const TrafficStats& stats,
                const RealScale& real, SectionList& list) {
    ReportSection& section =
        list.add(QStringLiteral("traffic"), QStringLiteral("Run: collectives and bandwidth"));
    section.paragraph(trafficConventions(*data.run, stats));
    section.table(trafficTable(QStringLiteral("Op"), stats, stats.byOp));
    section.table(trafficTable(QStringLiteral("Mesh dim"), stats, stats.byDim));
    ReportSection& slow =
        list.add(QStringLiteral("slowest"), QStringLiteral("Run: the slowest collectives"), 2);
    ReportTable table;
    table.header = {
        QStringLiteral("Order"), QStringLiteral("Collective"), QStringLiteral("Time t (µs)"),
        QStringLiteral("Waited (µs)"),
        stats.shrunk ? QStringLiteral("busbw (GB/s, shrunk run)") : QStringLiteral("busbw (GB/s)")};
    const Trace& trace = data.run->trace;
    for (int position : stats.slowest) {
        const RunStep& step = steps[size_t(position)];
        const TraceEvent& e = trace.events[size_t(step.events.front())];
        const double size = collectiveSize(step, trace);
        const double t = step.runUs() * 1e-6;
        const double bus =
            t > 0 ? size / t * busBandwidthFactor(e.op, int(e.groupRanks.size())) : 0;
        table.rows.push_back(
            {QString::number(position + 1),
             stepCaption(step, trace, *data.plan.scenario, *data.plan.plan, &real).headline,
             QString::number(step.runUs(), 'f', 1), QString::number(step.waitUs(), 'f', 1),
             gbps(bus)});
    }
    slow.table(std::move(table));
}

void addWrongRows(const RunResult& run, bool compared, SectionList& list) {
    ReportSection& section =
        list.add(QStringLiteral("wrong-rows"), QStringLiteral("Run: the wrong rows"));
    std::vector<int> wrong;
    for (const auto& p : run.params)
        if (p.gather == GatherVerdict::Mismatch) wrong.push_back(p.index);
    if (wrong.empty()) {
        section.paragraph(QStringLiteral("The reference run gathered every parameter right."));
        return;
    }
    if (!compared) {
        section.paragraph(QStringLiteral(
            "The rows are drawn against a corrected run of the same plan; there was none (the "
            "verification above names every wrong row)."));
        return;
    }
    section.paragraph(QStringLiteral(
        "Per rank, the rows a corrected run gathered next to the rows the reference run "
        "gathered; the rows it got wrong are red, with the run's own mismatch text."));
    for (size_t i = 0; i < wrong.size() && i < size_t(kMaxWrongRowPictures); ++i) {
        ReportPicture picture;
        picture.view = QStringLiteral("wrongRows");
        picture.drawsRun = true;
        picture.param = wrong[i];
        picture.size = QSize(1100, 720);
        picture.caption = QStringLiteral(
                              "Parameter #%1 as the reference run gathered it: the "
                              "rows it got wrong, per rank.")
                              .arg(wrong[i]);
        section.picture(std::move(picture));
    }
    if (wrong.size() > size_t(kMaxWrongRowPictures))
        section.paragraph(
            QStringLiteral("%1 more parameters gathered wrong are not drawn: %2.")
                .arg(wrong.size() - size_t(kMaxWrongRowPictures))
                .arg(listText({wrong.begin() + kMaxWrongRowPictures, wrong.end()}, 24)));
}

}  // namespace

void addRunSections(const ReportInput& input, SectionList& list) {
    const RunResult& run = *input.run.run;
    addVerification(run, list);
    const std::vector<RunStep> steps = runSteps(run.trace);
    const RealScale real = realScale(*input.run.plan.scenario, run.shrink);
    const TrafficStats stats =
        trafficStats(steps, run.trace, input.run.plan.scenario.get(), 12, &real);
    addTraffic(input.run, steps, stats, real, list);
    if (run.mode == RunMode::Reference) addWrongRows(run, input.comparison.isValid(), list);
}

}  // namespace hsdp::report
