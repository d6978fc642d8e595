// SPDX-License-Identifier: Apache-2.0
#include "export/run_figures.h"

#include "cost/collective_count.h"
#include "types/figures.h"

namespace hsdp {

std::string runTotalsText(const RunResult& run) {
    const bool shrunk = run.shrink.has_value();
    std::optional<double> real;
    if (shrunk && run.shrink->realBytes > 0) real = static_cast<double>(run.shrink->realBytes);
    std::string text = groupedCount(run.collectives) +
                       (run.collectives == 1 ? " collective (" : " collectives (") +
                       groupedCount(run.rankEvents) +
                       (run.rankEvents == 1 ? " per-rank event" : " per-rank events");
    // Chunked broadcasts make a shrunk run's count differ from the plan's.
    // A run that stopped made fewer than either: the plan's whole count
    // beside its own read as its collectives at real size.
    const bool whole = run.error.empty() && !run.cancelled;
    if (shrunk && whole && run.shrink->realCollectives > 0 &&
        run.shrink->realCollectives != run.collectives)
        text += "; " + groupedCount(run.shrink->realCollectives) +
                " at real size, whose broadcasts take more chunks";
    text += "), ";
    return text + "sent " + runBytesText(static_cast<double>(run.bytes), shrunk, real) + ", " +
           wallTimeText(run.seconds);
}

std::string runTimesText(const RunResult& run) {
    std::string text;
    if (run.prepareSeconds > 0)
        text = "computing the single-device truth " + secondsText(run.prepareSeconds) + ", ";
    text += "connecting the groups " + secondsText(run.connectSeconds);
    const double rest = run.seconds - run.prepareSeconds - run.connectSeconds;
    if (run.prepareSeconds > 0 && rest > 0)
        text += ", the collectives and checks " + secondsText(rest);
    return text;
}

std::string runShrinkText(const RunResult& run) {
    if (!run.shrink) return {};
    return "shrunk run: " + run.shrink->reason +
           "; its byte counts and bandwidths are of the shrunk shapes";
}

void noteRealSizeCollectives(const Scenario& scenario, const Plan& plan, RunResult& run) {
    if (run.shrink) run.shrink->realCollectives = realSizeCollectives(scenario, plan);
}

}  // namespace hsdp
