// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/shard_index.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/detail/natural_order.h"
#include "checkpoint/detail/unique_key_json.h"
#include "scenario/input_file.h"
#include "scenario/reader.h"

namespace hsdp {

namespace {

// A file named by the index must stay in the index's folder: relative, no "..".
bool isInsideFolder(const std::string& file) {
    const std::filesystem::path p(file);
    if (file.empty() || p.is_absolute()) return false;
    return std::none_of(p.begin(), p.end(), [](const auto& part) { return part == ".."; });
}

}  // namespace

ShardIndex readShardIndex(const std::string& path) {
    const auto fail = [&](const std::string& key, const std::string& problem) {
        throw CheckpointError(path, "", (key.empty() ? "" : key + ": ") + problem);
    };
    std::string text;
    try {
        text = readInputFile(path, kMaxScenarioBytes);
    } catch (const InputFileError& error) {
        fail("", "cannot read the shard index: " + error.reason);
    }
    nlohmann::json doc;
    try {
        doc = parseUniqueKeyJson(text);
    } catch (const UniqueKeyJsonError& error) {
        fail(error.path, error.problem);
    }
    if (!doc.is_object()) fail("", "expected a JSON object (a model.safetensors.index.json)");
    ShardIndex index;
    if (doc.contains("metadata")) {
        const auto& metadata = doc["metadata"];
        if (!metadata.is_object()) fail("/metadata", "expected an object");
        if (metadata.contains("total_size")) {
            const auto& size = metadata["total_size"];
            if (!size.is_number_unsigned())
                fail("/metadata/total_size", "expected an integer >= 0, got " + size.dump());
            index.totalSize = size.get<uint64_t>();
        }
    }
    if (!doc.contains("weight_map") || !doc["weight_map"].is_object())
        fail("/weight_map", "expected an object mapping each tensor to its file");
    std::set<std::string> files;
    for (const auto& [tensor, file] : doc["weight_map"].items()) {
        if (!file.is_string() || !isInsideFolder(file.get<std::string>()))
            fail("/weight_map/" + tensor,
                 "expected the name of a file in the index's folder, got " + file.dump());
        index.weightMap.emplace(tensor, file.get<std::string>());
        files.insert(file.get<std::string>());
    }
    index.files.assign(files.begin(), files.end());
    std::sort(index.files.begin(), index.files.end(), naturalLess);
    return index;
}

}  // namespace hsdp
