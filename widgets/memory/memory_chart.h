// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QVector>
#include <array>

#include "types/step_memory.h"

namespace hsdp {

struct PlanCost;

// What the Memory view draws of a prediction, in bytes (docs/cost-model.md
// "Memory"): per rank its step's peak split by kind of buffer at the moment
// of the peak (the bars stack to the peak), the device's capacity, and one
// rank's high-water mark per schedule entry.
struct MemoryChart {
    QVector<double> ranks;                             // bar keys: the ranks, ascending
    std::array<QVector<double>, kMemoryKinds> atPeak;  // [kind][bar]
    double capacityBytes = 0;                          // 0: the cluster does not say
    int peakRank = -1;                                 // the first rank with the highest peak
    double peakBytes = 0;

    // Whether the bars share a scale with the capacity: the highest peak is
    // at least kCapacityScaleShare of it. Below that (KiB on an 80 GB
    // device) the bars would be slivers under the line, so the chart is
    // scaled to the peaks and says what the capacity is instead.
    static constexpr double kCapacityScaleShare = 0.1;
    bool capacityOnScale() const {
        return capacityBytes > 0 && peakBytes >= capacityBytes * kCapacityScaleShare;
    }
};
MemoryChart memoryChart(const PlanCost& cost);

// `rank`'s peak in each schedule entry it takes part in, in step order.
struct EntryMemorySeries {
    QVector<double> keys;   // 0, 1, ...
    QVector<double> bytes;  // the entry's high-water mark
    // "#3" (schedule entry 3), "local params" (the params each rank updates
    // itself after the schedule: no-comm and held-whole ones)
    QVector<QString> names;
};
EntryMemorySeries entryMemory(const PlanCost& cost, int rank);

// "param" -> "param shard", "newton_schulz" -> "Newton–Schulz workspace", ...
QString memoryKindLabel(MemoryKind kind);

}  // namespace hsdp
