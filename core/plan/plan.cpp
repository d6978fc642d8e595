#include "plan/plan.h"

#include <algorithm>

namespace hsdp {

std::string_view severityName(Severity severity) {
    switch (severity) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Info:
            return "info";
    }
    return "?";
}

bool Plan::hasErrors() const {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

const Group* Plan::groupOf(int paramIndex) const {
    for (const auto& group : groups) {
        // Group params are kept in index order, so a binary search suffices.
        if (std::binary_search(group.params.begin(), group.params.end(), paramIndex)) return &group;
    }
    return nullptr;
}

}  // namespace hsdp
