// SPDX-License-Identifier: Apache-2.0
#include "job_record/detail/pickle_arena.h"

#include "job_record/job_record_error.h"
#include "job_record/pickle_reader.h"

namespace hsdp {

namespace {

std::string offsetOf(const PickleValue& value) {
    return "offset " + std::to_string(value.offset);
}

// Charges one value (and its text) to the expansion budget.
void charge(const PickleValue& value, size_t& values, size_t& bytes) {
    if (++values > kMaxPickleValues)
        throw JobRecordError(offsetOf(value), "the pickle expands to more than " +
                                                  std::to_string(kMaxPickleValues) +
                                                  " values (memo references repeat containers)");
    bytes += value.text.size();
    if (bytes > kMaxPickleTextBytes)
        throw JobRecordError(offsetOf(value), "the pickle expands to more than " +
                                                  std::to_string(kMaxPickleTextBytes) +
                                                  " bytes of text (memo references repeat it)");
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
    size_t values = 0, bytes = 0;
    return convert(root, 0, values, bytes);
}

Json PickleArena::convert(size_t index, int depth, size_t& values, size_t& bytes) const {
    using Kind = PickleValue::Kind;
    const PickleValue& value = values_[index];
    charge(value, values, bytes);
    // A container that holds itself recurses until here too.
    if (depth > kMaxJsonDepth)
        throw JobRecordError(offsetOf(value), "containers nested deeper than " +
                                                  std::to_string(kMaxJsonDepth) +
                                                  " levels (or a container that holds itself)");
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
            for (size_t item : value.items) out.push_back(convert(item, depth + 1, values, bytes));
            return out;
        }
        case Kind::Dict:
            return convertDict(value, depth, values, bytes);
    }
    return nullptr;
}

Json PickleArena::convertDict(const PickleValue& dict, int depth, size_t& values,
                              size_t& bytes) const {
    Json out = Json::object();
    for (size_t i = 0; i + 1 < dict.items.size(); i += 2) {
        // The reader let only strings in as keys.
        const std::string& key = values_[dict.items[i]].text;
        if (out.contains(key))
            throw JobRecordError(offsetOf(dict),
                                 "the dictionary repeats the key " + Json(key).dump());
        out[key] = convert(dict.items[i + 1], depth + 1, values, bytes);
    }
    return out;
}

}  // namespace hsdp
