// SPDX-License-Identifier: Apache-2.0
#include "job_record/flight_recorder_dump.h"

namespace hsdp {

std::string_view collectiveStateName(CollectiveState state) {
    switch (state) {
        case CollectiveState::Scheduled:
            return "scheduled";
        case CollectiveState::Started:
            return "started";
        case CollectiveState::Completed:
            return "completed";
    }
    return "scheduled";
}

std::string_view FlightRecorderEntry::backend() const {
    const std::string_view name = profilingName;
    return name.substr(0, name.find(':'));
}

// "nccl:send 0->1": the word after the colon, before any peer.
std::string_view FlightRecorderEntry::operation() const {
    std::string_view name = profilingName;
    const size_t colon = name.find(':');
    name = colon == std::string_view::npos ? name : name.substr(colon + 1);
    return name.substr(0, name.find(' '));
}

const FlightRecorderGroup* FlightRecorderDump::findGroup(std::string_view name) const {
    for (const auto& group : groups)
        if (group.name == name) return &group;
    return nullptr;
}

}  // namespace hsdp
