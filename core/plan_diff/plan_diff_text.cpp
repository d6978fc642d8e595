// SPDX-License-Identifier: Apache-2.0
#include "plan_diff/plan_diff_text.h"

#include <cstdio>
#include <sstream>

namespace hsdp {

namespace {

template <typename T>
std::string join(const std::vector<T>& values, const char* sep = ",") {
    std::ostringstream out;
    for (size_t i = 0; i < values.size(); ++i) out << (i ? sep : "") << values[i];
    return out.str();
}

std::string coordText(const Coord& c) {
    return "(" + join(c) + ")";
}

std::string ratioText(const std::optional<double>& r) {
    if (!r) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", *r);
    return buf;
}

std::string numelText(const std::optional<int64_t>& n) {
    return n ? std::to_string(*n) : std::string("absent");
}

std::string ownerText(const ParamInPlan& p) {
    if (p.status != ParamStatus::Grouped) return std::string(paramStatusName(p.status));
    return p.owner ? coordText(*p.owner) : "no owner";
}

std::string placementsText(const ParamInPlan& p) {
    return p.placements ? placementsToString(*p.placements) : "plain tensor";
}

std::string groupText(const ParamInPlan& p) {
    if (!p.group) return std::string(paramStatusName(p.status));
    return "group " + std::to_string(p.groupId) + " (" + groupIdentityText(*p.group) + ")";
}

// One line per item, at most `limit`, then "... N more".
class Section {
public:
    Section(std::ostringstream& out, size_t limit) : out_(out), limit_(limit) {}
    void title(const std::string& text, size_t count) {
        out_ << "\n" << text << " (" << count << ")\n";
        shown_ = 0;
        total_ = count;
    }
    void line(const std::string& text) {
        if (shown_++ < limit_) out_ << "  " << text << "\n";
        if (shown_ == total_ && total_ > limit_)
            out_ << "  ... " << total_ - limit_ << " more (use --json for all)\n";
    }

private:
    std::ostringstream& out_;
    size_t limit_;
    size_t shown_ = 0;
    size_t total_ = 0;
};

class Writer {
public:
    Writer(const PlanDiff& diff, size_t limit) : diff_(diff), section_(out_, limit) {}

    std::string write(const std::string& before, const std::string& after) {
        out_ << "Plan diff: " << before << " -> " << after << "\n"
             << (diff_.same() ? "same plan" : "the plans differ") << "\n";
        diagnostics("Diagnostics appeared", "+ ", diff_.appearedDiagnostics);
        diagnostics("Diagnostics disappeared", "- ", diff_.disappearedDiagnostics);
        reworded();
        owners();
        imbalance();
        scenario();
        params();
        groups();
        loads();
        rest();
        return out_.str();
    }

private:
    // " on param 'w'", " on 240 params ('a', 'b', 'c' and 237 more)", or "".
    static std::string subjectsText(const std::vector<std::string>& subjects) {
        if (subjects.size() == 1) return subjects.front().empty() ? "" : " on " + subjects.front();
        const std::string prefix = "param ";
        std::string names;
        const size_t shown = std::min<size_t>(subjects.size(), 3);
        bool allParams = true;
        for (size_t i = 0; i < subjects.size(); ++i)
            allParams = allParams && subjects[i].rfind(prefix, 0) == 0;
        for (size_t i = 0; i < shown; ++i)
            names +=
                (i ? ", " : "") + (allParams ? subjects[i].substr(prefix.size()) : subjects[i]);
        if (subjects.size() > shown)
            names += " and " + std::to_string(subjects.size() - shown) + " more";
        return " on " + std::to_string(subjects.size()) +
               (allParams ? " params (" : " subjects (") + names + ")";
    }

    void diagnostics(const char* title, const char* mark,
                     const std::vector<DiagnosticItem>& items) {
        if (items.empty()) return;
        const std::vector<DiagnosticGroup> groups = groupDiagnostics(items);
        section_.title(title, groups.size());
        for (const auto& d : groups)
            section_.line(mark + std::string(severityName(d.severity)) + " " + d.code +
                          subjectsText(d.subjects) + ": " + d.message);
    }

    void reworded() {
        if (diff_.rewordedDiagnostics.empty()) return;
        section_.title("Diagnostics reworded", diff_.rewordedDiagnostics.size());
        for (const auto& r : diff_.rewordedDiagnostics)
            section_.line(std::string(severityName(r.severity)) + " " + r.code + ": '" +
                          r.message.before + "' -> '" + r.message.after + "'");
    }

    void owners() {
        std::vector<std::string> lines;
        for (const auto& p : diff_.changedParams)
            if (p.changes.owner || p.changes.status)
                lines.push_back("'" + p.name + "': " + ownerText(p.before) + " -> " +
                                ownerText(p.after));
        if (lines.empty()) return;
        section_.title("Owners moved", lines.size());
        for (const auto& l : lines) section_.line(l);
    }

    void imbalance() {
        std::vector<std::string> lines;
        for (const auto& g : diff_.groups) {
            if (!g.before || !g.after) continue;
            if (ratioText(g.before->imbalance) != ratioText(g.after->imbalance))
                lines.push_back("group " + std::to_string(g.after->id) + " (" +
                                groupIdentityText(g.key) + "): " + ratioText(g.before->imbalance) +
                                " -> " + ratioText(g.after->imbalance));
            for (const auto& b : g.batches)
                if (b.before && b.after &&
                    ratioText(b.before->imbalance) != ratioText(b.after->imbalance))
                    lines.push_back("  group " + std::to_string(g.after->id) + " batch " +
                                    std::to_string(b.index) + ": " +
                                    ratioText(b.before->imbalance) + " -> " +
                                    ratioText(b.after->imbalance));
        }
        if (lines.empty()) return;
        section_.title("Imbalance, max/mean owner load", lines.size());
        for (const auto& l : lines) section_.line(l);
    }

    void scenario() {
        std::vector<std::string> lines;
        if (diff_.scenarioName)
            lines.push_back("name '" + diff_.scenarioName->before + "' -> '" +
                            diff_.scenarioName->after + "'");
        if (diff_.worldSize)
            lines.push_back("world size " + std::to_string(diff_.worldSize->before) + " -> " +
                            std::to_string(diff_.worldSize->after));
        if (diff_.effectiveReplicaCount)
            lines.push_back("effective replica count " +
                            numelText(diff_.effectiveReplicaCount->before) + " -> " +
                            numelText(diff_.effectiveReplicaCount->after));
        for (const auto& m : diff_.meshes) lines.push_back(meshLine(m));
        for (const auto& o : diff_.options)
            lines.push_back("option " + o.name + " " + o.before + " -> " + o.after +
                            (o.inPlan ? "" : " (not part of the plan)"));
        if (lines.empty()) return;
        section_.title("Scenario", lines.size());
        for (const auto& l : lines) section_.line(l);
    }

    static std::string meshLine(const MeshDiff& m) {
        auto text = [](const MeshSummary& s) {
            return "[" + join(s.shape) + "] dims (" + join(s.dimNames) + ") ranks [" +
                   join(s.ranks) + "]";
        };
        if (!m.before) return "mesh " + m.name + " added: " + text(*m.after);
        if (!m.after) return "mesh " + m.name + " removed";
        return "mesh " + m.name + ": " + text(*m.before) + " -> " + text(*m.after);
    }

    // Params whose only change is their owner are already under "Owners moved".
    static bool onlyOwnerMoved(const ParamDiff& d) {
        ParamChanges rest = d.changes;
        rest.owner = false;
        return !rest.any();
    }

    void params() {
        size_t count = diff_.addedParams.size() + diff_.removedParams.size();
        for (const auto& p : diff_.changedParams) count += onlyOwnerMoved(p) ? 0 : 1;
        if (count == 0) return;
        section_.title("Parameters", count);
        for (const auto& p : diff_.addedParams)
            section_.line("+ '" + p.name + "' " + placementsText(p) + " in " + groupText(p) +
                          (p.batch ? " batch " + std::to_string(*p.batch) : "") + ", owner " +
                          ownerText(p));
        for (const auto& p : diff_.removedParams)
            section_.line("- '" + p.name + "' (was in " + groupText(p) + ")");
        for (const auto& p : diff_.changedParams)
            if (!onlyOwnerMoved(p)) section_.line(paramLine(p));
    }

    static std::string paramLine(const ParamDiff& d) {
        std::vector<std::string> parts;
        const ParamInPlan &a = d.before, &b = d.after;
        auto add = [&](bool changed, const std::string& what, const std::string& x,
                       const std::string& y) {
            if (changed && x != y) parts.push_back(what + " " + x + " -> " + y);
        };
        add(d.changes.group || d.changes.status, "group", groupText(a), groupText(b));
        add(d.changes.batch, "batch", a.batch ? std::to_string(*a.batch) : "none",
            b.batch ? std::to_string(*b.batch) : "none");
        add(d.changes.owner, "owner", ownerText(a), ownerText(b));
        add(d.changes.spec, "placements", placementsText(a), placementsText(b));
        add(d.changes.spec, "shape", "[" + join(a.shape) + "]", "[" + join(b.shape) + "]");
        add(d.changes.spec, "dtype", std::string(dtypeName(a.dtype)),
            std::string(dtypeName(b.dtype)));
        add(d.changes.spec, "mesh", a.mesh, b.mesh);
        add(d.changes.spec, "requires_grad", a.requiresGrad ? "true" : "false",
            b.requiresGrad ? "true" : "false");
        add(d.changes.index, "index", std::to_string(a.index), std::to_string(b.index));
        return "~ '" + d.name + "': " + join(parts, "; ");
    }

    // Groups added, removed, or whose summary changed; load-only changes are under "Loads".
    void groups() {
        auto summary = [](const GroupSummary& s) {
            return "id " + std::to_string(s.id) + ", mesh shape [" + join(s.meshShape) + "], " +
                   std::to_string(s.params.size()) + " params, " + std::to_string(s.batchCount) +
                   " batches";
        };
        std::vector<std::string> lines;
        for (const auto& g : diff_.groups) {
            std::string key = groupIdentityText(g.key);
            if (!g.before)
                lines.push_back("+ " + key + ": " + summary(*g.after));
            else if (!g.after)
                lines.push_back("- " + key + ": was " + summary(*g.before));
            else if (summary(*g.before) != summary(*g.after))
                lines.push_back("~ " + key + ": " + summary(*g.before) + " -> " +
                                summary(*g.after));
        }
        if (lines.empty()) return;
        section_.title("Groups", lines.size());
        for (const auto& l : lines) section_.line(l);
    }

    void loads() {
        std::vector<std::string> lines;
        for (const auto& g : diff_.groups) {
            int id = g.after ? g.after->id : g.before->id;
            for (const auto& b : g.batches) {
                if (b.loads.empty()) continue;
                std::vector<std::string> items;
                for (const auto& c : b.loads)
                    items.push_back(coordText(c.coord) + " " + numelText(c.before) + "->" +
                                    numelText(c.after));
                lines.push_back("group " + std::to_string(id) + " batch " +
                                std::to_string(b.index) + ": " + join(items, ", "));
            }
        }
        if (lines.empty()) return;
        section_.title("Loads per replicate coordinate (numel before->after)", lines.size());
        for (const auto& l : lines) section_.line(l);
    }

    void rest() {
        std::vector<std::string> lines;
        if (diff_.schedule)
            lines.push_back("schedule: " + std::to_string(diff_.schedule->before.size()) +
                            " steps -> " + std::to_string(diff_.schedule->after.size()) +
                            " steps, order changed");
        auto names = [](const char* what, const std::vector<std::string>& list) {
            std::vector<std::string> quoted;
            for (const auto& n : list) quoted.push_back("'" + n + "'");
            return std::string(what) + ": " + join(quoted, ", ");
        };
        if (!diff_.addedTransitions.empty())
            lines.push_back(names("TP transitions added", diff_.addedTransitions));
        if (!diff_.removedTransitions.empty())
            lines.push_back(names("TP transitions removed", diff_.removedTransitions));
        if (!diff_.changedTransitions.empty())
            lines.push_back(names("TP transition decisions changed", diff_.changedTransitions));
        if (diff_.transitionOrderChanged) lines.push_back("TP transitions reordered");
        for (const auto& r : diff_.ranks) lines.push_back(rankLine(r));
        if (lines.empty()) return;
        section_.title("Schedule, TP and ranks", lines.size());
        for (const auto& l : lines) section_.line(l);
    }

    // "rank 0: computes 76 params (8819091456 elements) of its owner
    // coordinate's 302 (35276365824) -> ...": the coordinate's total is
    // shared by its ranks, what the rank computes is its own.
    static std::string rankLine(const RankDiff& r) {
        auto text = [](const std::optional<RankSummary>& s) {
            if (!s) return std::string("not in the world");
            return "computes " + std::to_string(s->computed.size()) +
                   (s->computed.size() == 1 ? " param (" : " params (") +
                   std::to_string(s->computedNumel) + " elements) of its owner coordinate's " +
                   std::to_string(s->owned.size()) + " (" + std::to_string(s->ownedNumel) + ")";
        };
        return "rank " + std::to_string(r.rank) + ": " + text(r.before) + " -> " + text(r.after);
    }

    const PlanDiff& diff_;
    std::ostringstream out_;
    Section section_;
};

}  // namespace

std::string planDiffToText(const PlanDiff& diff, const std::string& beforeLabel,
                           const std::string& afterLabel, size_t maxItems) {
    return Writer(diff, maxItems).write(beforeLabel, afterLabel);
}

}  // namespace hsdp
