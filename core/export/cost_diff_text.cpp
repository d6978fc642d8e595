// SPDX-License-Identifier: Apache-2.0
#include "export/cost_diff_text.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "types/figures.h"

namespace hsdp {

namespace {

std::string signedDuration(double seconds) {
    if (seconds == 0) return "no change";
    return std::string(seconds > 0 ? "+" : "-") + durationText(std::fabs(seconds));
}

std::string signedBytes(int64_t bytes) {
    if (bytes == 0) return "no change";
    return std::string(bytes > 0 ? "+" : "-") + humanBytes(std::fabs(double(bytes)));
}

std::string peakText(const CostSide& side) {
    return "rank " + std::to_string(side.peakRank) + " " + humanBytes(double(side.peakBytes)) +
           " (" + humanBytes(double(side.residentBytes)) + " resident)";
}

void writeStep(std::ostringstream& out, const CostDiff& diff) {
    out << "  step time        before " << durationText(diff.before.stepSeconds) << ", after "
        << durationText(diff.after.stepSeconds) << " (" << signedDuration(diff.stepSecondsChange())
        << "): " << fasterVerdict(diff.faster()) << "\n";
    if (!diff.phases.empty()) out << "  critical path by phase:\n";
    for (const auto& p : diff.phases)
        out << "    " << std::left << std::setw(18) << stepPhaseName(p.phase) << std::right
            << "before " << durationText(p.beforeSeconds) << ", after "
            << durationText(p.afterSeconds) << " (" << signedDuration(p.change()) << ")\n";
}

void writePeak(std::ostringstream& out, const CostDiff& diff) {
    out << "  peak memory      before " << peakText(diff.before) << ", after "
        << peakText(diff.after) << " (" << signedBytes(diff.peakBytesChange())
        << "): " << lighterVerdict(diff.lighter()) << "\n";
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

std::string costDiffToText(const CostDiff& diff) {
    std::ostringstream out;
    out << "Cost on " << diff.cluster << "\n";
    writeStep(out, diff);
    writePeak(out, diff);
    return out.str();
}

}  // namespace hsdp
