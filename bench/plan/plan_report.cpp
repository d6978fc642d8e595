// SPDX-License-Identifier: Apache-2.0
// The report of hsdp-bench plan's scaling table: text for people, JSON for
// scripts, and the growth exponents the scaling goal is stated in.
#include "plan_report.h"

#include <iomanip>
#include <sstream>

namespace hsdp::bench {

namespace {

// Per row, the growth exponent from the last earlier row where the side ran.
std::vector<double> exponents(const std::vector<PointTiming>& rows, bool port) {
    std::vector<double> out(rows.size(), 0);
    const PointTiming* previous = nullptr;
    for (size_t i = 0; i < rows.size(); ++i) {
        const SideTiming& side = port ? rows[i].port : rows[i].cpp;
        if (side.wall.empty()) continue;
        if (previous) {
            const SideTiming& before = port ? previous->port : previous->cpp;
            out[i] = growthExponent(before.medianWall(), side.medianWall(),
                                    planWork(previous->point), planWork(rows[i].point));
        }
        previous = &rows[i];
    }
    return out;
}

// Exponent from the first to the last row where the side ran.
double overallExponent(const std::vector<PointTiming>& rows, bool port) {
    const PointTiming *first = nullptr, *last = nullptr;
    for (const auto& row : rows) {
        if ((port ? row.port : row.cpp).wall.empty()) continue;
        if (!first)
            first = &row;
        else
            last = &row;
    }
    if (!first || !last) return 0;
    auto time = [&](const PointTiming* r) { return (port ? r->port : r->cpp).medianWall(); };
    return growthExponent(time(first), time(last), planWork(first->point), planWork(last->point));
}

Json orNull(double value) {
    return value > 0 ? Json(value) : Json(nullptr);
}

Json sideJson(const SideTiming& side) {
    return {{"status", side.status},
            {"wall_seconds", orNull(side.medianWall())},
            {"cpu_seconds", orNull(side.medianCpu())},
            {"wall_samples", side.wall}};
}

}  // namespace

Json pointJson(const PointTiming& row, double cppExponent, double portExponent) {
    return {{"params", row.point.params()},
            {"ranks", row.point.ranks()},
            {"mesh_shape", row.point.meshShape},
            {"replicate_coords", row.point.replicateCoords()},
            {"cpp", sideJson(row.cpp)},
            {"port", sideJson(row.port)},
            {"ratio", orNull(row.ratio())},
            {"plans", row.agreement},
            {"cpp_exponent", orNull(cppExponent)},
            {"port_exponent", orNull(portExponent)}};
}

std::string fixed(double value, int digits) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << value;
    return out.str();
}

std::string sideCell(const SideTiming& side, double limitSeconds) {
    if (!side.wall.empty()) return fixed(side.medianWall(), 3) + " s";
    if (side.status == "timeout") return "> " + fixed(limitSeconds, 0) + " s";
    if (side.status == "skipped") return "not run";
    return "FAILED";
}

namespace {

void printRow(std::ostream& out, const PointTiming& row, const ScalingSetup& setup, double cppExp,
              double portExp) {
    auto exp = [](double e) { return e > 0 ? fixed(e, 2) : std::string("-"); };
    out << std::setw(8) << row.point.params() << std::setw(8) << row.point.ranks() << std::setw(8)
        << row.point.replicateCoords() << std::setw(11) << sideCell(row.cpp, setup.portLimitSeconds)
        << std::setw(10) << fixed(row.cpp.medianCpu(), 3) << std::setw(11)
        << sideCell(row.port, setup.portLimitSeconds) << std::setw(8)
        << (row.ratio() > 0 ? fixed(row.ratio(), 0) + "x" : "-") << std::setw(7) << exp(cppExp)
        << std::setw(7) << exp(portExp) << "  " << row.agreement << "\n";
}

const PointTiming* guardRow(const std::vector<PointTiming>& rows) {
    for (const auto& row : rows)
        if (row.point.params() == guardPoint().params() &&
            row.point.ranks() == guardPoint().ranks())
            return &row;
    return nullptr;
}

}  // namespace

// Failures of a side or a disagreement of the plans; "" when there are none.
std::string problems(const std::vector<PointTiming>& rows) {
    std::string out;
    for (const auto& row : rows) {
        for (const auto* side : {&row.cpp, &row.port})
            if (side->status.rfind("failed", 0) == 0)
                out += "  " + row.point.label() + ": " + (side == &row.cpp ? "C++ " : "port ") +
                       side->status + "\n";
        if (row.agreement != "identical" && row.agreement != "not compared")
            out += "  " + row.point.label() + ": plans differ: " + row.agreement + "\n";
    }
    return out;
}

Json scalingReport(const std::vector<PointTiming>& rows, const ScalingSetup& setup,
                   std::ostream& text) {
    const auto cppExp = exponents(rows, false), portExp = exponents(rows, true);
    text << "whole process on the same scenario files, " << setup.rounds
         << " interleaved rounds, wall-clock medians:\n"
         << "  C++     hsdp-inspect plan --json SCENARIO\n"
         << "  Python  tests/seed_port/hsdp_seed_plan.py SCENARIO (the seeds' algorithm; given "
         << setup.portLimitSeconds << " s per point)\n"
         << "  params   ranks  coords      C++ s   C++ cpu   Python s   ratio  expC++  expPy  "
            "plans\n";
    Json points = Json::array();
    for (size_t i = 0; i < rows.size(); ++i) {
        printRow(text, rows[i], setup, cppExp[i], portExp[i]);
        points.push_back(pointJson(rows[i], cppExp[i], portExp[i]));
    }
    const double cppAll = overallExponent(rows, false), portAll = overallExponent(rows, true);
    text << "  exp: growth exponent of wall time in params x replicate coords (from the row "
            "above); first to last timed row: C++ "
         << fixed(cppAll, 2) << ", Python " << fixed(portAll, 2) << "\n";
    const PointTiming* guard = guardRow(rows);
    const double ratio = guard ? guard->ratio() : 0;
    text << "at " << guardPoint().label() << ": C++ planner " << fixed(ratio, 0)
         << "x faster than the Python port (goal >= " << setup.goalRatio << "x)\n";
    return {{"rounds", setup.rounds},
            {"port_limit_seconds", setup.portLimitSeconds},
            {"points", points},
            {"cpp_exponent_overall", orNull(cppAll)},
            {"port_exponent_overall", orNull(portAll)},
            {"ratio_at_guard_point", orNull(ratio)},
            {"goal_ratio", setup.goalRatio}};
}

}  // namespace hsdp::bench
