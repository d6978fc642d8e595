// SPDX-License-Identifier: Apache-2.0
#include "plan/batching.h"

#include <algorithm>
#include <numeric>

namespace hsdp {

namespace {

int64_t numelOf(int param, const std::vector<ParamSpec>& specs) {
    return specs.at(static_cast<size_t>(param)).numel();
}

std::vector<int> byNumelDescending(std::vector<int> params, const std::vector<ParamSpec>& specs) {
    std::stable_sort(params.begin(), params.end(),
                     [&](int a, int b) { return numelOf(a, specs) > numelOf(b, specs); });
    return params;
}

}  // namespace

int64_t totalNumel(const std::vector<int>& params, const std::vector<ParamSpec>& specs) {
    int64_t total = 0;
    for (int p : params) total += numelOf(p, specs);
    return total;
}

std::vector<std::vector<int>> splitIntoBatches(const std::vector<int>& params,
                                               const std::vector<ParamSpec>& specs,
                                               std::optional<int64_t> maxBatchNumel) {
    if (!maxBatchNumel) return {params};
    std::vector<std::vector<int>> batches;
    std::vector<int64_t> numels;
    std::vector<int> current;
    int64_t currentNumel = 0;
    for (int p : byNumelDescending(params, specs)) {
        current.push_back(p);
        currentNumel += numelOf(p, specs);
        if (currentNumel >= *maxBatchNumel) {  // soft cap: the param that crosses it stays
            batches.push_back(std::move(current));
            numels.push_back(currentNumel);
            current.clear();
            currentNumel = 0;
        }
    }
    if (!current.empty()) {
        batches.push_back(std::move(current));
        numels.push_back(currentNumel);
    }
    std::vector<size_t> order(batches.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return numels[a] > numels[b]; });
    std::vector<std::vector<int>> sorted;
    sorted.reserve(batches.size());
    for (size_t i : order) sorted.push_back(std::move(batches[i]));
    return sorted;
}

std::vector<ScheduleEntry> buildBatches(std::vector<Group>& groups,
                                        const std::vector<ParamSpec>& specs,
                                        std::optional<int64_t> maxBatchNumel) {
    std::vector<int64_t> groupNumel;
    for (Group& group : groups) {
        group.batches.clear();
        for (auto& params : splitIntoBatches(group.params, specs, maxBatchNumel)) {
            Batch batch;
            batch.numel = totalNumel(params, specs);
            batch.params = std::move(params);
            group.batches.push_back(std::move(batch));
        }
        groupNumel.push_back(totalNumel(group.params, specs));
    }
    std::vector<size_t> order(groups.size());
    std::iota(order.begin(), order.end(), size_t{0});
    if (maxBatchNumel)
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return groupNumel[a] > groupNumel[b]; });
    std::vector<ScheduleEntry> schedule;
    for (size_t g : order)
        for (size_t b = 0; b < groups[g].batches.size(); ++b)
            schedule.push_back({groups[g].id, static_cast<int>(b)});
    return schedule;
}

}  // namespace hsdp
