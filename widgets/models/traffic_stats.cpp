#include "models/traffic_stats.h"

#include <algorithm>
#include <map>

#include "models/trace_timeline.h"

namespace hsdp {

namespace {

void add(TrafficRow& row, const RunStep& step, const Trace& trace) {
    const TraceEvent& first = trace.events[static_cast<size_t>(step.events.front())];
    const double size = collectiveSize(step, trace);
    ++row.collectives;
    row.events += static_cast<int64_t>(step.events.size());
    for (int e : step.events) row.wireBytes += trace.events[static_cast<size_t>(e)].bytes;
    row.sizeBytes += size;
    row.busBytes += size * busFactor(first.op, static_cast<int>(first.groupRanks.size()));
    row.seconds += step.runUs() * 1e-6;
}

QString dimKey(const TraceEvent& e, const Scenario* scenario) {
    const Mesh* mesh = scenario ? scenario->findMesh(e.label.mesh) : nullptr;
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

double busFactor(const std::string& op, int n) {
    if (n <= 1) return 0;
    if (op == "all_reduce") return 2.0 * (n - 1) / n;
    if (op == "broadcast") return 1;
    return static_cast<double>(n - 1) / n;
}

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
                          const Scenario* scenario, int slowestCount) {
    TrafficStats stats;
    stats.total.key = QStringLiteral("all");
    std::map<int, TrafficRow> byOp;
    std::map<std::pair<std::string, int>, TrafficRow> byDim;
    for (const RunStep& step : steps) {
        const TraceEvent& e = trace.events[static_cast<size_t>(step.events.front())];
        const auto& ops = traceOpNames();
        auto op = std::find(ops.begin(), ops.end(), QString::fromStdString(e.op)) - ops.begin();
        TrafficRow& opRow = byOp[static_cast<int>(op)];
        opRow.key = QString::fromStdString(e.op);
        add(opRow, step, trace);
        TrafficRow& dimRow = byDim[{e.label.mesh, e.label.meshDim}];
        dimRow.key = dimKey(e, scenario);
        add(dimRow, step, trace);
        add(stats.total, step, trace);
    }
    for (auto& [op, row] : byOp) stats.byOp.push_back(row);
    for (auto& [dim, row] : byDim) stats.byDim.push_back(row);
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
