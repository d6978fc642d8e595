// SPDX-License-Identifier: Apache-2.0
// What every harness of tests/fuzz asserts about a reader, whatever the
// input: it returns a value or throws its own documented error, and that
// error names its culprit. Anything else (another exception, a crash, a
// sanitizer report, a leak, a hang) is a finding: finding() aborts, and
// libFuzzer keeps the input that did it.
#pragma once

#include <cxxabi.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

#include <nlohmann/json.hpp>

#include "scenario/json_text.h"
#include "scenario/scenario_error.h"

namespace hsdp::fuzz {

[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "\n==fuzz finding== %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

inline std::string_view textOf(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

inline std::string typeName(const std::exception& error) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> name(
        abi::__cxa_demangle(typeid(error).name(), nullptr, nullptr, &status), std::free);
    return status == 0 ? name.get() : typeid(error).name();
}

// Runs `read`: true when it returned, false when it threw `Refusal` (after
// `checkRefusal` looked at the error); any other exception is a finding.
template <class Refusal, class Read, class Check>
bool returnsOrRefuses(const char* reader, Read&& read, Check&& checkRefusal) {
    try {
        read();
        return true;
    } catch (const Refusal& error) {
        checkRefusal(error);
        return false;
    } catch (const std::exception& error) {
        finding(std::string(reader) + " threw " + typeName(error) +
                ", not its documented error: " + error.what());
    }
}

// An error's message is what the user reads: never empty.
inline void checkMessage(const char* reader, const std::exception& error) {
    if (std::string_view(error.what()).empty()) finding(std::string(reader) + ": an empty message");
}

// The JSON pointer an error names leads into the document it was read from:
// the user can find the culprit in the file ("" is the whole file).
template <class Json>
void checkPointsInto(const char* reader, const Json& document, const std::string& path,
                     const std::string& message) {
    if (path.empty()) return;
    try {
        if (document.contains(typename Json::json_pointer(path))) return;
    } catch (const nlohmann::json::exception&) {
    }
    finding(std::string(reader) + ": the error's path " + path +
            " is not in the document: " + message);
}

// The entries a list of params or TP transitions expands to, by the scenario
// format's rule (docs/scenario-format.md: a repeat block is its count times
// its entries), saturated at `cap`; 0 for what is no such list.
template <class Json>
int64_t expandedEntries(const Json& list, int64_t cap) {
    if (!list.is_array()) return 0;
    int64_t total = 0;
    for (const Json& item : list) {
        int64_t n = 1;
        if (item.is_object() && item.contains("repeat")) {
            const Json& count = item["repeat"];
            const auto inner = item.find("params") != item.end()        ? item.find("params")
                               : item.find("transitions") != item.end() ? item.find("transitions")
                                                                        : item.end();
            const int64_t each = inner == item.end() ? 0 : expandedEntries(*inner, cap);
            if (!count.is_number_integer() || count.template get<int64_t>() <= 0 || each == 0)
                n = 0;
            else
                n = count.template get<int64_t>() > cap / each
                        ? cap
                        : count.template get<int64_t>() * each;
        }
        total = std::min(cap, total + n);
    }
    return total;
}

// Most entries a harness lets a document expand to before reading it: a
// scenario of up to the format's 10,000,000 entries is valid but takes a
// fuzzer's whole memory and minutes under the sanitizers. Above this, up to
// the format's limit, the harness skips the input; the reader's refusal of
// more than the limit is still fuzzed (it comes before any expansion).
inline constexpr int64_t kFuzzedEntries = 10'000;
inline constexpr int64_t kFormatEntries = 10'000'000;

template <class Json>
bool beyondBudget(const Json& scenario) {
    if (!scenario.is_object()) return false;
    for (const char* key : {"params", "tp_transitions"}) {
        const auto list = scenario.find(key);
        if (list == scenario.end()) continue;
        const int64_t n = expandedEntries(*list, kFormatEntries + 1);
        if (n > kFuzzedEntries && n <= kFormatEntries) return true;
    }
    return false;
}

// A private folder for the files a file reader is given, removed at exit.
class ScratchFolder {
public:
    ScratchFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "hsdp-fuzz-XXXXXX");
        if (!mkdtemp(pattern.data())) finding("cannot make a scratch folder in the temp folder");
        path_ = pattern;
    }
    ~ScratchFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    // Writes `bytes` to the file `name` in the folder; returns its path.
    std::string write(const std::string& name, std::string_view bytes) const {
        const std::string path = (path_ / name).string();
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) finding("cannot write the scratch file " + path);
        return path;
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// The input as a strict JSON document, the first step of the harnesses of
// JSON formats: nullopt when the parser refused it (with a message).
inline std::optional<Json> strictJsonOf(const uint8_t* data, size_t size) {
    std::optional<Json> document;
    returnsOrRefuses<ScenarioError>(
        "parseStrictJson", [&] { document = parseStrictJson(textOf(data, size)); },
        [](const ScenarioError& e) { checkMessage("parseStrictJson", e); });
    return document;
}

// A repository file the harness reads its fixture from (a sample scenario).
inline std::string repositoryFile(const std::string& relative) {
    std::ifstream in(std::string(HSDP_SOURCE_DIR) + "/" + relative, std::ios::binary);
    if (!in) finding("cannot read " + relative + " from the repository");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace hsdp::fuzz
