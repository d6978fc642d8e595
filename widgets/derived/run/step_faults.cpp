// SPDX-License-Identifier: Apache-2.0
#include "derived/run/step_faults.h"

#include <QStringList>
#include <algorithm>
#include <initializer_list>
#include <set>
#include <string_view>

#include "derived/run/run_status_text.h"
#include "derived/run/step_caption.h"

namespace hsdp {

namespace {

constexpr int kShownTexts = 3;  // mismatch or error texts per fault, then a count

// The run's verdicts by param and transition index, and whether any failed.
class Verdicts {
public:
    explicit Verdicts(const RunResult& run) {
        for (const ParamRunResult& p : run.params)
            if (paramFailed(p)) params_[p.index] = &p;
        for (const TpRunResult& t : run.tpTransitions)
            if (t.result == CheckVerdict::Mismatch || t.result == CheckVerdict::Error)
                transitions_[t.index] = &t;
    }
    bool anyFailed() const { return !params_.empty() || !transitions_.empty(); }
    const ParamRunResult* param(int index) const { return find(params_, index); }
    const TpRunResult* transition(int index) const { return find(transitions_, index); }

private:
    template <class T>
    static const T* find(const std::unordered_map<int, const T*>& map, int index) {
        auto it = map.find(index);
        return it == map.end() ? nullptr : it->second;
    }
    std::unordered_map<int, const ParamRunResult*> params_;
    std::unordered_map<int, const TpRunResult*> transitions_;
};

// What the checks found on the step's ranks: the mismatches of the kinds in
// `whats`, and (when `errors`) the errors the detail names for them.
struct Found {
    std::set<int> ranks;
    QStringList texts;
    int more = 0;

    void add(const QString& text) {
        if (texts.size() < kShownTexts)
            texts << text;
        else
            ++more;
    }
    bool empty() const { return texts.isEmpty(); }
};

Found found(const std::vector<Mismatch>& mismatches, const std::string& detail,
            std::initializer_list<std::string_view> whats, bool errors,
            const std::set<int>& group) {
    Found out;
    if (errors)
        for (const DetailError& e : detailErrors(detail)) {
            bool ours = false;
            for (int r : e.ranks)
                if (group.count(r)) ours = true, out.ranks.insert(r);
            if (ours) out.add(e.text);
        }
    for (const Mismatch& m : mismatches) {
        if (!group.count(m.rank) ||
            std::find(whats.begin(), whats.end(), std::string_view(m.what)) == whats.end())
            continue;
        out.ranks.insert(m.rank);
        out.add(QString::fromStdString(m.text));
    }
    return out;
}

StepFault faultOf(Found&& f) {
    StepFault fault;
    fault.ranks.assign(f.ranks.begin(), f.ranks.end());
    fault.text = f.texts.join(QStringLiteral("; "));
    if (f.more > 0) fault.text += QStringLiteral("; +%1 more").arg(f.more);
    return fault;
}

std::vector<StepFault> faultsOf(const RunStep& step, const RunResult& run,
                                const Verdicts& verdicts) {
    std::vector<StepFault> faults;
    if (step.events.empty() || !verdicts.anyFailed()) return faults;
    const TraceEvent& e = run.trace.events[static_cast<size_t>(step.events.front())];
    const std::set<int> group(e.groupRanks.begin(), e.groupRanks.end());
    const std::string& phase = e.label.phase;
    if (phase == "tp") {
        const TpRunResult* t = verdicts.transition(e.label.tpTransition);
        if (!t) return faults;
        Found f = found(t->mismatches, t->detail, {"tp"}, t->result == CheckVerdict::Error, group);
        if (f.empty()) return faults;
        StepFault fault = faultOf(std::move(f));
        fault.tpTransition = t->index;
        fault.name = QString::fromStdString(t->name);
        faults.push_back(std::move(fault));
        return faults;
    }
    const bool gather = phase == "gather";
    if (!gather && phase != "update-broadcast" && phase != "replica-broadcast") return faults;
    for (int index : e.label.params) {
        const ParamRunResult* p = verdicts.param(index);
        if (!p) continue;
        Found f;
        if (gather) {
            if (p->gather == GatherVerdict::Mismatch || p->gather == GatherVerdict::Error)
                f = found(p->mismatches, p->detail, {"gather"}, p->gather == GatherVerdict::Error,
                          group);
        } else if (phase == "update-broadcast") {
            // Every member slices its own rows out of the update it received and applies them.
            f = found(p->mismatches, p->detail, {"update", "step"}, p->step == CheckVerdict::Error,
                      group);
        } else {
            f = found(p->mismatches, p->detail, {"step"}, p->step == CheckVerdict::Error, group);
            if (p->replicas == ReplicaVerdict::Diverged && f.empty())
                f.add(QStringLiteral("the replicas diverged"));
        }
        if (f.empty()) continue;
        StepFault fault = faultOf(std::move(f));
        fault.param = index;
        fault.name = QString::fromStdString(p->name);
        fault.gathered = gather;
        faults.push_back(std::move(fault));
    }
    return faults;
}

}  // namespace

std::vector<StepFault> stepFaults(const RunStep& step, const RunResult& run) {
    return faultsOf(step, run, Verdicts(run));
}

StepFaults stepFaults(const std::vector<RunStep>& steps, const RunResult& run) {
    StepFaults out;
    const Verdicts verdicts(run);
    if (!verdicts.anyFailed()) return out;
    for (const RunStep& step : steps) {
        std::vector<StepFault> faults = faultsOf(step, run, verdicts);
        if (!faults.empty()) out.emplace(step.seq, std::move(faults));
    }
    return out;
}

QString faultNamesText(const std::vector<StepFault>& faults) {
    QStringList parts;
    for (const StepFault& f : faults)
        parts << (f.ranks.empty() ? f.name
                                  : QStringLiteral("%1 (%2)").arg(f.name, ranksText(f.ranks)));
    return parts.join(QStringLiteral(", "));
}

}  // namespace hsdp
