// SPDX-License-Identifier: Apache-2.0
#include "distributed/socket_shortfall.h"

#include <stdexcept>

#include "distributed/rank_split.h"

namespace hsdp {

namespace {

std::string limitText(long limit) {
    return limit < 0 ? "unlimited" : std::to_string(limit);
}

std::string headline(const SocketShortfall& s) {
    return "run refused before any rank connects: about " + std::to_string(s.asked.sockets) +
           " sockets needed for " + std::to_string(s.asked.groups) + " process groups" +
           (s.procs > 1 ? " in the busiest of " + std::to_string(s.procs) + " worker processes"
                        : "") +
           ", over the open-file limit " + limitText(s.asked.limit) + " (soft " +
           limitText(s.started.soft) + ", hard " + limitText(s.started.hard) +
           " when the run started; it raises the soft limit to the hard one itself)";
}

std::string procsFix(const SocketShortfall& s) {
    if (s.fittingProcs == 0)
        return "\n  no split fits: even one rank per worker process needs more than " +
               limitText(s.asked.limit) + " open files";
    if (s.fittingProcs == 1)
        return "\n  what fits: the run in one process (about " + std::to_string(s.fittingSockets) +
               " sockets): leave out --procs";
    return "\n  what fits: --procs " + std::to_string(s.fittingProcs) + " (about " +
           std::to_string(s.fittingSockets) +
           " sockets in the busiest worker process; --procs auto picks it)";
}

// ulimit -n only where it can work: a soft limit never goes above the hard one.
std::string limitFix(const SocketShortfall& s) {
    const long needed = s.asked.sockets;
    if (fitsHardLimit(needed, s.now))
        return "\n  or raise the soft limit: ulimit -n " + std::to_string(needed) +
               " (under the hard limit " + limitText(s.now.hard) + ")";
    std::string text = "\n  no ulimit -n fits: " + std::to_string(needed) +
                       " is above the hard limit " + limitText(s.now.hard) +
                       ", which only root can raise";
    if (s.now.ceiling > 0 && needed > s.now.ceiling)
        return text + ", and above fs.nr_open (" + std::to_string(s.now.ceiling) +
               "), the most any process may open";
    if (s.now.ceiling > 0)
        return text + " (/etc/security/limits.conf; at most fs.nr_open, " +
               std::to_string(s.now.ceiling) + ")";
    return text + " (/etc/security/limits.conf)";
}

}  // namespace

std::optional<SocketShortfall> socketShortfall(const Scenario& scenario, const Plan& plan,
                                               const RunOptions& options,
                                               const SocketEstimate& asked, int procs,
                                               const FileLimits& started) {
    if (asked.fits()) return std::nullopt;
    SocketShortfall s{asked, procs, started, openFileLimits()};
    try {
        s.fittingProcs = autoProcs(scenario, plan, options);
        s.fittingSockets = splitSocketEstimate(scenario, plan, options, s.fittingProcs).sockets;
    } catch (const std::runtime_error&) {
        s.fittingProcs = 0;  // even one rank per process is too many
    }
    return s;
}

std::string socketShortfallText(const SocketShortfall& shortfall) {
    return headline(shortfall) + procsFix(shortfall) + limitFix(shortfall);
}

}  // namespace hsdp
