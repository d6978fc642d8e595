// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/collective_error.h"

#include <string>

#include "types/figures.h"

namespace hsdp {
namespace {

std::string labelText(const CollectiveLabel& label) {
    std::string text;
    if (!label.phase.empty()) text += ", phase " + label.phase;
    // The plan's schedule position; "step" is the studio's walk through the run.
    if (label.scheduleIndex >= 0) text += ", schedule entry " + std::to_string(label.scheduleIndex);
    if (label.tpTransition >= 0) text += ", tp transition " + std::to_string(label.tpTransition);
    if (!label.params.empty()) text += ", params " + groupRanksText(label.params);
    return text;
}

RunError errorFor(const std::string& message, int rank, const CollectiveCall& call) {
    return RunError(message, rank, std::string(call.op), call.groupRanks, call.seq);
}

}  // namespace

std::string describeCall(const CollectiveCall& call) {
    // Named by the group's own count, as Flight Recorder and check-job number
    // it: the same in every run. A run-wide number is not: it depends on how
    // far the other ranks got before the failure stopped them.
    return std::string(call.op) + " #" + std::to_string(call.groupSeq) + " of group " +
           groupRanksText(call.groupRanks) + labelText(call.label);
}

RunError injectedFaultError(int rank, int64_t collectiveIndex, const CollectiveCall& call) {
    // "#N" is the group's count: the rank's own count is said in words.
    return errorFor("injected fault on rank " + std::to_string(rank) + " at its collective " +
                        std::to_string(collectiveIndex) + " of the run (" + describeCall(call) +
                        ")",
                    rank, call);
}

RunError cancelledError(int rank, const CollectiveCall& call) {
    return errorFor(
        "cancelled (rank " + std::to_string(rank) + " before " + describeCall(call) + ")", rank,
        call);
}

RunError abortedError(int rank, int failedRank, const CollectiveCall& call) {
    return errorFor("rank " + std::to_string(rank) + " stopped before " + describeCall(call) +
                        ": rank " + std::to_string(failedRank) + " failed earlier",
                    rank, call);
}

RunError mismatchError(int rank, const CollectiveCall& call, const std::string& signature,
                       int firstRank, const std::string& firstSignature) {
    return errorFor("rank " + std::to_string(rank) + ": " + describeCall(call) +
                        ": mismatched collective: rank " + std::to_string(rank) + " calls " +
                        signature + ", rank " + std::to_string(firstRank) + " called " +
                        firstSignature,
                    rank, call);
}

RunError closedGroupError(int rank, const CollectiveCall& call) {
    return errorFor("rank " + std::to_string(rank) + ": " + describeCall(call) +
                        " called after this rank's connections were closed by an earlier failure",
                    rank, call);
}

RunError transferError(int rank, const CollectiveCall& call, const std::exception& cause,
                       std::chrono::milliseconds elapsed, std::chrono::milliseconds timeout) {
    const std::string what = cause.what();
    const bool timedOut = what.find("Timed out") != std::string::npos ||
                          what.find("timed out") != std::string::npos || elapsed >= timeout;
    const std::string head = timedOut ? "timeout after " + std::to_string(elapsed.count()) +
                                            " ms (limit " + std::to_string(timeout.count()) + " ms)"
                                      : "failed after " + std::to_string(elapsed.count()) + " ms";
    return errorFor(
        "rank " + std::to_string(rank) + ": " + describeCall(call) + ": " + head + ": " + what,
        rank, call);
}

RunError bodyError(int rank, std::string_view what) {
    return RunError(
        "rank " + std::to_string(rank) + " failed outside any collective: " + std::string(what),
        rank, "", {}, -1);
}

}  // namespace hsdp
