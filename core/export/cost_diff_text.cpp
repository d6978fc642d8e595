// SPDX-License-Identifier: Apache-2.0
#include "export/cost_diff_text.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "types/figures.h"

namespace hsdp {

namespace {

std::string signedDuration(double seconds) {
    // Rounding leaves a sub-nanosecond difference between equal sums: "-0 s".
    const std::string magnitude = durationText(std::fabs(seconds));
    if (magnitude == durationText(0)) return "no change";
    return std::string(seconds > 0 ? "+" : "-") + magnitude;
}

std::string signedBytes(int64_t bytes) {
    if (bytes == 0) return "no change";
    return std::string(bytes > 0 ? "+" : "-") + humanBytes(std::fabs(double(bytes)));
}

std::string peakText(const CostSide& side) {
    return "rank " + std::to_string(side.peakRank) + " " + humanBytes(double(side.peakBytes)) +
           " (" + humanBytes(double(side.residentBytes)) + " resident)";
}

// "; of it Newton-Schulz 7.82 s before, 9.10 s after": the owners' compute an
// update broadcast waits for, which the phase's time would hide.
std::string newtonSchulzShare(const PhaseChange& p) {
    if (p.beforeNewtonSchulzSeconds <= 0 && p.afterNewtonSchulzSeconds <= 0) return "";
    return "; of it Newton-Schulz " + durationText(p.beforeNewtonSchulzSeconds) + " before, " +
           durationText(p.afterNewtonSchulzSeconds) + " after";
}

void writeStep(std::ostringstream& out, const CostDiff& diff) {
    out << "  step time        before " << durationText(diff.before.stepSeconds) << ", after "
        << durationText(diff.after.stepSeconds) << " (" << signedDuration(diff.stepSecondsChange())
        << "): " << fasterVerdict(diff.faster())
        << (diff.withinError() ? ", by less than the model's error: no reason to choose" : "")
        // A verdict between two plans that cannot run reads as a choice.
        << (diff.fit() == "neither" ? ", but neither plan fits the device's memory (below)" : "")
        << "; each " << diff.trust << "\n";
    if (!diff.phases.empty()) out << "  critical path by phase:\n";
    for (const auto& p : diff.phases)
        out << "    " << std::left << std::setw(18) << stepPhaseName(p.phase) << std::right
            << "before " << durationText(p.beforeSeconds) << ", after "
            << durationText(p.afterSeconds) << " (" << signedDuration(p.change()) << ")"
            << newtonSchulzShare(p) << "\n";
}

void writePeak(std::ostringstream& out, const CostDiff& diff) {
    out << "  peak memory      before " << peakText(diff.before) << ", after "
        << peakText(diff.after) << " (" << signedBytes(diff.peakBytesChange())
        << "): " << lighterVerdict(diff.lighter()) << "\n";
    if (diff.fit() == "unknown") return;
    out << "  device memory    " << humanBytes(double(diff.after.deviceBytes))
        << " per device: " << fitVerdict(diff) << "\n";
}

}  // namespace

std::string fasterVerdict(Better faster) {
    if (faster == Better::Same) return "both plans take the same time";
    return "the " + std::string(betterName(faster)) + " plan is faster";
}

std::string lighterVerdict(Better lighter) {
    if (lighter == Better::Same) return "both plans peak the same";
    return "the " + std::string(betterName(lighter)) + " plan is lighter";
}

std::string fitVerdict(const CostDiff& diff) {
    const std::string_view fit = diff.fit();
    auto over = [](const CostSide& side) { return humanBytes(double(side.overBytes())) + " over"; };
    if (fit == "unknown") return "the cluster gives no device memory";
    if (fit == "both") return "both plans fit";
    if (fit == "neither")
        return "neither plan fits (before " + over(diff.before) + ", after " + over(diff.after) +
               ")";
    const bool beforeFits = fit == "before";
    return "only the " + std::string(fit) + " plan fits (the " + (beforeFits ? "after" : "before") +
           " plan is " + over(beforeFits ? diff.after : diff.before) + ")";
}

std::string costDiffToText(const CostDiff& diff) {
    std::ostringstream out;
    out << "Cost on " << diff.cluster << "\n";
    writeStep(out, diff);
    writePeak(out, diff);
    return out.str();
}

}  // namespace hsdp
