// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>
#include <array>
#include <memory>
#include <vector>

#include "derived/plan/plan_result.h"
#include "plan_diff/plan_diff.h"

namespace hsdp {

// The sections of the "What changed" panel, in display order.
enum class PlanDiffSection {
    Params,                  // parameters that changed group, batch, owner, status or spec
    Loads,                   // owner load per replicate coordinate, summed over a group's batches
    Imbalance,               // max/mean owner load: worst over batches, per group, per batch
    DiagnosticsAppeared,     // in the after plan only
    DiagnosticsDisappeared,  // in the before plan only
    Other,                   // scenario, meshes, options, schedule, TP, reworded diagnostics, ranks
};
inline constexpr int kChangeSectionCount = 6;

// Whether a change makes the plan better or worse (imbalance, diagnostics):
// views colour it, models only pass it on.
enum class PlanDiffTrend { Neutral, Better, Worse };

// One display row. Texts are final; the positions say what activating the
// row selects and refer to the *current* plan (the one the views show), -1
// when the thing is not in it.
struct PlanDiffRow {
    QString item;    // a param name, "group 3", "warning owner-imbalance", ...
    QString what;    // what changed: "batch, owner", a coordinate, a subject
    QString before;  // "—" where the thing does not exist on that side
    QString after;
    QString delta;  // signed difference for numbers, else empty
    QString toolTip;
    PlanDiffTrend trend = PlanDiffTrend::Neutral;
    int param = -1;
    int group = -1;
    int batch = -1;
    int transition = -1;
    std::vector<int> params;  // diagnostics: every param of the matching diagnostic
};

// Which side of the comparison the studio currently shows.
enum class CurrentSide { Before, After };

// What changed between two plans, ready for display: the engine's PlanDiff
// plus the panel's rows and summary, built off the GUI thread. Invalid (no
// diff) when there is nothing to compare yet; `note` then says why.
struct PlanDiffTable {
    std::shared_ptr<const PlanDiff> diff;
    std::shared_ptr<const Plan> currentPlan;  // the plan the rows' positions refer to
    CurrentSide current = CurrentSide::After;
    QString beforeLabel;
    QString afterLabel;
    QString summary;  // "12 params moved · worst imbalance 1.31 → 1.05 · +2 −1 diagnostics"
    QString note;     // why there is nothing to compare (invalid changes only)
    double worstBefore = 1.0;
    double worstAfter = 1.0;
    std::array<std::vector<PlanDiffRow>, kChangeSectionCount> sections;

    bool isValid() const { return diff != nullptr; }
    bool same() const { return diff && diff->same(); }
    const std::vector<PlanDiffRow>& rows(PlanDiffSection section) const {
        return sections[static_cast<size_t>(section)];
    }
};

// Diffs `before` against `after` with the engine (diffPlans) and builds the
// rows. `current` names the side the studio shows, whose param and group
// positions the rows carry. Both results must be valid. Runs on any thread;
// may take a while for thousands of params on thousands of ranks, and
// throws Stopped soon after `stop` is requested.
PlanDiffTable computePlanChange(const PlanResult& before, const PlanResult& after,
                                CurrentSide current, const QString& beforeLabel,
                                const QString& afterLabel, std::stop_token stop = {});

// The param counts of `diff`, each defined once: moved (in both plans,
// something changed), added (after only), removed (before only); e.g.
// "1 param moved · 14 added · 322 removed", "" when none. The summary and the
// tree's parameter heading both say it.
QString paramCountsText(const PlanDiff& diff);

// The ratio as the CLI's diff and the status bar print it ("1.31"), "—" if none.
QString ratioText(std::optional<double> ratio);

}  // namespace hsdp

Q_DECLARE_METATYPE(hsdp::PlanDiffTable)
