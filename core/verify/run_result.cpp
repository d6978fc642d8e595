// SPDX-License-Identifier: Apache-2.0
#include "verify/run_result.h"

namespace hsdp {

std::string_view runModeName(RunMode mode) {
    return mode == RunMode::Reference ? "reference" : "corrected";
}

std::string_view gatherVerdictName(GatherVerdict v) {
    switch (v) {
        case GatherVerdict::Exact:
            return "exact";
        case GatherVerdict::Mismatch:
            return "mismatch";
        case GatherVerdict::NotGathered:
            return "not-gathered";
        case GatherVerdict::Error:
            return "error";
        case GatherVerdict::NotReached:
            return "not-reached";
    }
    return "?";
}

std::string_view checkVerdictName(CheckVerdict v) {
    switch (v) {
        case CheckVerdict::Exact:
            return "exact";
        case CheckVerdict::Mismatch:
            return "mismatch";
        case CheckVerdict::Error:
            return "error";
        case CheckVerdict::NotReached:
            return "not-reached";
    }
    return "?";
}

std::string_view replicaVerdictName(ReplicaVerdict v) {
    switch (v) {
        case ReplicaVerdict::Identical:
            return "identical";
        case ReplicaVerdict::Diverged:
            return "diverged";
        case ReplicaVerdict::NotReached:
            return "not-reached";
    }
    return "?";
}

}  // namespace hsdp
