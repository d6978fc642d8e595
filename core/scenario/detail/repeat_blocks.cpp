// SPDX-License-Identifier: Apache-2.0
#include "scenario/detail/repeat_blocks.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace hsdp {

namespace {

bool isIdentifier(std::string_view text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

// Calls `visit(begin, end, name)` for every "{identifier}" in `text`, in
// order. An identifier holds no brace, so of the '{'s before a '}' only the
// last can open a reference: one pass over the text (searching for the '}'
// from each '{' was quadratic in a name of many '{').
template <class Visit>
void forEachVarReference(const std::string& text, const Visit& visit) {
    size_t pos = 0;
    while ((pos = text.find('{', pos)) != std::string::npos) {
        const size_t close = text.find('}', pos + 1);
        if (close == std::string::npos) return;
        const size_t open = text.rfind('{', close);
        std::string_view name(text.data() + open + 1, close - open - 1);
        if (isIdentifier(name)) visit(open, close + 1, name);
        pos = close + 1;
    }
}

}  // namespace

bool isRepeatBlock(const Json& element) {
    return element.is_object() && element.contains("repeat");
}

RepeatHeader readRepeatHeader(const Json& block, const std::string& path,
                              const std::string& listKey, const RepeatScope& scope) {
    requireObject(block, path, "a repeat block", {"repeat", "start", "var", listKey});
    RepeatHeader header;
    header.count = readInt(*findMember(block, "repeat"), childPath(path, "repeat"), 0);
    if (const Json* start = findMember(block, "start"))
        header.start = readInt(*start, childPath(path, "start"), 0,
                               std::numeric_limits<int64_t>::max() - header.count);
    header.var = "i";
    if (const Json* var = findMember(block, "var")) {
        header.var = readString(*var, childPath(path, "var"));
        if (!isIdentifier(header.var))
            failExpected(childPath(path, "var"), "an identifier (letters, digits, _)", *var);
    }
    if (std::find(scope.begin(), scope.end(), header.var) != scope.end())
        throw ScenarioError(childPath(path, "var"),
                            "var \"" + header.var +
                                "\" is already used by an enclosing repeat block; "
                                "expected another name (e.g. \"j\")");
    header.entries = &requireMember(block, path, listKey);
    header.entriesPath = childPath(path, listKey);
    return header;
}

void checkNameVars(const std::string& text, const std::string& path, const RepeatScope& scope) {
    forEachVarReference(text, [&](size_t, size_t, std::string_view name) {
        if (std::find(scope.begin(), scope.end(), name) == scope.end())
            throw ScenarioError(path, "name uses \"{" + std::string(name) +
                                          "}\" but no enclosing repeat block has var \"" +
                                          std::string(name) + "\"");
    });
}

std::string substituteVars(const std::string& text, const RepeatBindings& bindings) {
    if (bindings.empty()) return text;
    std::string out;
    size_t copied = 0;
    forEachVarReference(text, [&](size_t begin, size_t end, std::string_view name) {
        if (begin < copied) return;  // inside an earlier replaced reference
        for (const auto& [var, value] : bindings) {
            if (var != name) continue;
            out.append(text, copied, begin - copied);
            out += std::to_string(value);
            copied = end;
        }
    });
    out.append(text, copied, std::string::npos);
    return out;
}

std::string describeBindings(const RepeatBindings& bindings) {
    std::string out;
    for (const auto& [var, value] : bindings)
        out += (out.empty() ? "" : ", ") + var + "=" + std::to_string(value);
    return out;
}

int64_t saturatingAdd(int64_t a, int64_t b, int64_t cap) {
    return a >= cap - b ? cap : a + b;
}

int64_t saturatingMul(int64_t a, int64_t b, int64_t cap) {
    if (a == 0 || b == 0) return 0;
    return a > cap / b ? cap : std::min(cap, a * b);
}

}  // namespace hsdp
