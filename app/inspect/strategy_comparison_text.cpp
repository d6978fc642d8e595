// SPDX-License-Identifier: Apache-2.0
#include "strategy_comparison_text.h"

#include <sstream>

#include "cost/step_schedule.h"
#include "types/figures.h"

namespace hsdp {

std::vector<StrategyComparison> compareEveryGroup(const Scenario& scenario, const Plan& plan,
                                                  const Cluster& cluster, size_t maxGroups,
                                                  bool* tooLarge) {
    std::vector<StrategyComparison> out;
    if (tooLarge) *tooLarge = false;
    try {
        for (size_t g = 0; g < plan.groups.size() && out.size() < maxGroups; ++g)
            if (gathers(plan.groups[g]))
                out.push_back(compareStrategies(scenario, plan, int(g), cluster));
    } catch (const ScheduleTooLarge&) {
        if (tooLarge) *tooLarge = true;
        out.clear();
    }
    return out;
}

namespace {

std::string figuresText(const StrategyFigures& f) {
    return humanBytes(double(f.maxReceived)) + ", " + durationText(f.seconds) + ", peak " +
           humanBytes(double(f.peakBytes));
}

nlohmann::ordered_json figuresJson(const StrategyFigures& f) {
    return {{"max_received_bytes", f.maxReceived},
            {"mean_received_bytes", f.meanReceived},
            {"seconds", f.seconds},
            {"peak_bytes", f.peakBytes},
            {"peak_rank", f.peakRank}};
}

}  // namespace

std::string strategyComparisonsText(const std::vector<StrategyComparison>& comparisons,
                                    size_t gatheredGroups) {
    if (comparisons.empty()) return {};
    std::ostringstream out;
    out << "  gather strategies  per gathered group, at real size: the most a rank receives, the "
           "busiest rank's gather + update return (Newton-Schulz, the same under both, left "
           "out), the step's peak\n";
    for (const StrategyComparison& c : comparisons) {
        out << "    group " << c.groupId << "  all-gather " << figuresText(c.allGather)
            << "; all-to-all " << figuresText(c.allToAll) << "; runs " << gatherStrategyName(c.used)
            << (c.chosenByAuto ? " (auto)" : " (options.gather_strategy)") << "\n";
    }
    if (gatheredGroups > comparisons.size())
        out << "    and " << gatheredGroups - comparisons.size()
            << " more gathered groups (the studio's Gather strategy view shows each)\n";
    return out.str();
}

nlohmann::ordered_json strategyComparisonsToJson(
    const std::vector<StrategyComparison>& comparisons) {
    auto out = nlohmann::ordered_json::array();
    for (const StrategyComparison& c : comparisons)
        out.push_back({{"group", c.groupId},
                       {"runs", gatherStrategyName(c.used)},
                       {"chosen_by_auto", c.chosenByAuto},
                       {"all_gather", figuresJson(c.allGather)},
                       {"all_to_all", figuresJson(c.allToAll)}});
    return out;
}

}  // namespace hsdp
