// SPDX-License-Identifier: Apache-2.0
#include "run_text.h"

#include <sstream>

#include "export/run_figures.h"
#include "types/figures.h"

namespace hsdp::cli {

namespace {

bool paramFailed(const ParamRunResult& p) {
    return p.gather == GatherVerdict::Mismatch || p.gather == GatherVerdict::Error ||
           p.step == CheckVerdict::Mismatch || p.step == CheckVerdict::Error ||
           p.replicas == ReplicaVerdict::Diverged;
}

// Never checked because the run stopped first: not a finding about this param.
bool paramNotReached(const ParamRunResult& p) {
    return !paramFailed(p) &&
           (p.gather == GatherVerdict::NotReached || p.step == CheckVerdict::NotReached ||
            p.replicas == ReplicaVerdict::NotReached);
}

bool transitionFailed(const TpRunResult& t) {
    return t.result == CheckVerdict::Mismatch || t.result == CheckVerdict::Error;
}

constexpr int kMaxListed = 20;  // a stopped 700-param run would otherwise bury the error
constexpr size_t kMaxNamed = 5;

void writeFailures(std::ostringstream& out, const RunResult& r) {
    int listed = 0, unlisted = 0;
    auto room = [&] { return listed < kMaxListed ? (++listed, true) : (++unlisted, false); };
    for (const auto& p : r.params) {
        if (!paramFailed(p) || !room()) continue;
        out << "  FAIL #" << p.index << " " << p.name << ": gather " << gatherVerdictName(p.gather)
            << ", step " << checkVerdictName(p.step) << ", replicas "
            << replicaVerdictName(p.replicas) << "\n";
        if (!p.detail.empty()) out << "       " << p.detail << "\n";
    }
    for (const auto& t : r.tpTransitions) {
        if (!transitionFailed(t) || !room()) continue;
        out << "  FAIL tp #" << t.index << " " << t.name << " (" << t.path
            << "): " << checkVerdictName(t.result) << "\n";
        if (!t.detail.empty()) out << "       " << t.detail << "\n";
    }
    if (unlisted) out << "  ... " << unlisted << " more failures (--json lists every one)\n";
}

// One line for everything the stopped run never checked, naming the first few.
void writeNotReached(std::ostringstream& out, const RunResult& r) {
    std::vector<std::string> names;
    for (const auto& p : r.params)
        if (paramNotReached(p)) names.push_back("#" + std::to_string(p.index) + " " + p.name);
    for (const auto& t : r.tpTransitions)
        if (t.result == CheckVerdict::NotReached)
            names.push_back("tp #" + std::to_string(t.index) + " " + t.name);
    if (names.empty()) return;
    out << "  not-reached (the run stopped before checking them): " << names.size() << ": ";
    for (size_t i = 0; i < names.size() && i < kMaxNamed; ++i) out << (i ? ", " : "") << names[i];
    if (names.size() > kMaxNamed) out << ", ... " << names.size() - kMaxNamed << " more";
    out << "\n";
}

void writePlanErrors(std::ostringstream& out, const RunResult& r) {
    if (r.planErrors.empty()) return;
    out << "  the plan has " << r.planErrors.size()
        << " error diagnostic(s), so the run cannot be VERIFIED ('hsdp-inspect plan' explains "
           "them):\n";
    for (const auto& d : r.planErrors) {
        out << "    " << d.code;
        if (!d.params.empty()) {
            out << " (params";
            for (size_t i = 0; i < d.params.size() && i < kMaxNamed; ++i)
                out << " #" << d.params[i];
            if (d.params.size() > kMaxNamed)
                out << " ... " << d.params.size() - kMaxNamed << " more";
            out << ")";
        }
        out << "\n";
    }
}

}  // namespace

std::string runToText(const RunResult& r) {
    std::ostringstream out;
    out << "Run (" << runModeName(r.mode) << " mode), world size " << r.worldSize << ": "
        << (r.verified ? "VERIFIED" : "NOT VERIFIED") << "\n";
    if (!r.error.empty()) out << "  error: " << r.error << "\n";
    writePlanErrors(out, r);
    if (r.shrink) out << "  " << runShrinkText(r) << "\n";
    writeFailures(out, r);
    writeNotReached(out, r);
    for (const auto& n : r.notRun)
        out << "  not run #" << n.index << " " << n.name << ": " << n.reason << "\n";
    // Gathers count apart: a replicated param needs none, so "4 gathered
    // bit-exact" beside "9 exact" read as a contradiction or a subset.
    // Each gather's verdict counted: after a failure "3 of them bit-exact"
    // left the fourth unexplained (never checked: the run stopped first).
    int gathers = 0, gathered = 0, wrongGathers = 0, unchecked = 0;
    int exact = 0, failed = 0, unreached = 0;
    for (const auto& p : r.params) {
        gathers += p.gather != GatherVerdict::NotGathered;
        gathered += p.gather == GatherVerdict::Exact;
        wrongGathers += p.gather == GatherVerdict::Mismatch || p.gather == GatherVerdict::Error;
        unchecked += p.gather == GatherVerdict::NotReached;
        paramFailed(p) ? ++failed : paramNotReached(p) ? ++unreached : ++exact;
    }
    int tpExact = 0;
    for (const auto& t : r.tpTransitions) tpExact += t.result == CheckVerdict::Exact;
    out << "  params: " << exact << " exact, " << failed << " failed, " << unreached
        << " not-reached, " << r.notRun.size() << " not run; " << gathers
        << " gathered (the others need no gather): " << gathered << " bit-exact";
    if (wrongGathers > 0) out << ", " << wrongGathers << " wrong";
    if (unchecked > 0) out << ", " << unchecked << " not checked (the run stopped first)";
    out << "\n"
        << "  tp transitions: " << tpExact << " of " << r.tpTransitions.size() << " exact\n"
        << "  " << runTotalsText(r) << " (" << runTimesText(r) << ")\n";
    return out.str();
}

std::string runMemoryText(const RunResult& r, const std::vector<StepMemory>* predicted) {
    if (r.memory.empty()) return "";
    const StepMemory* worst = &r.memory.front();
    int equal = 0;
    for (const auto& m : r.memory) {
        if (m.peakBytes > worst->peakBytes) worst = &m;
        equal +=
            predicted && size_t(m.rank) < predicted->size() && (*predicted)[size_t(m.rank)] == m;
    }
    std::ostringstream out;
    out << "  memory of the optimizer step (" << (r.shrink ? "shrunk shapes" : "real shapes")
        << ", per rank): peak " << humanBytes(double(worst->peakBytes)) << " on rank "
        << worst->rank << " (" << humanBytes(double(worst->residentBytes))
        << " resident), measured";
    if (!predicted)
        out << "; no prediction (the model predicts the corrected step)\n";
    else if (equal == int(r.memory.size()))
        out << " = predicted on all " << equal << " ranks\n";
    else
        out << " != predicted on " << int(r.memory.size()) - equal << " of " << r.memory.size()
            << " ranks\n";
    return out.str();
}

}  // namespace hsdp::cli
