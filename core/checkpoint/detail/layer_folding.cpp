// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/layer_folding.h"

#include <algorithm>
#include <map>

namespace hsdp {

namespace {

struct Item {
    std::string name;
    const Json* members;
};

struct Node {
    std::string name;               // leaf
    const Json* members = nullptr;  // leaf
    int64_t repeat = 0;             // block
    int64_t start = 0;
    std::string var;
    std::vector<Node> children;
};

// A layer index: canonical decimal digits (no leading zero, so that writing
// it back gives the same name), short enough for 64 bits.
bool isIndex(const std::string& part) {
    if (part.empty() || part.size() > 17 || (part.size() > 1 && part[0] == '0')) return false;
    return std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct Split {
    std::string prefix;  // up to the index, without its dot
    int64_t index = -1;  // -1: the name has no index with something after it
    std::string rest;
};

Split splitAtFirstIndex(const std::string& name) {
    size_t start = 0;
    while (start <= name.size()) {
        const size_t dot = name.find('.', start);
        const std::string part = name.substr(start, dot == std::string::npos ? dot : dot - start);
        if (dot == std::string::npos) break;
        if (isIndex(part))
            return {start == 0 ? "" : name.substr(0, start - 1), std::stoll(part),
                    name.substr(dot + 1)};
        start = dot + 1;
    }
    return {};
}

std::string chooseVar(const std::string& prefix, const std::vector<std::string>& scope) {
    const auto unused = [&](const std::string& v) {
        return std::find(scope.begin(), scope.end(), v) == scope.end();
    };
    const bool experts =
        prefix == "experts" ||
        (prefix.size() > 8 && prefix.compare(prefix.size() - 8, 8, ".experts") == 0);
    if (experts && unused("e")) return "e";
    for (const char* v : {"i", "j", "k", "l", "m", "n", "p", "q"})
        if (unused(v)) return v;
    return "v" + std::to_string(scope.size());
}

void prefixNames(std::vector<Node>& nodes, const std::string& prefix) {
    for (Node& node : nodes) {
        if (node.repeat > 0)
            prefixNames(node.children, prefix);
        else
            node.name = prefix + node.name;
    }
}

// What must agree for two indices to share a block: everything but the index.
std::string signature(const std::vector<Node>& nodes) {
    std::string sig;
    for (const Node& node : nodes) {
        if (node.repeat > 0)
            sig += "[" + std::to_string(node.repeat) + "," + std::to_string(node.start) + "," +
                   node.var + ":" + signature(node.children) + "]";
        else
            sig += node.name + '\x1f' + node.members->dump() + '\x1e';
    }
    return sig;
}

std::vector<Node> fold(const std::vector<Item>& items, std::vector<std::string>& scope);

// One prefix's indices: folded each, then runs of equal neighbours as blocks.
void foldGroup(const std::string& prefix, const std::map<int64_t, std::vector<Item>>& byIndex,
               std::vector<std::string>& scope, std::vector<Node>& out) {
    const std::string var = chooseVar(prefix, scope);
    const std::string lead = prefix.empty() ? "" : prefix + ".";
    scope.push_back(var);
    std::vector<std::pair<int64_t, std::vector<Node>>> folded;
    for (const auto& [index, items] : byIndex) folded.emplace_back(index, fold(items, scope));
    scope.pop_back();
    for (size_t i = 0; i < folded.size();) {
        const std::string sig = signature(folded[i].second);
        size_t j = i + 1;
        while (j < folded.size() && folded[j].first == folded[j - 1].first + 1 &&
               signature(folded[j].second) == sig)
            ++j;
        std::vector<Node> children = std::move(folded[i].second);
        if (j - i == 1) {
            prefixNames(children, lead + std::to_string(folded[i].first) + ".");
            for (Node& child : children) out.push_back(std::move(child));
        } else {
            prefixNames(children, lead + "{" + var + "}.");
            out.push_back({"", nullptr, int64_t(j - i), folded[i].first, var, std::move(children)});
        }
        i = j;
    }
}

std::vector<Node> fold(const std::vector<Item>& items, std::vector<std::string>& scope) {
    // Each prefix's entries by index, and where the prefix first appears.
    std::map<std::string, std::map<int64_t, std::vector<Item>>> groups;
    std::vector<std::pair<std::string, const Item*>> order;  // prefix, or a leaf
    for (const Item& item : items) {
        const Split split = splitAtFirstIndex(item.name);
        if (split.index < 0) {
            order.emplace_back("", &item);
            continue;
        }
        auto [group, fresh] = groups.try_emplace(split.prefix);
        if (fresh) order.emplace_back(split.prefix, nullptr);
        group->second[split.index].push_back({split.rest, item.members});
    }
    std::vector<Node> out;
    for (const auto& [prefix, leaf] : order) {
        if (leaf)
            out.push_back({leaf->name, leaf->members, 0, 0, {}, {}});
        else
            foldGroup(prefix, groups.at(prefix), scope, out);
    }
    return out;
}

Json toJson(const std::vector<Node>& nodes) {
    Json list = Json::array();
    for (const Node& node : nodes) {
        if (node.repeat == 0) {
            Json entry = {{"name", node.name}};
            for (const auto& [key, value] : node.members->items()) entry[key] = value;
            list.push_back(std::move(entry));
            continue;
        }
        Json block = {{"repeat", node.repeat}};
        if (node.start != 0) block["start"] = node.start;
        block["var"] = node.var;
        block["params"] = toJson(node.children);
        list.push_back(std::move(block));
    }
    return list;
}

void describe(const std::vector<Node>& nodes, const std::string& ranges,
              std::vector<std::string>& out) {
    for (const Node& node : nodes) {
        if (node.repeat == 0) {
            out.push_back(node.name + (ranges.empty() ? "" : " (" + ranges + ")"));
            continue;
        }
        const std::string range = node.var + " = " + std::to_string(node.start) + "…" +
                                  std::to_string(node.start + node.repeat - 1);
        describe(node.children, ranges.empty() ? range : ranges + ", " + range, out);
    }
}

std::vector<Node> foldEntries(const std::vector<FoldEntry>& entries) {
    std::vector<Item> items;
    items.reserve(entries.size());
    for (const FoldEntry& e : entries) items.push_back({e.name, &e.members});
    std::vector<std::string> scope;
    return fold(items, scope);
}

}  // namespace

Json foldRepeatedLayers(const std::vector<FoldEntry>& entries) {
    return toJson(foldEntries(entries));
}

std::vector<std::string> foldNamesForMessage(const std::vector<std::string>& names) {
    std::vector<FoldEntry> entries;
    for (const std::string& name : names) entries.push_back({name, Json::object()});
    std::vector<std::string> out;
    describe(foldEntries(entries), "", out);
    return out;
}

}  // namespace hsdp
