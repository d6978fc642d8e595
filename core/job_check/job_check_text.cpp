// SPDX-License-Identifier: Apache-2.0
#include "job_check/job_check_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "job_check/member_alignment.h"
#include "types/collective_op.h"
#include "types/figures.h"

namespace hsdp {

std::string rankRanges(const std::vector<int64_t>& ranks, const std::string& dash) {
    std::string out;
    for (size_t i = 0; i < ranks.size();) {
        size_t end = i;
        while (end + 1 < ranks.size() && ranks[end + 1] == ranks[end] + 1) ++end;
        if (!out.empty()) out += ", ";
        if (end >= i + 2) {
            out += std::to_string(ranks[i]) + dash + std::to_string(ranks[end]);
            i = end + 1;
        } else {
            out += std::to_string(ranks[i++]);
        }
    }
    return out;
}

std::string paramsSummary(const std::vector<std::string>& names) {
    if (names.empty()) return "";
    if (names.size() == 1) return names[0];
    std::string prefix = names[0];
    for (const auto& n : names)
        prefix.resize(size_t(std::mismatch(prefix.begin(), prefix.end(), n.begin(), n.end()).first -
                             prefix.begin()));
    const size_t dot = prefix.rfind('.');
    if (dot != std::string::npos && dot > 0) return prefix.substr(0, dot + 1) + "*";
    if (names.size() == 2) return names[0] + ", " + names[1];
    return names[0] + ", " + names[1] + " and " + std::to_string(names.size() - 2) + " more";
}

std::vector<std::string> collectiveParams(const PlannedStep& step, const Scenario& scenario,
                                          const Plan& plan, int c) {
    const ScheduledCollective& sc = step.schedule.collectives[size_t(c)];
    if (sc.phase == StepPhase::Tp && sc.tpTransition >= 0 &&
        size_t(sc.tpTransition) < scenario.tpTransitions.size())
        return {scenario.tpTransitions[size_t(sc.tpTransition)].name};
    std::vector<std::string> names;
    for (int p : carriedParams(scenario, plan, step.schedule, c))
        if (p >= 0 && size_t(p) < scenario.params.size())
            names.push_back(scenario.params[size_t(p)].name);
    return names;
}

namespace {

// "1,830 s" (thousands separated), "2.5 s" below ten seconds.
std::string secondsText(double seconds) {
    if (seconds < 10) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f s", std::max(0.0, seconds));
        return buf;
    }
    std::string digits = std::to_string(std::llround(seconds));
    for (int at = int(digits.size()) - 3; at > 0; at -= 3) digits.insert(size_t(at), ",");
    return digits + " s";
}

std::string sizesText(const std::vector<std::vector<int64_t>>& sizes) {
    std::string out = "[";
    for (size_t i = 0; i < sizes.size(); ++i) {
        out += i ? ", [" : "[";
        for (size_t k = 0; k < sizes[i].size(); ++k)
            out += (k ? ", " : "") + std::to_string(sizes[i][k]);
        out += "]";
    }
    return out + "]";
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

class Sentence {
public:
    Sentence(const JobDivergence& d, const JobCheck& check, const PlannedStep& step,
             const Scenario& scenario, const Plan& plan)
        : d_(d), check_(check), step_(step), scenario_(scenario), plan_(plan) {}

    // A dump holds no time of its writing: a stuck entry's age is measured
    // to the newest time any entry holds, and one that is itself the newest
    // says its wait is not recorded (a failed run's "started 0.0 s ago").
    std::string startedWhen() const {
        // Under a microsecond is the same time (the clocks' own jitter); a
        // loopback job's 79 µs is not, and was said to be.
        const double seconds = double(check_.nowNs - d_.timeNs) / 1e9;
        if (seconds < 1e-6)
            return "started at the dumps' newest time (how long it waited is not recorded)";
        return "started " + (seconds >= 1 ? secondsText(seconds) : durationText(seconds)) +
               " before the dumps' newest time";
    }

    std::string text() const {
        const std::string rank = "rank " + std::to_string(d_.rank);
        switch (d_.kind) {
            case DivergenceKind::Stuck:
                return rank + " never completed " + what() + ", " + startedWhen() + "; " +
                       peers("completed it", "no peer completed it either");
            case DivergenceKind::Missing:
                return rank + " never recorded " + what() + "; " +
                       peers("recorded it", "it recorded later collectives of the group");
            case DivergenceKind::Size:
                return rank + " recorded " + what() + " with sizes " + sizes(formOf(*d_.recorded)) +
                       "; the plan's are " + sizes(planned(*d_.expected));
            case DivergenceKind::Dtype:
                return rank + " recorded " + what() + " in " + joined(d_.recorded->inputDtypes) +
                       "; the plan's is " + joined(planned(*d_.expected).inputDtypes);
            case DivergenceKind::Order:
                return rank + " recorded " + opOf(*d_.expectedSecond) + " #" +
                       std::to_string(d_.seqId) + " before " + opOf(*d_.expected) + " #" +
                       std::to_string(d_.recordedSecond->collectiveSeqId) + " of " + group() +
                       ": the plan makes " + opOf(*d_.expected) + " (" + about(*d_.expected) +
                       ") first, then " + opOf(*d_.expectedSecond) + " (" +
                       about(*d_.expectedSecond) + ")";
            case DivergenceKind::Unexpected:
                return rank + " recorded " + std::string(d_.recorded->operation()) + " #" +
                       std::to_string(d_.seqId) + " of " + group() + " (" +
                       d_.recorded->profilingName + " " + sizesText(d_.recorded->inputSizes) + " " +
                       joined(d_.recorded->inputDtypes) + "), which the plan's step does not make";
        }
        return "";
    }

private:
    // "all_gather #42 of dp_shard group [16..31]: batch 3 of group 1 (layers.12.*)"
    std::string what() const {
        return opOf(*d_.expected) + " #" + std::to_string(d_.seqId) + stepText() + " of " +
               group() + ": " + about(*d_.expected);
    }

    std::string stepText() const {
        return d_.trainingStep > 1 ? " (training step " + std::to_string(d_.trainingStep) + ")"
                                   : "";
    }

    std::string opOf(int c) const {
        return std::string(traceNameOf(step_.schedule.collectives[size_t(c)].op));
    }

    // "batch 3 of group 1 (layers.12.mlp.*)", "TP transition attn_out"
    std::string about(int c) const {
        const ScheduledCollective& sc = step_.schedule.collectives[size_t(c)];
        const std::string params = paramsSummary(collectiveParams(step_, scenario_, plan_, c));
        if (sc.phase == StepPhase::Tp) return "TP transition " + params;
        return "batch " + std::to_string(sc.batch) + " of group " + std::to_string(sc.planGroup) +
               (params.empty() ? "" : " (" + params + ")");
    }

    // "dp_shard group [16..31]": the dim its recorded description names.
    std::string group() const {
        std::string dim = d_.groupDesc.rfind("mesh_", 0) == 0 ? d_.groupDesc.substr(5) : "";
        auto ranks = d_.groupRanks;
        std::sort(ranks.begin(), ranks.end());
        return (dim.empty() ? "" : dim + " ") + "group [" + rankRanges(ranks, "..") + "]";
    }

    std::string peers(const std::string& did, const std::string& none) const {
        if (d_.peers.empty()) return none;
        return (d_.peers.size() == 1 ? "rank " : "ranks ") + rankRanges(d_.peers) + " " + did;
    }

    RecordedForm planned(int c) const {
        return recordedForm(scheduledBuffers(scenario_, plan_, step_.schedule, c, int(d_.rank)));
    }

    static std::string sizes(const RecordedForm& f) {
        return sizesText(f.inputSizes) + " → " + sizesText(f.outputSizes);
    }

    const JobDivergence& d_;
    const JobCheck& check_;
    const PlannedStep& step_;
    const Scenario& scenario_;
    const Plan& plan_;
};

// " (ranks 4–7 read off their Kineto traces)": ranks checked on their traces.
std::string fromTracesText(const JobCheck& check) {
    const auto& ranks = check.ranksFromTrace;
    if (ranks.empty()) return "";
    if (ranks.size() == check.ranks.size()) return " (all read off their Kineto traces)";
    return std::string(ranks.size() == 1 ? " (rank " : " (ranks ") + rankRanges(ranks) +
           " read off their Kineto traces)";
}

}  // namespace

std::string divergenceSentence(const JobDivergence& d, const JobCheck& check,
                               const PlannedStep& step, const Scenario& scenario,
                               const Plan& plan) {
    return Sentence(d, check, step, scenario, plan).text();
}

std::string jobCheckText(const JobCheck& check, const PlannedStep& step, const Scenario& scenario,
                         const Plan& plan) {
    std::string out = "check-job " + scenario.name + ": " + std::to_string(check.ranks.size()) +
                      " ranks' dumps" + fromTracesText(check) + ", " +
                      std::to_string(check.matched) +
                      " per-rank entries as planned (a collective is one entry on each member)";
    if (check.ignored > 0)
        out += ", " + std::to_string(check.ignored) + " world barriers left aside";
    if (!check.ranksWithoutDump.empty())
        out += "; no dump of rank(s) " + rankRanges(check.ranksWithoutDump) +
               ", of which nothing is said";
    // What a trace cannot say: the profiler writes an event as the call
    // returns, so a collective a rank hung in is absent, not stuck.
    if (!check.ranksFromTrace.empty())
        out +=
            "\na Kineto trace records a collective when its call returns: one a rank hung in "
            "is missing from it rather than stuck, and its durations are the CPU side's "
            "(the launch), not the GPU's";
    if (check.recordWorldSize != scenario.worldSize)
        out += "\nthe record's world is " + std::to_string(check.recordWorldSize) +
               " ranks, the plan's " + std::to_string(scenario.worldSize) +
               ": is this the scenario the job ran? (its groups then match few of the plan's)";
    if (!check.first) return out + "\nthe record is exactly the plan\n";
    const size_t n = check.divergences.size();
    out += "\n" + std::to_string(n) + (n == 1 ? " divergence" : " divergences") +
           "; look first at:\n  " +
           divergenceSentence(check.divergences[*check.first], check, step, scenario, plan) +
           "\nall, in the job's order" +
           (n > 1 ? std::string(" (the others are often its consequences: where each peer "
                                "waited depends on how far it got, and varies from run to run)")
                  : std::string()) +
           ":\n";
    for (const JobDivergence& d : check.divergences)
        out += "  " + std::string(divergenceKindName(d.kind)) + ": " +
               divergenceSentence(d, check, step, scenario, plan) + "\n";
    return out;
}

}  // namespace hsdp
