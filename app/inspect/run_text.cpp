#include "run_text.h"

#include <sstream>

namespace hsdp::cli {

namespace {

bool paramFailed(const ParamRunResult& p) {
    return p.gather == GatherVerdict::Mismatch || p.gather == GatherVerdict::Error ||
           p.step != StepVerdict::Exact || p.replicas != ReplicaVerdict::Identical;
}

constexpr int kMaxListed = 20;  // a stopped 700-param run would otherwise bury the error

void writeFailures(std::ostringstream& out, const RunResult& r) {
    int listed = 0, unlisted = 0;
    auto room = [&] { return listed < kMaxListed ? (++listed, true) : (++unlisted, false); };
    for (const auto& p : r.params) {
        if (!paramFailed(p) || !room()) continue;
        out << "  FAIL #" << p.index << " " << p.name << ": gather " << gatherVerdictName(p.gather)
            << ", step " << stepVerdictName(p.step) << ", replicas "
            << replicaVerdictName(p.replicas) << "\n";
        if (!p.detail.empty()) out << "       " << p.detail << "\n";
    }
    for (const auto& t : r.tpTransitions) {
        if (t.result == StepVerdict::Exact || !room()) continue;
        out << "  FAIL tp #" << t.index << " " << t.name << " (" << t.path
            << "): " << stepVerdictName(t.result) << "\n";
        if (!t.detail.empty()) out << "       " << t.detail << "\n";
    }
    if (unlisted) out << "  ... " << unlisted << " more failures (--json lists every one)\n";
}

}  // namespace

std::string runToText(const RunResult& r) {
    std::ostringstream out;
    out << "Run (" << runModeName(r.mode) << " mode), world size " << r.worldSize << ": "
        << (r.verified ? "VERIFIED" : "NOT VERIFIED") << "\n";
    if (!r.error.empty()) out << "  error: " << r.error << "\n";
    if (r.shrink) out << "  shrunk by " << r.shrink->factor << ": " << r.shrink->reason << "\n";
    writeFailures(out, r);
    for (const auto& n : r.notRun)
        out << "  not run #" << n.index << " " << n.name << ": " << n.reason << "\n";
    int gathered = 0, exact = 0, failed = 0;
    for (const auto& p : r.params) {
        gathered += p.gather == GatherVerdict::Exact;
        paramFailed(p) ? ++failed : ++exact;
    }
    int tpExact = 0;
    for (const auto& t : r.tpTransitions) tpExact += t.result == StepVerdict::Exact;
    out << "  params: " << exact << " exact, " << failed << " failed (" << gathered
        << " gathered bit-exact)\n"
        << "  tp transitions: " << tpExact << " of " << r.tpTransitions.size() << " exact\n"
        << "  " << r.collectives << " collectives, " << r.bytes << " bytes, " << r.seconds
        << " s\n";
    return out.str();
}

}  // namespace hsdp::cli
