// SPDX-License-Identifier: Apache-2.0
#include "derived/run/run_status_text.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

#include "export/run_figures.h"
#include "types/figures.h"

namespace hsdp {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("RunStatusText", text);
}

QString counted(qint64 count, const QString& one, const QString& many) {
    return groupedNumber(count) + QLatin1Char(' ') + (count == 1 ? one : many);
}

// "737 params exact, 0 failed, 1,234 collectives (4,936 per-rank events),
// sent 3.1 MiB, 2.40 s wall" (export/run_figures.h: the CLI's words). "failed"
// as the Verification view and the CLI count: a mismatch, an error or
// diverged replicas.
QString countsText(const RunResult& run, const RunCounts& counts, bool brief) {
    QStringList parts;
    if (brief) {  // "7/7 params exact", the failed counted only when some did
        parts << tr("%1/%2 params exact")
                     .arg(groupedNumber(counts.paramsExact),
                          groupedNumber(counts.paramsExact + counts.paramsFailed +
                                        counts.paramsNotReached));
        if (counts.paramsFailed > 0)
            parts << tr("%1 failed").arg(groupedNumber(counts.paramsFailed));
        if (!run.notRun.empty())
            parts << tr("%1 not run").arg(groupedNumber(qint64(run.notRun.size())));
    } else {
        parts << counted(counts.paramsExact, tr("param exact"), tr("params exact"));
        parts << tr("%1 failed").arg(groupedNumber(counts.paramsFailed));
    }
    if (counts.transitionsFailed > 0)
        parts << counted(counts.transitionsFailed, tr("TP transition failed"),
                         tr("TP transitions failed"));
    parts << (brief ? QString::fromStdString(wallTimeText(run.seconds))
                    : QString::fromStdString(runTotalsText(run)));
    return parts.join(QStringLiteral(", "));
}

// " · shrunk run: buffers … > --max-bytes …" for a shrunk run, else empty.
QString shrinkSuffix(const RunResult& run) {
    return run.shrink ? QStringLiteral(" · ") + QString::fromStdString(runShrinkText(run))
                      : QString();
}

}  // namespace

QString groupedNumber(qint64 value) {
    return QLocale(QLocale::English).toString(value);
}

bool paramMismatched(const ParamRunResult& p) {
    return p.gather == GatherVerdict::Mismatch || p.step == CheckVerdict::Mismatch;
}

bool paramFailed(const ParamRunResult& p) {
    return paramMismatched(p) || p.gather == GatherVerdict::Error ||
           p.step == CheckVerdict::Error || p.replicas == ReplicaVerdict::Diverged;
}

QString gatherVerdictText(GatherVerdict verdict) {
    return verdict == GatherVerdict::NotReached
               ? QStringLiteral("not reached")
               : QString::fromLatin1(gatherVerdictName(verdict).data());
}

QString checkVerdictText(CheckVerdict verdict) {
    return verdict == CheckVerdict::NotReached
               ? QStringLiteral("not reached")
               : QString::fromLatin1(checkVerdictName(verdict).data());
}

QString replicaVerdictText(const ParamRunResult& p) {
    return p.replicas == ReplicaVerdict::NotReached
               ? QStringLiteral("not reached")
               : QString::fromLatin1(replicaVerdictName(p.replicas).data());
}

// The detail joins its parts with "; ", and an error's own message may hold
// "; " too: a part that starts none of the engine's kinds of part (an error
// "ranks 0, 1: …", a mismatch "rank 2 …", "not verified: …", "replicas
// diverged: …", "+3 more") continues the one before it.
std::vector<DetailError> detailErrors(const std::string& detail) {
    static const QRegularExpression error(QStringLiteral("^ranks? (\\d+(?:, \\d+)*): "));
    static const QRegularExpression start(
        QStringLiteral("^(ranks? \\d|not verified: |replicas diverged: |\\+\\d+ more$)"));
    std::vector<DetailError> errors;
    bool inError = false;
    for (const QString& part :
         QString::fromStdString(detail).split(QStringLiteral("; "), Qt::SkipEmptyParts)) {
        if (!start.match(part).hasMatch()) {
            if (inError) errors.back().text += QStringLiteral("; ") + part;
            continue;
        }
        const QRegularExpressionMatch match = error.match(part);
        inError = match.hasMatch() || part.startsWith(QLatin1String("not verified: "));
        if (!inError) continue;
        DetailError e;
        for (const QString& rank :
             match.captured(1).split(QStringLiteral(", "), Qt::SkipEmptyParts))
            e.ranks.push_back(rank.toInt());
        e.text = part;
        errors.push_back(std::move(e));
    }
    return errors;
}

bool paramNotReached(const ParamRunResult& p) {
    return !paramFailed(p) &&
           (p.gather == GatherVerdict::NotReached || p.step == CheckVerdict::NotReached);
}

RunCounts countRun(const RunResult& run) {
    RunCounts counts;
    for (const ParamRunResult& p : run.params) {
        if (paramFailed(p))
            ++counts.paramsFailed;
        else if (paramNotReached(p))
            ++counts.paramsNotReached;
        else
            ++counts.paramsExact;
    }
    for (const TpRunResult& t : run.tpTransitions) {
        counts.transitionsExact += t.result == CheckVerdict::Exact;
        counts.transitionsFailed +=
            t.result == CheckVerdict::Mismatch || t.result == CheckVerdict::Error;
    }
    return counts;
}

QString runStatusLine(const RunResult& run, bool brief) {
    const QString collectives = counted(run.collectives, tr("collective"), tr("collectives"));
    if (run.cancelled) return tr("run cancelled after %1").arg(collectives);
    if (!run.error.empty() && run.errorRank >= 0)
        return tr("run failed on rank %1 after %2").arg(run.errorRank).arg(collectives);
    if (!run.error.empty()) return tr("run failed after %1").arg(collectives);
    const QString counts =
        countsText(run, countRun(run), brief) + (brief ? QString() : shrinkSuffix(run));
    if (run.verified) return tr("verified: %1").arg(counts);
    if (!run.planErrors.empty() && countRun(run).paramsFailed == 0)
        return tr("NOT verified (the plan has %1): %2")
            .arg(counted(static_cast<qint64>(run.planErrors.size()), tr("error diagnostic"),
                         tr("error diagnostics")),
                 counts);
    return tr("NOT verified: %1").arg(counts);
}

QString runSummaryLine(const RunResult& run) {
    const RunCounts counts = countRun(run);
    QStringList parts;
    parts << tr("%1 run on %2 ranks")
                 .arg(QString::fromStdString(std::string(runModeName(run.mode))))
                 .arg(run.worldSize);
    parts << (run.verified         ? tr("VERIFIED")
              : run.cancelled      ? tr("CANCELLED")
              : !run.error.empty() ? tr("FAILED")
                                   : tr("NOT VERIFIED"));
    // The total first: "13 params" in the tree and four counts adding up to
    // 15 read as a contradiction (the two not run are the plan's rejected).
    parts << tr("params: %1 in all, %2 exact, %3 failed, %4 not reached, %5 not run")
                 .arg(counts.paramsExact + counts.paramsFailed + counts.paramsNotReached +
                      qint64(run.notRun.size()))
                 .arg(counts.paramsExact)
                 .arg(counts.paramsFailed)
                 .arg(counts.paramsNotReached)
                 .arg(run.notRun.size());
    parts << tr("TP transitions: %1 of %2 exact")
                 .arg(counts.transitionsExact)
                 .arg(run.tpTransitions.size());
    if (!run.planErrors.empty())
        parts << counted(static_cast<qint64>(run.planErrors.size()), tr("plan error"),
                         tr("plan errors"));
    parts << QString::fromStdString(runTotalsText(run));
    if (run.shrink) parts << QString::fromStdString(runShrinkText(run));
    return parts.join(QStringLiteral(" · "));
}

QString runErrorText(const RunResult& run) {
    return QString::fromStdString(run.error);
}

}  // namespace hsdp
