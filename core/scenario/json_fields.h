// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "scenario/json_text.h"

namespace hsdp {

// JSON pointer helpers (RFC 6901: "~" -> "~0", "/" -> "~1" inside a key).
std::string childPath(const std::string& path, std::string_view key);
std::string childPath(const std::string& path, size_t index);

// A short description of a value for "got ..." in messages: strings and
// numbers as written (long strings cut), containers by kind only.
std::string describeJson(const Json& value);

// Throws ScenarioError(path, "expected <expected>, got <value>").
[[noreturn]] void failExpected(const std::string& path, const std::string& expected,
                               const Json& got);

// Checks that `value` is an object whose keys are all in `allowed`; the first
// other key is an error at its own path.
void requireObject(const Json& value, const std::string& path, const std::string& what,
                   std::initializer_list<std::string_view> allowed);
void requireObject(const Json& value, const std::string& path, const std::string& what,
                   std::span<const std::string_view> allowed);

// The member `key`, or nullptr when absent.
const Json* findMember(const Json& object, std::string_view key);
// The member `key`; absent is an error at `path` (the object's path).
const Json& requireMember(const Json& object, const std::string& path, std::string_view key);

inline constexpr int64_t kNoMax = std::numeric_limits<int64_t>::max();

bool isIntInRange(const Json& value, int64_t min, int64_t max);
std::string describeIntRange(int64_t min, int64_t max);  // "an integer >= 1", "an integer in 0..7"

// Typed readers: a value of another type or out of range is an error at `path`.
int64_t readInt(const Json& value, const std::string& path, int64_t min, int64_t max = kNoMax);
std::string readString(const Json& value, const std::string& path, bool allowEmpty = false);
bool readBool(const Json& value, const std::string& path);
double readPositiveNumber(const Json& value, const std::string& path);
// `value` must be an array; `what` names its elements for the message.
const Json& readArray(const Json& value, const std::string& path, const std::string& what);

}  // namespace hsdp
