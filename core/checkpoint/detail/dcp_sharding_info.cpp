// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/dcp_sharding_info.h"

#include <filesystem>
#include <limits>
#include <regex>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/detail/unique_key_json.h"

namespace hsdp {

namespace {

const char* const kShardingInfoKey = "DCP_SHARDING_INFO";

std::vector<int64_t> offsetsOf(const nlohmann::json& entry, const SafetensorsTensor& tensor,
                               const std::string& fileName) {
    const auto fail = [&](const std::string& problem) {
        throw CheckpointError(fileName, tensor.name,
                              std::string(kShardingInfoKey) + ": " + problem);
    };
    if (!entry.is_object() || !entry.contains("saved_offsets"))
        fail("expected {\"saved_offsets\": [...]}, got " + entry.dump());
    const auto& offsets = entry["saved_offsets"];
    if (!offsets.is_array() || offsets.size() != tensor.shape.size())
        fail("saved_offsets: expected " + std::to_string(tensor.shape.size()) +
             " integers >= 0 (one per dim of the piece), got " + offsets.dump());
    std::vector<int64_t> out;
    for (size_t d = 0; d < offsets.size(); ++d) {
        const auto& o = offsets[d];
        const int64_t room = std::numeric_limits<int64_t>::max() - tensor.shape[d];
        if (!o.is_number_unsigned() || o.get<uint64_t>() > uint64_t(room))
            fail(
                "saved_offsets: expected integers >= 0 (the piece's place in the full tensor), "
                "got " +
                offsets.dump());
        out.push_back(o.get<int64_t>());
    }
    return out;
}

}  // namespace

std::optional<std::map<std::string, std::vector<int64_t>>> readDcpShardingInfo(
    const SafetensorsHeader& header, const std::string& fileName) {
    const std::string* text = header.metadataValue(kShardingInfoKey);
    if (!text) return std::nullopt;
    nlohmann::json doc;
    try {
        doc = parseUniqueKeyJson(*text);
    } catch (const UniqueKeyJsonError& error) {
        throw CheckpointError(
            fileName, "",
            std::string("__metadata__: ") + kShardingInfoKey + error.path + ": " + error.problem);
    }
    if (!doc.is_object())
        throw CheckpointError(fileName, "",
                              std::string("__metadata__: ") + kShardingInfoKey +
                                  ": expected a JSON object of tensors, got " + doc.type_name());
    std::map<std::string, std::vector<int64_t>> info;
    for (const SafetensorsTensor& tensor : header.tensors) {
        auto entry = doc.find(tensor.name);
        if (entry == doc.end())
            throw CheckpointError(fileName, tensor.name,
                                  std::string("has no entry in ") + kShardingInfoKey +
                                      " (where does this piece sit in the full tensor?)");
        info.emplace(tensor.name, offsetsOf(*entry, tensor, fileName));
    }
    for (const auto& [name, entry] : doc.items())
        if (!info.count(name))
            throw CheckpointError(
                fileName, name,
                std::string("is in ") + kShardingInfoKey + " but not in the file's header");
    return info;
}

int64_t rankOfShardFile(const std::string& fileName) {
    static const std::regex pattern(R"(shard-(\d{5,})-model-\d+-of-\d+\.safetensors)");
    std::smatch match;
    const std::string name = std::filesystem::path(fileName).filename().string();
    if (!std::regex_match(name, match, pattern) || match[1].length() > 9) return -1;
    const int64_t index = std::stoll(match[1].str());
    return index >= 1 ? index - 1 : -1;
}

}  // namespace hsdp
