// SPDX-License-Identifier: Apache-2.0
#include "scenario/detail/options_reader.h"

#include "scenario/detail/mesh_reader.h"
#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

#include <cmath>

namespace hsdp {

namespace {

// Segments are padded to the alignment; beyond 1 GiB it can only be a typo and
// would make buffer sizes overflow downstream.
constexpr int64_t kMaxAlignment = int64_t{1} << 30;

// An int > 0, or null (nullopt) where the format allows it.
std::optional<int64_t> readOptionalPositive(const Json& value, const std::string& path) {
    if (value.is_null()) return std::nullopt;
    if (!isIntInRange(value, 1, kNoMax)) failExpected(path, "an integer >= 1 or null", value);
    return value.get<int64_t>();
}

std::string readBackend(const Json& value, const std::string& path) {
    if (!value.is_string() || (value != "gloo" && value != "nccl" && value != "hccl"))
        failExpected(path, "one of \"gloo\", \"nccl\", \"hccl\"", value);
    return value.get<std::string>();
}

GatherStrategyOption readGatherStrategy(const Json& value, const std::string& path) {
    auto option =
        value.is_string() ? gatherStrategyOptionNamed(value.get<std::string>()) : std::nullopt;
    if (!option) failExpected(path, "one of \"all-gather\", \"all-to-all\", \"auto\"", value);
    return *option;
}

// The most Newton–Schulz steps a scenario may ask for: far beyond any in use
// (5 to 10), and each runs on every orthogonalised matrix.
constexpr int64_t kMaxNewtonSchulzSteps = 100;

bool isTriple(const Json& value) {
    if (!value.is_array() || value.size() != 3) return false;
    for (const auto& v : value)
        if (!v.is_number()) return false;
    return true;
}

std::array<float, 3> readTriple(const Json& value, const std::string& path) {
    if (!value.is_array() || value.size() != 3)
        failExpected(path, "a list of three numbers [a, b, c]", value);
    std::array<float, 3> out{};
    for (size_t i = 0; i < 3; ++i) {
        const Json& v = value[i];
        if (!v.is_number()) failExpected(childPath(path, i), "a number", v);
        const double d = v.get<double>();
        if (!std::isfinite(d) || std::abs(d) > 1e6)
            failExpected(childPath(path, i), "a number in -1e6..1e6", v);
        out[i] = static_cast<float>(d);
    }
    return out;
}

NewtonSchulzOptions readNewtonSchulz(const Json& value, const std::string& path) {
    requireObject(value, path, "Newton-Schulz options", {"steps", "coefficients", "dtype"});
    NewtonSchulzOptions out;
    const Json* steps = findMember(value, "steps");
    const Json* coefficients = findMember(value, "coefficients");
    if (steps) out.steps = int(readInt(*steps, childPath(path, "steps"), 1, kMaxNewtonSchulzSteps));
    if (coefficients) {
        const std::string at = childPath(path, "coefficients");
        if (isTriple(*coefficients)) {
            out.coefficients.assign(size_t(out.steps), readTriple(*coefficients, at));
        } else {
            if (!coefficients->is_array() || coefficients->empty())
                failExpected(at, "one [a, b, c] or a list of one [a, b, c] per step",
                             *coefficients);
            if (!steps) {
                if (int64_t(coefficients->size()) > kMaxNewtonSchulzSteps)
                    failExpected(at, "at most " + std::to_string(kMaxNewtonSchulzSteps) + " steps",
                                 *coefficients);
                out.steps = int(coefficients->size());
            }
            if (coefficients->size() != size_t(out.steps))
                throw ScenarioError(at, "expected one [a, b, c] for every step or a list of " +
                                            std::to_string(out.steps) + " (one per step), got " +
                                            std::to_string(coefficients->size()) + " triples");
            out.coefficients.clear();
            for (size_t i = 0; i < coefficients->size(); ++i)
                out.coefficients.push_back(readTriple((*coefficients)[i], childPath(at, i)));
        }
    } else if (out.steps != int(out.coefficients.size())) {
        throw ScenarioError(childPath(path, "steps"),
                            "expected 5 without \"coefficients\" (the default coefficients are "
                            "five steps'), got " +
                                describeJson(*steps) + "; give \"coefficients\" for another count");
    }
    if (const Json* dtype = findMember(value, "dtype")) {
        const std::string at = childPath(path, "dtype");
        if (*dtype == "fp32")
            out.dtype = DType::F32;
        else if (*dtype == "bf16")
            out.dtype = DType::BF16;
        else
            failExpected(at, "\"fp32\" or \"bf16\"", *dtype);
    }
    return out;
}

}  // namespace

PlanOptions readOptions(const Json& options, const std::string& path) {
    requireObject(options, path, "options",
                  {"alignment_bytes", "max_batch_numel", "hsdp_replica_count", "auto_replica_count",
                   "devices_per_node", "backend", "broadcast_max_bytes", "lr", "gather_strategy",
                   "newton_schulz"});
    PlanOptions out;
    for (const auto& [key, value] : options.items()) {
        std::string at = childPath(path, key);
        if (key == "alignment_bytes")
            out.alignmentBytes = readInt(value, at, 1, kMaxAlignment);
        else if (key == "max_batch_numel")
            out.maxBatchNumel = readOptionalPositive(value, at);
        else if (key == "hsdp_replica_count")
            out.hsdpReplicaCount = readOptionalPositive(value, at);
        else if (key == "auto_replica_count")
            out.autoReplicaCount = readBool(value, at);
        else if (key == "devices_per_node")
            out.devicesPerNode = readInt(value, at, 1, kMaxWorldSize);
        else if (key == "backend")
            out.backend = readBackend(value, at);
        else if (key == "broadcast_max_bytes")
            out.broadcastMaxBytes = readInt(value, at, 1);
        else if (key == "lr")
            out.lr = readPositiveNumber(value, at);
        else if (key == "gather_strategy")
            out.gatherStrategy = readGatherStrategy(value, at);
        else if (key == "newton_schulz")
            out.newtonSchulz = readNewtonSchulz(value, at);
    }
    return out;
}

}  // namespace hsdp
