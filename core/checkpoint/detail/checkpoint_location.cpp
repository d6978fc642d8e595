// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/checkpoint_location.h"

#include <algorithm>
#include <filesystem>

#include "checkpoint/checkpoint_error.h"
#include "checkpoint/detail/natural_order.h"
#include "checkpoint/detail/shard_index.h"

namespace hsdp {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// Joins like a person types it: "ckpt" + "a.safetensors" = "ckpt/a.safetensors".
std::string join(const std::string& folder, const std::string& name) {
    if (folder.empty() || folder == ".") return name;
    return folder.back() == '/' ? folder + name : folder + "/" + name;
}

std::string configBeside(const std::string& folder) {
    const std::string config = join(folder, "config.json");
    std::error_code error;
    return fs::is_regular_file(config, error) ? config : std::string();
}

// The names in `folder` (not below it) that end with `suffix`, natural order.
std::vector<std::string> namesEndingWith(const std::string& folder, const std::string& suffix) {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder.empty() ? "." : folder, error)) {
        const std::string name = entry.path().filename().string();
        std::error_code kindError;
        if (endsWith(name, suffix) && entry.is_regular_file(kindError)) names.push_back(name);
    }
    std::sort(names.begin(), names.end(), naturalLess);
    return names;
}

CheckpointLocation fromIndex(const std::string& indexPath) {
    CheckpointLocation location;
    location.indexPath = indexPath;
    const std::string folder = fs::path(indexPath).parent_path().string();
    for (const std::string& file : readShardIndex(indexPath).files)
        location.files.push_back(join(folder, file));
    location.configPath = configBeside(folder);
    return location;
}

std::string indexIn(const std::string& folder) {
    const std::string standard = join(folder, "model.safetensors.index.json");
    std::error_code error;
    if (fs::is_regular_file(standard, error)) return standard;
    const auto others = namesEndingWith(folder, ".safetensors.index.json");
    return others.size() == 1 ? join(folder, others.front()) : std::string();
}

CheckpointLocation fromFolder(const std::string& folder) {
    if (const std::string index = indexIn(folder); !index.empty()) {
        CheckpointLocation location = fromIndex(index);
        std::error_code error;
        if (fs::is_directory(join(folder, "sharded"), error))
            location.shardedFolder = join(folder, "sharded");
        return location;
    }
    CheckpointLocation location;
    for (const std::string& name : namesEndingWith(folder, ".safetensors"))
        location.files.push_back(join(folder, name));
    location.configPath = configBeside(folder);
    const std::string sharded = join(folder, "sharded");
    std::error_code error;
    if (!location.files.empty()) {
        if (fs::is_directory(sharded, error)) location.shardedFolder = sharded;
        return location;
    }
    if (fs::is_directory(sharded, error))
        for (const std::string& name : namesEndingWith(sharded, ".safetensors"))
            location.files.push_back(join(sharded, name));
    if (location.files.empty())
        throw CheckpointError(folder, "",
                              "holds no model.safetensors.index.json, no .safetensors file and "
                              "no sharded/ folder of them");
    if (const std::string config = configBeside(sharded); !config.empty())
        location.configPath = config;
    return location;
}

}  // namespace

CheckpointLocation locateCheckpoint(const std::string& path) {
    std::error_code error;
    const auto status = fs::status(path, error);
    if (error || !fs::exists(status))
        throw CheckpointError(path, "", "cannot read the checkpoint: No such file or directory");
    if (fs::is_directory(status)) return fromFolder(path);
    if (endsWith(path, ".json")) return fromIndex(path);
    CheckpointLocation location;
    location.files.push_back(path);
    location.configPath = configBeside(fs::path(path).parent_path().string());
    return location;
}

}  // namespace hsdp
