// SPDX-License-Identifier: Apache-2.0
#include "mesh/rank_faults.h"

#include <QCoreApplication>
#include <algorithm>
#include <map>
#include <set>

namespace hsdp {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("RankFaults", text);
}

// Collected reasons by rank, then as a RankFaults with `label`'s count.
RankFaults fromReasons(const std::map<int, QStringList>& byRank, const char* label) {
    RankFaults faults;
    for (const auto& [rank, reasons] : byRank) {
        faults.ranks.push_back(rank);
        faults.reasons.push_back(reasons.join(QStringLiteral("; ")));
    }
    if (!faults.ranks.empty())
        faults.label = tr(label).arg(
            byRank.size() == 1 ? tr("1 rank") : tr("%1 ranks").arg(qsizetype(byRank.size())));
    return faults;
}

}  // namespace

QString RankFaults::reasonOf(int rank) const {
    const auto at = std::lower_bound(ranks.begin(), ranks.end(), rank);
    return at != ranks.end() && *at == rank ? reasons[size_t(at - ranks.begin())] : QString();
}

RankFaults runFaults(const RunData& run, int focusParam) {
    if (!run.isValid()) return {};
    const auto& params = run.run->params;
    // A selected param the run found wrong narrows the marks to its ranks.
    const bool focusWrong = focusParam >= 0 && size_t(focusParam) < params.size() &&
                            std::any_of(params[size_t(focusParam)].mismatches.begin(),
                                        params[size_t(focusParam)].mismatches.end(),
                                        [](const Mismatch& m) { return m.rank >= 0; });
    std::map<int, QStringList> byRank;
    std::set<int> wholeRun;
    for (size_t i = 0; i < params.size(); ++i)
        for (const Mismatch& m : params[i].mismatches) {
            const ParamRunResult& p = params[i];
            if (m.rank >= 0) wholeRun.insert(m.rank);
            if (focusWrong && int(i) != focusParam) continue;
            if (m.rank < 0) continue;
            const QString reason =
                tr("%1: wrong %2 rows")
                    .arg(QString::fromStdString(p.name), QString::fromStdString(m.what));
            QStringList& reasons = byRank[m.rank];
            if (!reasons.contains(reason)) reasons << reason;
        }
    const RunResult& result = *run.run;
    if (!result.error.empty() && result.errorRank >= 0 && !result.cancelled)
        byRank[result.errorRank]
            << tr("the run failed here: %1").arg(QString::fromStdString(result.error));
    RankFaults faults = fromReasons(byRank, "wrong or failed in the run (%1)");
    if (focusWrong)
        faults.label =
            tr("wrong in the run for %1 (%2; the whole run: %3)")
                .arg(QString::fromStdString(params[size_t(focusParam)].name),
                     byRank.size() == 1 ? tr("1 rank")
                                        : tr("%1 ranks").arg(qsizetype(byRank.size())),
                     wholeRun.size() == 1 ? tr("1 rank")
                                          : tr("%1 ranks").arg(qsizetype(wholeRun.size())));
    return faults;
}

// The rank of the divergence to look at first: a hang leaves every rank
// diverged (stuck or missing), and marking all of them said nothing.
RankFaults jobFaults(const JobData& job) {
    if (!job.isValid()) return {};
    const auto first = std::find_if(job.rows.begin(), job.rows.end(),
                                    [](const JobDivergenceRow& row) { return row.first; });
    if (first == job.rows.end()) return {};
    std::set<int64_t> diverged;
    for (const JobDivergenceRow& row : job.rows) diverged.insert(row.rank);
    RankFaults faults;
    faults.ranks = {int(first->rank)};
    faults.reasons = {tr("the job's first divergence: %1").arg(first->sentence)};
    faults.label = tr("the job's first divergence (%1 of the %2 ranks that diverged; the Job view "
                      "lists them)")
                       .arg(tr("rank %1").arg(first->rank))
                       .arg(qsizetype(diverged.size()));
    return faults;
}

RankFaults mergedFaults(const RankFaults& a, const RankFaults& b) {
    if (a.isEmpty()) return b;
    if (b.isEmpty()) return a;
    std::map<int, QStringList> byRank;
    for (const RankFaults* f : {&a, &b})
        for (size_t i = 0; i < f->ranks.size(); ++i) byRank[f->ranks[i]] << f->reasons[i];
    RankFaults merged = fromReasons(byRank, "%1");
    merged.label = a.label + QStringLiteral("; ") + b.label;
    return merged;
}

}  // namespace hsdp
