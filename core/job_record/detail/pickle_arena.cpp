// SPDX-License-Identifier: Apache-2.0
#include "job_record/detail/pickle_arena.h"

#include <algorithm>

#include "job_record/job_record_error.h"
#include "job_record/pickle_reader.h"

namespace hsdp {

namespace {

std::string offsetOf(const PickleValue& value) {
    return "offset " + std::to_string(value.offset);
}

}  // namespace

size_t PickleArena::add(PickleValue value) {
    if (values_.size() >= kMaxPickleValues)
        throw JobRecordError(offsetOf(value), "the pickle builds more than " +
                                                  std::to_string(kMaxPickleValues) + " values");
    values_.push_back(std::move(value));
    return values_.size() - 1;
}

Json PickleArena::toJson(size_t root) const {
    std::vector<std::optional<Expansion>> seen(values_.size());
    measure(root, 0, seen);
    return convert(root);
}

PickleArena::Expansion PickleArena::measure(size_t index, int depth,
                                            std::vector<std::optional<Expansion>>& seen) const {
    const PickleValue& value = values_[index];
    // A container that holds itself recurses until here too.
    if (depth > kMaxJsonDepth)
        throw JobRecordError(offsetOf(value), "containers nested deeper than " +
                                                  std::to_string(kMaxJsonDepth) +
                                                  " levels (or a container that holds itself)");
    if (seen[index]) return *seen[index];
    Expansion total{1, value.text.size()};
    for (size_t item : value.items) {
        const Expansion part = measure(item, depth + 1, seen);
        total.values = std::min<uint64_t>(total.values + part.values, kMaxPickleValues + 1);
        total.bytes = std::min<uint64_t>(total.bytes + part.bytes, kMaxPickleTextBytes + 1);
    }
    if (total.values > kMaxPickleValues)
        throw JobRecordError(offsetOf(value), "the pickle expands to more than " +
                                                  std::to_string(kMaxPickleValues) +
                                                  " values (memo references repeat containers)");
    if (total.bytes > kMaxPickleTextBytes)
        throw JobRecordError(offsetOf(value), "the pickle expands to more than " +
                                                  std::to_string(kMaxPickleTextBytes) +
                                                  " bytes of text (memo references repeat it)");
    seen[index] = total;
    return total;
}

Json PickleArena::convert(size_t index) const {
    using Kind = PickleValue::Kind;
    const PickleValue& value = values_[index];
    switch (value.kind) {
        case Kind::None:
            return nullptr;
        case Kind::Bool:
            return value.flag;
        case Kind::Int:
            return value.integer;
        case Kind::Float:
            return value.real;
        case Kind::Text:
            return value.text;
        case Kind::Bytes:
            return Json::binary(std::vector<uint8_t>(value.text.begin(), value.text.end()));
        case Kind::List:
        case Kind::Tuple: {
            Json out = Json::array();
            for (size_t item : value.items) out.push_back(convert(item));
            return out;
        }
        case Kind::Dict:
            return convertDict(value);
    }
    return nullptr;
}

Json PickleArena::convertDict(const PickleValue& dict) const {
    Json out = Json::object();
    for (size_t i = 0; i + 1 < dict.items.size(); i += 2) {
        // The reader let only strings in as keys.
        const std::string& key = values_[dict.items[i]].text;
        if (out.contains(key))
            throw JobRecordError(offsetOf(dict),
                                 "the dictionary repeats the key " + Json(key).dump());
        out[key] = convert(dict.items[i + 1]);
    }
    return out;
}

}  // namespace hsdp
