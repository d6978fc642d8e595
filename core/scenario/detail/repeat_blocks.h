// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

// A scenario may expand to at most this many params (and, separately, TP
// transitions). Checked by multiplying repeat counts before expanding.
inline constexpr int64_t kMaxExpandedEntries = 10'000'000;

using RepeatScope = std::vector<std::string>;                         // vars of enclosing blocks
using RepeatBindings = std::vector<std::pair<std::string, int64_t>>;  // var -> counter value

// One element of `params` / `tp_transitions` as written: a leaf entry (its
// name still holding "{i}") or a repeat block. `path` is its place in the file.
template <class Entry>
struct RepeatItem {
    std::string path;
    std::optional<Entry> entry;     // leaf
    int64_t count = 0;              // block: "repeat"
    int64_t start = 0;              // block: "start", the counter's first value
    std::string var;                // block: "var"
    std::vector<RepeatItem> items;  // block: its entries
};

// --- non-template helpers (repeat_blocks.cpp) ---

bool isRepeatBlock(const Json& element);

struct RepeatHeader {
    int64_t count = 0;
    int64_t start = 0;
    std::string var;
    const Json* entries = nullptr;
    std::string entriesPath;
};
// Validates a block's keys, count, start (the counter's first value; start +
// count must fit in 64 bits), var (an identifier not already used by an
// enclosing block) and its `listKey` array.
RepeatHeader readRepeatHeader(const Json& block, const std::string& path,
                              const std::string& listKey, const RepeatScope& scope);

// Every "{name}" in `text` must name a var of `scope`; error at `path` otherwise.
void checkNameVars(const std::string& text, const std::string& path, const RepeatScope& scope);
// Replaces "{var}" by its counter value for every bound var.
std::string substituteVars(const std::string& text, const RepeatBindings& bindings);
std::string describeBindings(const RepeatBindings& bindings);  // "i=3, e=1"

int64_t saturatingAdd(int64_t a, int64_t b, int64_t cap);
int64_t saturatingMul(int64_t a, int64_t b, int64_t cap);

// --- reading and expanding (templates) ---

// Reads a list whose elements are leaves (via `readLeaf(json, path, scope)`)
// or repeat blocks holding such a list under `listKey`.
template <class Entry, class ReadLeaf>
std::vector<RepeatItem<Entry>> readRepeatList(const Json& list, const std::string& path,
                                              const std::string& listKey, const std::string& what,
                                              const RepeatScope& scope, const ReadLeaf& readLeaf) {
    readArray(list, path, what + " or repeat blocks");
    std::vector<RepeatItem<Entry>> items;
    for (size_t i = 0; i < list.size(); ++i) {
        RepeatItem<Entry> item;
        item.path = childPath(path, i);
        if (isRepeatBlock(list[i])) {
            RepeatHeader header = readRepeatHeader(list[i], item.path, listKey, scope);
            RepeatScope inner = scope;
            inner.push_back(header.var);
            item.count = header.count;
            item.start = header.start;
            item.var = header.var;
            item.items = readRepeatList<Entry>(*header.entries, header.entriesPath, listKey, what,
                                               inner, readLeaf);
        } else {
            item.entry = readLeaf(list[i], item.path, scope);
            checkNameVars(item.entry->name, childPath(item.path, "name"), scope);
        }
        items.push_back(std::move(item));
    }
    return items;
}

// Entries the list expands to, saturated at kMaxExpandedEntries + 1.
template <class Entry>
int64_t countExpanded(const std::vector<RepeatItem<Entry>>& items) {
    constexpr int64_t cap = kMaxExpandedEntries + 1;
    int64_t total = 0;
    for (const auto& item : items) {
        int64_t n = item.entry ? 1 : saturatingMul(item.count, countExpanded(item.items), cap);
        total = saturatingAdd(total, n, cap);
    }
    return total;
}

namespace detail {

template <class Entry>
struct Expansion {
    std::vector<Entry> out;
    std::unordered_map<std::string_view, int> firstIndex;
    std::string what;  // "param" / "TP transition"
    RepeatBindings bindings;

    void add(const RepeatItem<Entry>& leaf) {
        Entry entry = *leaf.entry;
        entry.index = static_cast<int>(out.size());
        entry.name = substituteVars(entry.name, bindings);
        out.push_back(std::move(entry));
        // Keys view the names stored in `out`, which never reallocates (reserved).
        auto [it, fresh] = firstIndex.emplace(out.back().name, out.back().index);
        if (!fresh) throwDuplicate(leaf, out.back(), it->second);
    }

    [[noreturn]] void throwDuplicate(const RepeatItem<Entry>& leaf, const Entry& entry, int first) {
        std::string where = bindings.empty() ? "" : ", with " + describeBindings(bindings);
        throw ScenarioError(childPath(leaf.path, "name"),
                            "duplicate name \"" + entry.name + "\" (" + what + " " +
                                std::to_string(entry.index) + " after expansion" + where +
                                "; the same name is " + what + " " + std::to_string(first) + ")");
    }

    void walk(const std::vector<RepeatItem<Entry>>& items) {
        for (const auto& item : items) {
            if (item.entry) {
                add(item);
                continue;
            }
            // Outer loop over the counter, inner over the entries (docs/scenario-format.md).
            for (int64_t c = item.start; c < item.start + item.count; ++c) {
                bindings.emplace_back(item.var, c);
                walk(item.items);
                bindings.pop_back();
            }
        }
    }
};

}  // namespace detail

// `items` without the blocks that expand to nothing (a count of 0, or no
// entry inside), so that expanding costs the entries it makes: a count of
// 2^63 - 1 over an empty list walked forever, and a large count over many
// such blocks walked them all each time.
template <class Entry>
std::vector<RepeatItem<Entry>> withoutEmptyBlocks(const std::vector<RepeatItem<Entry>>& items) {
    std::vector<RepeatItem<Entry>> out;
    for (const auto& item : items) {
        if (item.entry) {
            out.push_back(item);
            continue;
        }
        RepeatItem<Entry> block = item;
        block.items = withoutEmptyBlocks(item.items);
        if (block.count > 0 && !block.items.empty()) out.push_back(std::move(block));
    }
    return out;
}

// Expands repeat blocks: names substituted, `index` = position, names unique.
template <class Entry>
std::vector<Entry> expandRepeats(const std::vector<RepeatItem<Entry>>& written,
                                 const std::string& listPath, const std::string& what) {
    const std::vector<RepeatItem<Entry>> items = withoutEmptyBlocks(written);
    if (countExpanded(items) > kMaxExpandedEntries)
        throw ScenarioError(listPath, "expands to more than " +
                                          std::to_string(kMaxExpandedEntries) + " " + what +
                                          "s (the product of nested repeat counts is too large)");
    detail::Expansion<Entry> expansion;
    expansion.what = what;
    auto total = static_cast<size_t>(countExpanded(items));
    expansion.out.reserve(total);
    expansion.firstIndex.reserve(total);
    expansion.walk(items);
    return std::move(expansion.out);
}

}  // namespace hsdp
