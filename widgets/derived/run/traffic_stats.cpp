// SPDX-License-Identifier: Apache-2.0
#include "derived/run/traffic_stats.h"

#include <algorithm>
#include <map>

#include "derived/run/trace_timeline.h"

namespace hsdp {

namespace {

using Intervals = std::vector<std::pair<double, double>>;

void add(TrafficRow& row, Intervals& busy, const RunStep& step, const Trace& trace,
         const RealScale* real) {
    const TraceEvent& first = trace.events[static_cast<size_t>(step.events.front())];
    const double size = collectiveSize(step, trace);
    ++row.collectives;
    row.events += static_cast<int64_t>(step.events.size());
    int64_t wire = 0;
    for (int e : step.events) wire += trace.events[static_cast<size_t>(e)].bytes;
    row.wireBytes += wire;
    row.sizeBytes += size;
    row.busBytes += size * busBandwidthFactor(first.op, static_cast<int>(first.groupRanks.size()));
    row.seconds += step.runUs() * 1e-6;
    busy.emplace_back(step.readyUs, step.endUs);
    if (real) {
        // Each member's bytes by its own label, as the run's real-size total
        // (realWireBytes) scales them: an all_to_all_v member sends other
        // params' pieces than the first member does. The size grows alike.
        double realWire = 0;
        for (int e : step.events) {
            const TraceEvent& event = trace.events[static_cast<size_t>(e)];
            const auto bytes = double(event.bytes);
            realWire += real->realBytes(event.label, bytes).value_or(bytes);
        }
        row.realWireBytes += realWire;
        row.realSizeBytes += wire > 0 ? size * realWire / double(wire)
                                      : real->realBytes(first.label, size).value_or(size);
    }
}

// The length of the union of `busy`, in seconds.
double unionSeconds(Intervals busy) {
    std::sort(busy.begin(), busy.end());
    double total = 0, begin = 0, end = -1;
    for (const auto& [b, e] : busy) {
        if (b > end) {
            total += std::max(0.0, end - begin);
            begin = b;
        }
        end = std::max(end, e);
    }
    return (total + std::max(0.0, end - begin)) * 1e-6;
}

// The mesh dims along which the members of `ranks` differ: the dims an
// exchange over a flattened group (the all-to-all gather strategy) spans.
std::vector<int> spannedDims(const Mesh& mesh, const std::vector<int>& ranks) {
    std::vector<int> dims;
    const auto first = ranks.empty() ? std::nullopt : mesh.coordinateOf(ranks.front());
    if (!first) return dims;
    for (int d = 0; d < mesh.ndim(); ++d)
        for (int r : ranks)
            if (auto c = mesh.coordinateOf(r); c && (*c)[size_t(d)] != (*first)[size_t(d)]) {
                dims.push_back(d);
                break;
            }
    return dims;
}

QString dimKey(const TraceEvent& e, const Scenario* scenario) {
    const Mesh* mesh = scenario ? scenario->findMesh(e.label.mesh) : nullptr;
    if (e.label.meshDim < 0 && mesh && !e.label.mesh.empty()) {
        QStringList names, numbers;
        for (int d : spannedDims(*mesh, e.groupRanks)) {
            names << QString::fromStdString(mesh->dimNames[size_t(d)]);
            numbers << QString::number(d);
        }
        if (!names.isEmpty())
            return QStringLiteral("%1 %2 (dims %3 as one group)")
                .arg(QString::fromStdString(e.label.mesh), names.join(QChar(0x00D7)),
                     numbers.join(QStringLiteral(", ")));
    }
    if (e.label.meshDim < 0)
        return QStringLiteral("%1 (no mesh dim)").arg(QString::fromStdString(e.label.mesh));
    QString dim = mesh && e.label.meshDim < mesh->ndim()
                      ? QString::fromStdString(mesh->dimNames[static_cast<size_t>(e.label.meshDim)])
                      : QStringLiteral("dim");
    return QStringLiteral("%1 %2 (dim %3)")
        .arg(QString::fromStdString(e.label.mesh), dim)
        .arg(e.label.meshDim);
}

}  // namespace

double collectiveSize(const RunStep& step, const Trace& trace) {
    if (step.events.empty()) return 0;
    const TraceEvent& first = trace.events[static_cast<size_t>(step.events.front())];
    const auto n = static_cast<double>(first.groupRanks.size());
    if (n <= 1) return 0;
    double sent = 0;
    for (int e : step.events)
        sent += static_cast<double>(trace.events[static_cast<size_t>(e)].bytes);
    return sent / ((first.op == "all_reduce" ? 2.0 : 1.0) * (n - 1));
}

TrafficStats trafficStats(const std::vector<RunStep>& steps, const Trace& trace,
                          const Scenario* scenario, int slowestCount, const RealScale* real) {
    TrafficStats stats;
    stats.shrunk = real && real->shrunk();
    if (!stats.shrunk) real = nullptr;
    stats.total.key = QStringLiteral("all");
    std::map<int, std::pair<TrafficRow, Intervals>> byOp;
    std::map<std::pair<std::string, int>, std::pair<TrafficRow, Intervals>> byDim;
    Intervals all;
    for (const RunStep& step : steps) {
        const TraceEvent& e = trace.events[static_cast<size_t>(step.events.front())];
        const auto& ops = traceOpNames();
        auto op = std::find(ops.begin(), ops.end(), QString::fromStdString(e.op)) - ops.begin();
        auto& [opRow, opBusy] = byOp[static_cast<int>(op)];
        opRow.key = QString::fromStdString(e.op);
        add(opRow, opBusy, step, trace, real);
        auto& [dimRow, dimBusy] = byDim[{e.label.mesh, e.label.meshDim}];
        dimRow.key = dimKey(e, scenario);
        add(dimRow, dimBusy, step, trace, real);
        add(stats.total, all, step, trace, real);
    }
    auto finish = [](std::pair<TrafficRow, Intervals>& entry) {
        entry.first.wallSeconds = unionSeconds(std::move(entry.second));
        return entry.first;
    };
    for (auto& [op, entry] : byOp) stats.byOp.push_back(finish(entry));
    for (auto& [dim, entry] : byDim) stats.byDim.push_back(finish(entry));
    stats.total.wallSeconds = unionSeconds(std::move(all));
    std::vector<int> order(steps.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    const auto keep =
        std::min<size_t>(order.size(), static_cast<size_t>(std::max(0, slowestCount)));
    std::partial_sort(
        order.begin(), order.begin() + static_cast<long>(keep), order.end(), [&](int a, int b) {
            return steps[static_cast<size_t>(a)].runUs() > steps[static_cast<size_t>(b)].runUs();
        });
    stats.slowest.assign(order.begin(), order.begin() + static_cast<long>(keep));
    return stats;
}

}  // namespace hsdp
