// SPDX-License-Identifier: Apache-2.0
#include "export/scenario_json_text.h"

#include <algorithm>

namespace hsdp {

namespace {

bool isScalarArray(const Json& value) {
    return value.is_array() && std::none_of(value.begin(), value.end(),
                                            [](const Json& v) { return v.is_structured(); });
}

bool isLeaf(const Json& value) {
    if (!value.is_structured() || isScalarArray(value)) return true;
    if (!value.is_object()) return false;
    return std::all_of(value.begin(), value.end(),
                       [](const Json& v) { return !v.is_structured() || isScalarArray(v); });
}

// `{"a": 1, "b": [1, 2]}`: nlohmann's compact dump without the spaces people add.
void writeInline(const Json& value, std::string& out) {
    if (value.is_array()) {
        out += '[';
        for (size_t i = 0; i < value.size(); ++i) {
            if (i) out += ", ";
            writeInline(value[i], out);
        }
        out += ']';
    } else if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [key, member] : value.items()) {
            if (!first) out += ", ";
            first = false;
            out += Json(key).dump();
            out += ": ";
            writeInline(member, out);
        }
        out += '}';
    } else {
        out += value.dump();
    }
}

void write(const Json& value, int indent, std::string& out) {
    if (isLeaf(value) || value.empty()) {
        writeInline(value, out);
        return;
    }
    const std::string inner(static_cast<size_t>(indent + 2), ' ');
    out += value.is_array() ? "[\n" : "{\n";
    size_t i = 0;
    for (const auto& [key, member] : value.items()) {
        out += inner;
        if (value.is_object()) out += Json(key).dump() + ": ";
        write(member, indent + 2, out);
        out += ++i < value.size() ? ",\n" : "\n";
    }
    out += std::string(static_cast<size_t>(indent), ' ');
    out += value.is_array() ? ']' : '}';
}

}  // namespace

std::string scenarioJsonText(const Json& document) {
    std::string out;
    write(document, 0, out);
    out += '\n';
    return out;
}

}  // namespace hsdp
