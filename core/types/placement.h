// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hsdp {

enum class ReduceOp { Sum, Avg, Max, Min, Product };
std::string_view reduceOpName(ReduceOp op);
std::optional<ReduceOp> parseReduceOp(std::string_view text);

// One DTensor placement along one mesh dim. `dim` is kept as written (it may
// be negative); the planner normalises it against the tensor's ndim.
struct Placement {
    enum class Kind { Replicate, Shard, StridedShard, Partial };
    Kind kind = Kind::Replicate;
    int dim = 0;                        // Shard / StridedShard
    int splitFactor = 1;                // StridedShard
    ReduceOp reduceOp = ReduceOp::Sum;  // Partial

    static Placement replicate() { return {}; }
    static Placement shard(int d) { return {Kind::Shard, d, 1, ReduceOp::Sum}; }
    static Placement stridedShard(int d, int k) {
        return {Kind::StridedShard, d, k, ReduceOp::Sum};
    }
    static Placement partial(ReduceOp op = ReduceOp::Sum) { return {Kind::Partial, 0, 1, op}; }

    bool isReplicate() const { return kind == Kind::Replicate; }
    bool isShard() const {
        return kind == Kind::Shard || kind == Kind::StridedShard;
    }  // strided counts
    bool isPartial() const { return kind == Kind::Partial; }

    // Canonical form: R, S(d), SS(d,k), P(op).
    std::string toString() const;
    // Equality by kind and arguments: SS(0,2) != S(0), P(sum) != P(avg).
    bool operator==(const Placement& other) const;
};

// Parses every accepted spelling (docs/scenario-format.md); white space is ignored.
// Returns nullopt when the text is not a placement.
std::optional<Placement> parsePlacement(std::string_view text);

std::string placementsToString(const std::vector<Placement>& placements);  // "[R, S(0)]"

}  // namespace hsdp
