// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenario/json_text.h"

namespace hsdp {

// One value a pickle built. Containers hold their items by index into the
// arena: pickle memoizes a list or a dict while it is still empty and fills
// it afterwards, so a memo reference must see the same container, and a
// container that ends up holding itself must not leak (as shared pointers
// would) but be caught when it is written out.
struct PickleValue {
    enum class Kind { None, Bool, Int, Float, Text, Bytes, List, Tuple, Dict };
    Kind kind = Kind::None;
    size_t offset = 0;  // of the opcode that made it, for errors
    bool flag = false;
    int64_t integer = 0;
    double real = 0;
    std::string text;           // Text (UTF-8) and Bytes
    std::vector<size_t> items;  // List, Tuple; Dict: key, value, key, value...
};

// Every value of one pickle, at most kMaxPickleValues of them.
class PickleArena {
public:
    // Adds `value` and returns its index; past the limit, an error at its offset.
    size_t add(PickleValue value);
    PickleValue& at(size_t index) { return values_[index]; }
    const PickleValue& at(size_t index) const { return values_[index]; }

    // The value at `root` as Json, memo copies expanded. Errors (a container
    // nested deeper than kMaxJsonDepth or holding itself, a repeated dict key,
    // more than kMaxPickleValues values or kMaxPickleTextBytes bytes once
    // expanded) name the offset of the value at fault.
    Json toJson(size_t root) const;

private:
    // What a value expands to, memo copies counted (saturating).
    struct Expansion {
        uint64_t values = 0;
        uint64_t bytes = 0;
    };
    // Measured before anything is built, each value once: a few memo
    // references can make a pickle of a hundred bytes stand for millions of
    // values, and those are refused without being made.
    Expansion measure(size_t index, int depth, std::vector<std::optional<Expansion>>& seen) const;
    Json convert(size_t index) const;
    Json convertDict(const PickleValue& dict) const;

    std::vector<PickleValue> values_;
};

}  // namespace hsdp
