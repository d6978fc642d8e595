// SPDX-License-Identifier: Apache-2.0
// The checkpoint reader on any bytes. The input is one to eight safetensors
// files separated by "\nHSDP-NEXT-FILE\n", written as the per-rank files of
// PyTorch's storage writer (shard-0000<r>-model-…), so that the headers,
// DCP_SHARDING_INFO and the reconstruction of saved pieces across ranks are
// all reached. What holds for any input:
//   - readSafetensorsHeader on each file returns or throws CheckpointError
//     naming that file; what it returns lies within the file;
//   - readCheckpoint over the folder returns or throws CheckpointError
//     naming its culprit, and reads no more than the files hold;
//   - its scenario (on the saved mesh, or FSDP2 over dp_shard=2) is built or
//     refused with CheckpointError, and a scenario built reads back through
//     the scenario reader.
#include <filesystem>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_error.h"
#include "checkpoint/safetensors_header.h"
#include "checkpoint/scenario_from_checkpoint.h"
#include "fuzz_support.h"
#include "hf_config/model_config_error.h"
#include "scenario/reader.h"

using namespace hsdp;
using fuzz::finding;

namespace {

constexpr std::string_view kSeparator = "\nHSDP-NEXT-FILE\n";
constexpr size_t kMaxFiles = 8;

std::vector<std::string_view> filesOf(std::string_view input) {
    std::vector<std::string_view> files;
    while (files.size() + 1 < kMaxFiles) {
        const size_t at = input.find(kSeparator);
        if (at == std::string_view::npos) break;
        files.push_back(input.substr(0, at));
        input.remove_prefix(at + kSeparator.size());
    }
    files.push_back(input);
    return files;
}

std::string shardFileName(size_t index, size_t count) {
    char name[96];
    std::snprintf(name, sizeof name, "shard-%05zu-model-%05zu-of-%05zu.safetensors", index + 1,
                  index + 1, count);
    return name;
}

void checkRefusal(const char* reader, const CheckpointError& error) {
    fuzz::checkMessage(reader, error);
    if (error.file.empty() && error.tensor.empty())
        finding(std::string(reader) + " refused naming neither file nor tensor: " + error.what());
}

void checkHeader(std::string_view bytes, const std::string& name) {
    SafetensorsHeader header;
    const bool read = fuzz::returnsOrRefuses<CheckpointError>(
        "readSafetensorsHeader", [&] { header = readSafetensorsHeader(bytes, name, bytes.size()); },
        [&](const CheckpointError& e) {
            checkRefusal("readSafetensorsHeader", e);
            if (e.file != name) finding("readSafetensorsHeader named another file: " + e.file);
        });
    if (!read) return;
    if (8 + header.jsonBytes + header.dataBytes != bytes.size())
        finding("readSafetensorsHeader: header and data do not add up to the file");
    for (const SafetensorsTensor& t : header.tensors)
        if (t.dataBegin > t.dataEnd || t.dataEnd > header.dataBytes)
            finding("readSafetensorsHeader: tensor " + t.name + " outside the data section");
}

void checkScenario(const Checkpoint& checkpoint) {
    CheckpointScenarioRequest request;
    if (!checkpoint.savedSharding) request.layout = parseParallelLayout("dp_shard=2");
    CheckpointScenario scenario;
    bool built = false;
    try {
        scenario = scenarioFromCheckpoint(checkpoint, request);
        built = true;
    } catch (const CheckpointError& e) {
        checkRefusal("scenarioFromCheckpoint", e);
    } catch (const ModelConfigError& e) {
        fuzz::checkMessage("scenarioFromCheckpoint", e);
    } catch (const std::exception& e) {
        finding("scenarioFromCheckpoint threw " + fuzz::typeName(e) + ": " + e.what());
    }
    if (!built) return;
    try {
        readScenarioJson(scenario.document);
    } catch (const std::exception& e) {
        finding("a checkpoint's scenario does not read back: " + std::string(e.what()));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const fuzz::ScratchFolder scratch;
    const std::vector<std::string_view> files = filesOf(fuzz::textOf(data, size));
    const std::filesystem::path folder = scratch.path() / "checkpoint";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directory(folder);
    uint64_t total = 0;
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string name = shardFileName(i, files.size());
        checkHeader(files[i], name);
        scratch.write("checkpoint/" + name, files[i]);
        total += files[i].size();
    }
    Checkpoint checkpoint;
    DiskFileReader disk;
    const bool read = fuzz::returnsOrRefuses<CheckpointError>(
        "readCheckpoint", [&] { checkpoint = readCheckpoint(folder.string(), disk); },
        [](const CheckpointError& e) { checkRefusal("readCheckpoint", e); });
    if (disk.bytesRead() > total) finding("readCheckpoint read more than the files hold");
    if (read) checkScenario(checkpoint);
    return 0;
}
