// SPDX-License-Identifier: Apache-2.0
#include "scenario/json_fields.h"

#include <cmath>

#include "scenario/scenario_error.h"

namespace hsdp {

std::string childPath(const std::string& path, std::string_view key) {
    std::string out = path + "/";
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string childPath(const std::string& path, size_t index) {
    return path + "/" + std::to_string(index);
}

std::string describeJson(const Json& value) {
    constexpr size_t kMaxShown = 60;
    switch (value.type()) {
        case Json::value_t::object:
            return "an object";
        case Json::value_t::array:
            return "an array";
        case Json::value_t::null:
            return "null";
        case Json::value_t::binary:  // a pickle's bytes
            return "bytes";
        case Json::value_t::string: {
            const auto& s = value.get_ref<const std::string&>();
            if (s.size() <= kMaxShown) return value.dump();
            // Cut between characters: half a UTF-8 sequence cannot be dumped.
            size_t cut = kMaxShown;
            while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
            return Json(s.substr(0, cut)).dump() + "...";
        }
        default:
            return value.dump();
    }
}

void failExpected(const std::string& path, const std::string& expected, const Json& got) {
    throw ScenarioError(path, "expected " + expected + ", got " + describeJson(got));
}

namespace {

std::string joinAllowedKeys(std::span<const std::string_view> allowed) {
    std::string out;
    for (auto key : allowed) out += (out.empty() ? "" : ", ") + std::string(key);
    return out;
}

}  // namespace

void requireObject(const Json& value, const std::string& path, const std::string& what,
                   std::initializer_list<std::string_view> allowed) {
    requireObject(value, path, what,
                  std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

void requireObject(const Json& value, const std::string& path, const std::string& what,
                   std::span<const std::string_view> allowed) {
    if (!value.is_object()) failExpected(path, what + " (an object)", value);
    for (const auto& [key, member] : value.items()) {
        bool known = false;
        for (auto a : allowed) known = known || key == a;
        if (!known)
            throw ScenarioError(childPath(path, key),
                                "unknown key \"" + key + "\" in " + what +
                                    "; expected one of: " + joinAllowedKeys(allowed));
    }
}

const Json* findMember(const Json& object, std::string_view key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const Json& requireMember(const Json& object, const std::string& path, std::string_view key) {
    if (const Json* member = findMember(object, key)) return *member;
    throw ScenarioError(path, "missing required key \"" + std::string(key) + "\"");
}

bool isIntInRange(const Json& value, int64_t min, int64_t max) {
    if (!value.is_number_integer()) return false;
    // Unsigned values above int64's range are out of every range we accept.
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(kNoMax))
        return false;
    auto v = value.get<int64_t>();
    return v >= min && v <= max;
}

std::string describeIntRange(int64_t min, int64_t max) {
    if (max == kNoMax) return "an integer >= " + std::to_string(min);
    return "an integer in " + std::to_string(min) + ".." + std::to_string(max);
}

int64_t readInt(const Json& value, const std::string& path, int64_t min, int64_t max) {
    if (!isIntInRange(value, min, max)) failExpected(path, describeIntRange(min, max), value);
    return value.get<int64_t>();
}

std::string readString(const Json& value, const std::string& path, bool allowEmpty) {
    if (!value.is_string())
        failExpected(path, allowEmpty ? "a string" : "a non-empty string", value);
    const auto& s = value.get_ref<const std::string&>();
    if (!allowEmpty && s.empty()) failExpected(path, "a non-empty string", value);
    return s;
}

bool readBool(const Json& value, const std::string& path) {
    if (!value.is_boolean()) failExpected(path, "true or false", value);
    return value.get<bool>();
}

double readPositiveNumber(const Json& value, const std::string& path) {
    if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>()))
        failExpected(path, "a number > 0", value);
    return value.get<double>();
}

const Json& readArray(const Json& value, const std::string& path, const std::string& what) {
    if (!value.is_array()) failExpected(path, "an array of " + what, value);
    return value;
}

}  // namespace hsdp
