// SPDX-License-Identifier: Apache-2.0
// The job check's section: a job's Flight Recorder record held against the
// plan (hsdp-inspect check-job, the studio's Job view): what was read, the
// summary, every divergence in check-job's sentence (the first one first)
// and the ranks of the process groups that did not record as planned.
#include <QFileInfo>

#include "report/report_sections.h"

namespace hsdp::report {

namespace {

constexpr int kDivergenceRows = 40;
constexpr int kCellRows = 40;

ReportTable divergenceTable(const JobData& job) {
    ReportTable table;
    table.header = {QStringLiteral("Kind"), QStringLiteral("Rank"), QStringLiteral("Process group"),
                    QStringLiteral("Seq"), QStringLiteral("What happened")};
    for (const JobDivergenceRow& row : job.rows)
        table.rows.push_back({row.first ? row.kindName + QStringLiteral(" (first)") : row.kindName,
                              QString::number(row.rank), row.groupText, QString::number(row.seqId),
                              row.sentence});
    return table;
}

ReportTable cellTable(const JobData& job) {
    ReportTable table;
    table.header = {QStringLiteral("Process group"), QStringLiteral("Rank"),
                    QStringLiteral("Recorded"), QStringLiteral("Planned"),
                    QStringLiteral("Divergences")};
    for (const JobCell& cell : job.cells)
        if (cell.divergences > 0)
            table.rows.push_back(
                {cell.groupText, QString::number(cell.rank), QString::number(cell.recorded),
                 cell.planned > 0 ? QString::number(cell.planned) : QStringLiteral("not planned"),
                 QString::number(cell.divergences)});
    return table;
}

}  // namespace

void addJobSections(const ReportInput& input, SectionList& list) {
    const JobData& job = input.job;
    ReportSection& section = list.add(QStringLiteral("job-check"), QStringLiteral("Job check"));
    QStringList read;
    for (const QString& path : job.paths) read << QFileInfo(path).fileName();
    section.paragraph(
        QStringLiteral("The job's Flight Recorder record (%1) held against this plan's optimizer "
                       "step, as hsdp-inspect check-job holds it: %2.")
            .arg(read.join(QStringLiteral(", ")), job.summary()));
    if (job.rows.empty()) return;
    section.table(list.limited(divergenceTable(job), QStringLiteral("appendix-job-divergences"),
                               QStringLiteral("Job check: every divergence"), kDivergenceRows));
    ReportTable cells = cellTable(job);
    if (!cells.rows.empty())
        section.table(list.limited(std::move(cells), QStringLiteral("appendix-job-ranks"),
                                   QStringLiteral("Job check: ranks not as planned"), kCellRows));
}

}  // namespace hsdp::report
