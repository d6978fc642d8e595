// SPDX-License-Identifier: Apache-2.0
// A benchmark that compares two programs must show they computed the same
// thing; a fast wrong plan (or a port that failed early) would fake a ratio.
#include "plan_agreement.h"

#include <fstream>

#include <nlohmann/json.hpp>

namespace hsdp::bench {

namespace {

using Json = nlohmann::json;  // std::map objects: equality ignores key order

constexpr const char* kComparedFields[] = {"world_size",     "effective_hsdp_replica_count",
                                           "no_comm_params", "rejected_params",
                                           "groups",         "schedule",
                                           "ranks",          "tp_transitions"};

// The reference's per-rank fields (select_owned_records); the held, gathered
// and computed figures are the project's own and the port does not write them.
Json referenceRanks(const Json& ranks) {
    Json out = Json::array();
    for (const Json& r : ranks)
        out.push_back({{"rank", r.at("rank")},
                       {"owned", r.at("owned")},
                       {"owned_numel", r.at("owned_numel")}});
    return out;
}

// The reference's group fields: the gather strategy is the project's own
// (the reference always all-gathers) and the port does not write it.
Json referenceGroups(Json groups) {
    for (Json& g : groups) g.erase("gather_strategy");
    return groups;
}

Json readJson(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    return Json::parse(in);
}

}  // namespace

std::string planDisagreement(const std::string& cppPlanPath, const std::string& portPlanPath) {
    Json cpp, port;
    try {
        cpp = readJson(cppPlanPath);
        port = readJson(portPlanPath);
    } catch (const std::exception& e) {
        return std::string("unreadable plan: ") + e.what();
    }
    if (port.contains("error")) return "the Python port failed: " + port["error"].dump();
    for (const char* field : kComparedFields) {
        if (!cpp.contains(field) || !port.contains(field))
            return std::string("field '") + field + "' missing";
        const std::string name = field;
        const bool same =
            name == "ranks"    ? referenceRanks(cpp[field]) == referenceRanks(port[field])
            : name == "groups" ? referenceGroups(cpp[field]) == referenceGroups(port[field])
                               : cpp[field] == port[field];
        if (!same) return std::string("field '") + field + "' differs";
    }
    return "";
}

}  // namespace hsdp::bench
