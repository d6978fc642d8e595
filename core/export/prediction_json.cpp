// SPDX-License-Identifier: Apache-2.0
#include "export/prediction_json.h"

#include <cmath>
#include <cstdio>

#include "types/figures.h"

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

Json finiteOrNull(double value) {
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

}  // namespace

Json predictionToJson(const RunPrediction& p) {
    Json out;
    out["cluster"] = p.cost.cluster.name;
    out["measured_step_seconds"] = p.measuredSeconds > 0 ? Json(p.measuredSeconds) : Json(nullptr);
    out["predicted_seconds"] = p.predictedSeconds;
    out["predicted_validated_error"] = p.cost.cluster.trustText();
    out["makespan_error"] = p.makespanRelError ? finiteOrNull(*p.makespanRelError) : Json(nullptr);
    out["cluster_describes_this_run"] = p.cost.cluster.describesEngineRuns();
    out["collectives_timed"] = p.collectives.size();
    out["collective_median_abs_rel_error"] = finiteOrNull(p.collectiveMedianAbsRelError);
    Json ops = Json::array();
    for (const auto& op : p.ops)
        ops.push_back({{"op", std::string(traceNameOf(op.op))},
                       {"collectives", op.collectives},
                       {"median_abs_rel_error", finiteOrNull(op.medianAbsRelError)},
                       {"measured_seconds", op.measuredSeconds},
                       {"predicted_seconds", op.predictedSeconds}});
    out["ops"] = ops;
    if (!p.mismatches.empty()) out["mismatches"] = p.mismatches;
    Json compute = Json::array();
    for (const auto& c : p.compute)
        compute.push_back({{"kind", std::string(workKindName(c.kind))},
                           {"spans", c.spans},
                           {"median_abs_rel_error", finiteOrNull(c.medianAbsRelError)},
                           {"measured_seconds", c.measuredSeconds},
                           {"predicted_seconds", c.predictedSeconds}});
    out["compute"] = compute;
    if (!p.computeMismatches.empty()) out["compute_mismatches"] = p.computeMismatches;
    return out;
}

void addPrediction(Json& run, const RunPrediction& p) {
    Json out;
    for (auto it = run.begin(); it != run.end(); ++it) {
        out[it.key()] = it.value();
        if (it.key() == "seconds") {
            out["step_seconds"] = p.measuredSeconds > 0 ? Json(p.measuredSeconds) : Json(nullptr);
            out["predicted_seconds"] = p.predictedSeconds;
        }
    }
    if (!out.contains("predicted_seconds")) out["predicted_seconds"] = p.predictedSeconds;
    out["prediction"] = predictionToJson(p);
    run = std::move(out);
}

namespace {

// (predicted - measured) / measured of two sums, signed: "+12.0 %".
std::string signedPercent(double predicted, double measured) {
    return measured > 0 ? signedPercentText((predicted - measured) / measured) : "n/a";
}

// One op's or compute kind's line: the sums and their error, then the median
// error of the single items, which a few long ones can pull far from it.
std::string accuracyLine(std::string_view name, int count, double measured, double predicted,
                         double medianAbsRelError) {
    return "    " + padRight(std::string(name), 14) + " " + padLeft(std::to_string(count), 5) +
           "   measured " + padRight(durationText(measured), 10) + " predicted " +
           padRight(durationText(predicted), 10) + " error " +
           padRight(signedPercent(predicted, measured), 9) + " median " +
           percentText(medianAbsRelError) + "\n";
}

// The compute kinds' lines: each span's own duration, measured and predicted.
std::string computeText(const RunPrediction& p) {
    if (!p.computeMismatches.empty()) {
        std::string out = "  the schedule's compute disagrees with the trace, none compared:\n";
        for (const auto& m : p.computeMismatches) out += "    " + m + "\n";
        return out;
    }
    if (p.compute.empty()) return {};
    std::string out =
        "  compute between collectives (each span's duration on its rank, summed; error of the\n"
        "  sums, then the median of |predicted - measured| / measured span by span):\n";
    for (const auto& c : p.compute)
        out += accuracyLine(workKindName(c.kind), c.spans, c.measuredSeconds, c.predictedSeconds,
                            c.medianAbsRelError);
    return out;
}

}  // namespace

std::string predictionToText(const RunPrediction& p) {
    std::string out = "Prediction on " + p.cost.cluster.name +
                      " (the cost model at the run's own shapes, docs/cost-model.md):\n";
    out += "  step (makespan of the optimizer step): measured ";
    out += p.measuredSeconds > 0 ? durationText(p.measuredSeconds) : std::string("(not measured)");
    out += ", predicted " + durationText(p.predictedSeconds) + " " + p.cost.cluster.trustText();
    if (p.makespanRelError) {
        out += ", error " + signedPercent(p.predictedSeconds, p.measuredSeconds);
        // Said, not left to the reader: this run is outside what the cluster claims.
        const ClusterValidation& v = p.cost.cluster.validation;
        if (v.errorPercent >= 0 && p.cost.cluster.describesEngineRuns() &&
            100 * *p.makespanRelError > v.errorPercent)
            out += " (outside its validated \u00b1 " + std::to_string(std::lround(v.errorPercent)) +
                   " %)";
    }
    out += "\n";
    if (!p.cost.cluster.describesEngineRuns())
        out += "  " + p.cost.cluster.name +
               " describes NCCL on GPUs, not this run (Gloo over loopback on this machine's\n"
               "  CPU cores): the errors below measure how far this machine is from that\n"
               "  cluster, not how good the model is. --cluster loopback, or a file that\n"
               "  `hsdp-inspect calibrate` fits, describes this machine.\n";
    if (!p.mismatches.empty()) {
        out += "  the schedule disagrees with the trace, so no collective is compared:\n";
        for (const auto& m : p.mismatches) out += "    " + m + "\n";
        return out + computeText(p);
    }
    out +=
        "  collectives (measured: last member's arrival to last member's end, summed; error of\n"
        "  the sums, then the median of |predicted - measured| / measured collective by\n"
        "  collective):\n";
    for (const auto& op : p.ops)
        out += accuracyLine(traceNameOf(op.op), op.collectives, op.measuredSeconds,
                            op.predictedSeconds, op.medianAbsRelError);
    out += "    all            " + std::to_string(p.collectives.size()) +
           " collectives over more than one rank: median error " +
           percentText(p.collectiveMedianAbsRelError) + "\n";
    return out + computeText(p);
}

}  // namespace hsdp
