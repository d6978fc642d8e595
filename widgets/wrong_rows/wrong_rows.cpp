// SPDX-License-Identifier: Apache-2.0
#include "wrong_rows/wrong_rows.h"

#include <QStringList>
#include <algorithm>
#include <set>

#include "derived/run/run_status_text.h"

namespace hsdp {

namespace {

const ParamRunResult* find(const RunResult& run, int param) {
    for (const auto& p : run.params)
        if (p.index == param) return &p;
    return nullptr;
}

bool isGather(const Mismatch& m) {
    return m.what == "gather";
}

GatheredCopy copyOf(const ParamRunResult* result, int rank) {
    GatheredCopy copy;
    copy.rank = rank;
    if (!result) return copy;
    for (const auto& m : result->mismatches) {
        if (!isGather(m) || m.rank != rank) continue;
        copy.wrongRows.insert(copy.wrongRows.end(), m.rows.begin(), m.rows.end());
        if (!copy.text.empty()) copy.text += "; ";
        copy.text += m.text;
    }
    return copy;
}

}  // namespace

WrongRows compareWrongRows(const RunResult& corrected, const RunResult& reference, int param) {
    WrongRows out;
    const ParamRunResult* c = find(corrected, param);
    const ParamRunResult* r = find(reference, param);
    if (!c && !r) return out;
    const ParamRunResult& any = c ? *c : *r;
    out.param = param;
    out.name = any.name;
    out.rows = any.shapeRun.empty() ? 1 : any.shapeRun.front();
    if (c) out.corrected = c->gather, out.correctedDetail = c->detail;
    if (r) out.reference = r->gather, out.referenceDetail = r->detail;
    std::set<int> ranks;
    for (const ParamRunResult* p : {c, r})
        if (p)
            for (const auto& m : p->mismatches)
                if (isGather(m)) ranks.insert(m.rank);
    out.ranks.assign(ranks.begin(), ranks.end());
    for (int rank : out.ranks) {
        out.correctedCopies.push_back(copyOf(c, rank));
        out.referenceCopies.push_back(copyOf(r, rank));
    }
    return out;
}

int64_t WrongRows::extent() const {
    int64_t end = rows;
    for (const auto* copies : {&correctedCopies, &referenceCopies})
        for (const auto& copy : *copies)
            for (const auto& r : copy.wrongRows) end = std::max(end, r.end);
    return end;
}

int firstReferenceMismatch(const RunResult& reference) {
    for (const auto& p : reference.params)
        if (std::any_of(p.mismatches.begin(), p.mismatches.end(), isGather)) return p.index;
    return -1;
}

bool gatherMismatched(const RunResult& run, int param) {
    const ParamRunResult* p = find(run, param);
    return p && std::any_of(p->mismatches.begin(), p->mismatches.end(), isGather);
}

std::vector<ErrorRow> errorRows(const RunResult& run) {
    std::vector<ErrorRow> rows;
    for (const ParamRunResult& p : run.params) {
        const bool gather = p.gather == GatherVerdict::Error, step = p.step == CheckVerdict::Error;
        if (!gather && !step) continue;
        QStringList errors;
        for (const DetailError& e : detailErrors(p.detail)) errors << e.text;
        if (errors.isEmpty()) errors << QString::fromStdString(p.detail);
        rows.push_back(
            {p.index, p.name,
             QStringLiteral("%1: %2").arg(gather && step ? QStringLiteral("gather and step error")
                                          : gather       ? QStringLiteral("gather error")
                                                         : QStringLiteral("step error"),
                                          errors.join(QStringLiteral("; ")))});
    }
    return rows;
}

}  // namespace hsdp
