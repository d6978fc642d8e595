// SPDX-License-Identifier: Apache-2.0
#include "export/cost_json.h"

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

Json clusterJson(const Cluster& cluster) {
    return {{"name", cluster.name},
            {"nodes", cluster.nodes},
            {"devices_per_node", cluster.devicesPerNode},
            {"ranks", cluster.worldSize()},
            {"device", cluster.device.name},
            {"validated_error", cluster.trustText()}};
}

Json criticalPathJson(const PlanCost& cost) {
    Json path = Json::array();
    for (const auto& s : cost.criticalPath)
        path.push_back({{"rank", s.rank},
                        {"phase", std::string(stepPhaseName(s.phase))},
                        {s.phase == StepPhase::Tp ? "tp_transition" : "step", s.index},
                        {"start_seconds", s.startSeconds},
                        {"seconds", s.seconds},
                        {"collectives", s.collectives},
                        {"collective_seconds", s.collectiveSeconds}});
    return path;
}

Json phasesJson(const PlanCost& cost) {
    Json phases = Json::object();
    for (const auto& p : cost.phases)
        phases[std::string(stepPhaseName(p.phase))] = {
            {"collectives", p.collectives},
            {"collective_seconds", p.collectiveSeconds},
            {"compute_seconds_summed_over_ranks", p.computeSeconds},
            {"critical_path_seconds", p.criticalSeconds},
            {"critical_path_compute_seconds", p.criticalComputeSeconds},
            {"critical_path_newton_schulz_seconds", p.criticalNewtonSchulzSeconds}};
    return phases;
}

Json meshDimsJson(const PlanCost& cost) {
    Json dims = Json::array();
    for (const auto& d : cost.meshDims)
        dims.push_back({{"mesh", d.mesh},
                        {"dim", d.dim},
                        {"name", d.dimName},
                        {"groups", d.groups},
                        {"groups_crossing_nodes", d.crossingNodes}});
    return dims;
}

// Per rank as columns indexed by rank: a world of 131,072 ranks stays a few
// arrays of integers instead of as many objects.
Json strategyJson(const StrategyTraffic& traffic) {
    std::vector<int64_t> gatherSent, gatherReceived, returnSent, returnReceived;
    for (const auto& r : traffic.ranks) {
        gatherSent.push_back(r.gather.sent);
        gatherReceived.push_back(r.gather.received);
        returnSent.push_back(r.updateReturn.sent);
        returnReceived.push_back(r.updateReturn.received);
    }
    return {{"max_received_bytes", traffic.maxReceived()},
            {"total_received_bytes", traffic.totalReceived()},
            {"ranks",
             {{"gather_sent_bytes", std::move(gatherSent)},
              {"gather_received_bytes", std::move(gatherReceived)},
              {"update_return_sent_bytes", std::move(returnSent)},
              {"update_return_received_bytes", std::move(returnReceived)}}}};
}

Json memoryFitJson(const MemoryFit& fit) {
    Json remedies = Json::array();
    for (const MemoryRemedy& r : fit.remedies) {
        Json remedy = {{"max_batch_numel", nullptr},
                       {"gather_strategy", nullptr},
                       {"peak_rank", r.peakRank},
                       {"peak_bytes", r.peakBytes}};
        if (r.maxBatchNumel) remedy["max_batch_numel"] = *r.maxBatchNumel;
        if (r.gatherStrategy) remedy["gather_strategy"] = gatherStrategyName(*r.gatherStrategy);
        remedies.push_back(std::move(remedy));
    }
    Json out = {{"fits", fit.fits()},
                {"device_memory_bytes", fit.deviceBytes},
                {"peak_rank", fit.peakRank},
                {"peak_bytes", fit.peakBytes},
                {"over_bytes", fit.overBytes()},
                {"ranks_over", fit.ranksOver},
                {"remedies", std::move(remedies)}};
    if (fit.searched && fit.remedies.empty())
        out["lightest"] = {{"peak_rank", fit.floorRank},
                           {"peak_bytes", fit.floorBytes},
                           {"resident_bytes", fit.floorResidentBytes}};
    return out;
}

}  // namespace

// What the plan runs and both strategies, per rank and phase.
nlohmann::ordered_json gatherTrafficToJson(const GatherTraffic& traffic) {
    const int64_t toAll = traffic.allToAll.maxReceived();
    return {{"runs", traffic.runs},
            {"chosen", strategyJson(traffic.chosen)},
            {"received_ratio",
             toAll > 0 ? double(traffic.allGather.maxReceived()) / double(toAll) : 0.0},
            {"strategies",
             {{std::string(gatherStrategyName(GatherStrategy::AllGather)),
               strategyJson(traffic.allGather)},
              {std::string(gatherStrategyName(GatherStrategy::AllToAll)),
               strategyJson(traffic.allToAll)}}}};
}

Json costToJson(const PlanCost& cost) {
    Json ranks = Json::array();
    for (const auto& r : cost.ranks)
        ranks.push_back({{"rank", r.rank},
                         {"finish_seconds", r.finishSeconds},
                         {"busy_seconds", r.busySeconds},
                         {"waiting_seconds", r.waitingSeconds},
                         {"peak_bytes", r.peakBytes},
                         {"resident_bytes", r.residentBytes}});
    return {{"cluster", clusterJson(cost.cluster)},
            {"step_seconds", cost.stepSeconds},
            {"step_validated_error", cost.cluster.trustText()},
            {"last_rank", cost.lastRank},
            {"critical_path", criticalPathJson(cost)},
            {"phases", phasesJson(cost)},
            {"mesh_dims", meshDimsJson(cost)},
            {"peak_rank", cost.peakRank},
            {"peak_bytes", cost.ranks.empty() ? 0 : cost.ranks[size_t(cost.peakRank)].peakBytes},
            {"device_memory_bytes", cost.cluster.device.memoryBytes},
            {"memory_fit", memoryFitJson(cost.memoryFit)},
            {"ranks", std::move(ranks)},
            {"gather_traffic", gatherTrafficToJson(cost.gatherTraffic)}};
}

namespace {

nlohmann::ordered_json figuresJson(const StrategyFigures& f) {
    return {{"max_received_bytes", f.maxReceived},
            {"mean_received_bytes", f.meanReceived},
            {"seconds", f.seconds},
            {"peak_bytes", f.peakBytes},
            {"peak_rank", f.peakRank},
            {"every_group_peak_bytes", f.everyGroupPeakBytes},
            {"every_group_peak_rank", f.everyGroupPeakRank}};
}

}  // namespace

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
