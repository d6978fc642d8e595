// SPDX-License-Identifier: Apache-2.0
#include "run_settings.h"

namespace hsdp::cli {

namespace {

const char* const kSettings[] = {"--mode",      "--timeout",      "--max-bytes",
                                 "--max-flops", "--inject-fault", "--cluster"};

FaultSpec parseFault(const std::string& text) {
    auto colon = text.find(':');
    if (colon == std::string::npos)
        throw UsageError("--inject-fault expects RANK:K (e.g. 3:5), got '" + text + "'");
    return {static_cast<int>(parseInteger("--inject-fault rank", text.substr(0, colon), 0)),
            parseInteger("--inject-fault collective", text.substr(colon + 1), 1)};
}

}  // namespace

void declareRunSettings(ArgParser& parser) {
    for (const char* name : kSettings) parser.option(name);
}

RunOptions parseRunSettings(const ArgParser& parser) {
    RunOptions options;
    std::string mode = parser.value("--mode").value_or("corrected");
    if (mode == "reference")
        options.mode = RunMode::Reference;
    else if (mode != "corrected")
        throw UsageError("--mode expects 'corrected' or 'reference', got '" + mode + "'");
    if (auto s = parser.value("--timeout"))
        options.timeout = std::chrono::milliseconds(
            static_cast<int64_t>(parseNumber("--timeout", *s, 0.001) * 1000));
    if (auto s = parser.value("--max-bytes")) options.maxBytes = parseByteSize("--max-bytes", *s);
    if (auto s = parser.value("--max-flops"))
        options.flopBudget = parseNumber("--max-flops", *s, 1);
    if (auto s = parser.value("--inject-fault")) options.fault = parseFault(*s);
    return options;
}

std::vector<std::string> runSettingsArgs(const ArgParser& parser) {
    std::vector<std::string> args;
    for (const char* name : kSettings)
        if (auto value = parser.value(name)) {
            args.push_back(name);
            args.push_back(*value);
        }
    return args;
}

}  // namespace hsdp::cli
