// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include "verify/run_result.h"

namespace hsdp {

// Counts of a run as the status bar and the verification panel word them.
// Only counts what the engine recorded; nothing is re-verified.
struct RunCounts {
    int paramsExact = 0;   // gather (if gathered), step and replicas all right
    int paramsFailed = 0;  // a mismatch, an error or diverged replicas
    int paramsNotReached = 0;
    int transitionsExact = 0;
    int transitionsFailed = 0;
};

RunCounts countRun(const RunResult& run);
bool paramFailed(const ParamRunResult& param);
bool paramNotReached(const ParamRunResult& param);  // and not failed
bool paramMismatched(const ParamRunResult& param);
// A check's verdict as every view and the report word it: "not reached"
// where the run stopped before the check (the engine's not-reached), else
// the engine's name. The replicas are compared only between holders that
// reported: a param whose gather or step was not reached has no replica
// verdict either, though the engine's default reads "identical".
QString gatherVerdictText(GatherVerdict verdict);
QString checkVerdictText(CheckVerdict verdict);
QString replicaVerdictText(const ParamRunResult& param);

// An error a param's or transition's detail gives, as the engine words it
// (core/run/detail/run_summary.cpp): the ranks that raised it, ascending,
// and its message ("ranks 0, 1, 2: the reference's all_gather_into_tensor
// … gets unequal packed sizes: …; Gloo fails the transfer (size
// mismatch)"); "not verified: 2 of 4 holders never reported (the run
// stopped)" names no rank. The detail's mismatch texts ("rank 2 expected
// rows 4..7 got rows 2..5") are no errors and are left out.
struct DetailError {
    std::vector<int> ranks;
    QString text;  // the whole part, its ranks included
};
std::vector<DetailError> detailErrors(const std::string& detail);

// One line for the status bar: "verified: 737 params exact, 0 mismatches,
// 1,234 collectives (4,936 per-rank events), sent 3.1 MiB, 2.40 s wall",
// "NOT verified: …", "run cancelled after 812 collectives", "run failed on
// rank 3 after 40 collectives"; a shrunk run's line says so and why, and its
// bytes give the real-size figure beside them.
// `brief`: the verdict's counts and the wall time only (the status bar's
// own text; the whole line is its tooltip, and a line of every figure was
// cut beside the plan's after a run).
QString runStatusLine(const RunResult& run, bool brief = false);
// The verification panel's headline: mode, verdict, every count.
QString runSummaryLine(const RunResult& run);
// The engine's error text for the banner, or empty for a run without one.
QString runErrorText(const RunResult& run);
QString groupedNumber(qint64 value);  // 1,234

}  // namespace hsdp
