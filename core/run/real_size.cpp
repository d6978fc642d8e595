// SPDX-License-Identifier: Apache-2.0
#include "run/real_size.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "run/shrink.h"

namespace hsdp {

namespace {

double ratio(const std::vector<int64_t>& real, const std::vector<int64_t>& run) {
    const auto shrunk = static_cast<double>(shapeNumel(run));
    return shrunk > 0 ? static_cast<double>(shapeNumel(real)) / shrunk : 1.0;
}

double at(const std::vector<double>& ratios, int index) {
    return index >= 0 && static_cast<size_t>(index) < ratios.size()
               ? ratios[static_cast<size_t>(index)]
               : 1.0;
}

}  // namespace

RealScale realScale(const Scenario& scenario, const std::optional<ShrinkInfo>& shrink) {
    RealScale scale;
    scale.factor = shrink ? shrink->factor : 1;
    const ShrinkDecision run = shrinkAtFactor(scenario, scale.factor);
    for (size_t i = 0; i < scenario.params.size(); ++i)
        scale.params.push_back(ratio(scenario.params[i].shape, run.paramShapes[i]));
    for (size_t i = 0; i < scenario.tpTransitions.size(); ++i)
        scale.tps.push_back(ratio(scenario.tpTransitions[i].shape, run.tpShapes[i]));
    return scale;
}

std::optional<double> RealScale::realBytes(const CollectiveLabel& label, double runBytes) const {
    // A figure of a fused buffer is a multiple of its slot: payload, scaled
    // per param, plus padding, kept (it is per segment, not per byte).
    double payload = 0, weighted = 0, padding = 0;
    for (const BufferSegment& s : label.segments) {
        payload += static_cast<double>(s.length);
        weighted += static_cast<double>(s.length) * at(params, s.param);
        padding += static_cast<double>(s.padding);
    }
    if (payload + padding > 0) return runBytes * (weighted + padding) / (payload + padding);
    if (label.tpTransition >= 0) return runBytes * at(tps, label.tpTransition);
    if (label.params.empty()) return std::nullopt;
    double sum = 0;
    for (int p : label.params) sum += at(params, p);
    return runBytes * sum / static_cast<double>(label.params.size());
}

int64_t realWireBytes(const Trace& trace, const RealScale& scale) {
    // Saturates at the largest int64 (9.2 EB): a saved run's trace may claim
    // any figure, and neither llround nor the sum may overflow.
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    int64_t total = 0;
    for (const TraceEvent& e : trace.events) {
        const auto bytes = static_cast<double>(e.bytes);
        const double real = scale.realBytes(e.label, bytes).value_or(bytes);
        const int64_t rounded = real >= 0x1p63 ? kMax : std::llround(std::max(0.0, real));
        if (__builtin_add_overflow(total, rounded, &total)) return kMax;
    }
    return total;
}

}  // namespace hsdp
