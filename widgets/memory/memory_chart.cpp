// SPDX-License-Identifier: Apache-2.0
#include "memory/memory_chart.h"

#include <QObject>

#include "cost/plan_cost.h"

namespace hsdp {

MemoryChart memoryChart(const PlanCost& cost) {
    MemoryChart chart;
    chart.capacityBytes = double(cost.cluster.device.memoryBytes);
    for (const StepMemory& rank : cost.memory) {
        chart.ranks.push_back(rank.rank);
        for (int k = 0; k < kMemoryKinds; ++k)
            chart.atPeak[size_t(k)].push_back(double(rank.atPeak[size_t(k)]));
    }
    if (!cost.ranks.empty()) {  // the cost model's own choice of the peak rank
        chart.peakRank = cost.peakRank;
        chart.peakBytes = double(cost.ranks[size_t(cost.peakRank)].peakBytes);
    }
    return chart;
}

EntryMemorySeries entryMemory(const PlanCost& cost, int rank) {
    EntryMemorySeries series;
    if (rank < 0 || size_t(rank) >= cost.memory.size()) return series;
    for (const EntryMemory& entry : cost.memory[size_t(rank)].entries) {  // memory[r] is rank r's
        series.keys.push_back(double(series.keys.size()));
        series.bytes.push_back(double(entry.peakBytes));
        series.names.push_back(entry.scheduleIndex < 0
                                   ? QObject::tr("local params")
                                   : QStringLiteral("#%1").arg(entry.scheduleIndex));
    }
    return series;
}

QString memoryKindLabel(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::Param:
            return QObject::tr("param shard");
        case MemoryKind::Grad:
            return QObject::tr("grad shard");
        case MemoryKind::Momentum:
            // AdamW's params hold two moments here, Muon's its momentum.
            return QObject::tr("momentum / AdamW moments");
        case MemoryKind::GatherBuffer:
            return QObject::tr("gather buffer");
        case MemoryKind::FullMatrix:
            return QObject::tr("full matrices");
        case MemoryKind::NewtonSchulz:
            return QObject::tr("Newton–Schulz workspace");
        case MemoryKind::UpdatePayload:
            return QObject::tr("update payload");
        case MemoryKind::BroadcastBuffer:
            return QObject::tr("broadcast buffer");
        case MemoryKind::ReplicaPayload:
            return QObject::tr("replica payload");
    }
    return QString::fromUtf8(memoryKindName(kind).data(), qsizetype(memoryKindName(kind).size()));
}

}  // namespace hsdp
