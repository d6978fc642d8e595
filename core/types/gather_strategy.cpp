// SPDX-License-Identifier: Apache-2.0
#include "types/gather_strategy.h"

namespace hsdp {

std::string_view gatherStrategyName(GatherStrategy strategy) {
    return strategy == GatherStrategy::AllGather ? "all-gather" : "all-to-all";
}

std::string_view gatherStrategyOptionName(GatherStrategyOption option) {
    switch (option) {
        case GatherStrategyOption::AllGather:
            return "all-gather";
        case GatherStrategyOption::AllToAll:
            return "all-to-all";
        case GatherStrategyOption::Auto:
            return "auto";
    }
    return "all-gather";
}

std::optional<GatherStrategyOption> gatherStrategyOptionNamed(std::string_view name) {
    for (auto option : {GatherStrategyOption::AllGather, GatherStrategyOption::AllToAll,
                        GatherStrategyOption::Auto})
        if (gatherStrategyOptionName(option) == name) return option;
    return std::nullopt;
}

}  // namespace hsdp
