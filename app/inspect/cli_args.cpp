// SPDX-License-Identifier: Apache-2.0
#include "cli_args.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

namespace hsdp::cli {

namespace {

// Out of memory, nlohmann::json's destructors still allocate (an explicit
// stack for big values), and a bad_alloc while a large plan document
// unwound aborted the tool. A reserve freed at the first failed allocation
// gives them room, so exitCodeOf reports the failure instead.
char* outOfMemoryReserve = nullptr;

void releaseReserveAndFail() {
    delete[] outOfMemoryReserve;
    outOfMemoryReserve = nullptr;
    std::set_new_handler(nullptr);
    throw std::bad_alloc();
}

}  // namespace

int exitCodeOf(const std::function<int()>& body, const std::string& help) {
    if (!outOfMemoryReserve) {
        outOfMemoryReserve = new char[size_t(32) << 20];
        std::set_new_handler(releaseReserveAndFail);
    }
    try {
        return body();
    } catch (const UsageError& error) {
        // Point at the help of the command that was given, where its options are.
        std::cerr << "hsdp-inspect: " << error.what() << "\nTry 'hsdp-inspect "
                  << (help.empty() ? "" : help + " ") << "--help'.\n";
        return 2;
    } catch (const std::bad_alloc&) {
        // A valid but enormous plan (e.g. owner loads for millions of coordinates
        // in thousands of batches): say so instead of aborting.
        std::cerr << "hsdp-inspect: out of memory; the scenario's plan is too large\n";
        return 2;
    } catch (const std::exception& error) {
        std::cerr << "hsdp-inspect: internal error: " << error.what() << "\n";
        return 2;
    }
}

ArgParser& ArgParser::flag(const std::string& name) {
    takesValue_[name] = false;
    return *this;
}

ArgParser& ArgParser::option(const std::string& name) {
    takesValue_[name] = true;
    return *this;
}

void ArgParser::parse(const std::vector<std::string>& args) {
    bool optionsEnded = false;  // after "--" every argument is a positional ("--" itself is not)
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (optionsEnded) {
            positionals_.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsEnded = true;
            continue;
        }
        // "-" is a positional: the scenario on standard input.
        if (arg.size() < 2 || arg.rfind("--", 0) != 0) {
            if (arg.size() > 1 && arg[0] == '-') throw UsageError("unknown option '" + arg + "'");
            positionals_.push_back(arg);
            continue;
        }
        auto eq = arg.find('=');
        std::string name = arg.substr(0, eq);
        auto known = takesValue_.find(name);
        if (known == takesValue_.end()) throw UsageError("unknown option '" + name + "'");
        if (!known->second) {
            if (eq != std::string::npos) throw UsageError("option '" + name + "' takes no value");
            values_[name] = "";
        } else if (eq != std::string::npos) {
            values_[name] = arg.substr(eq + 1);
        } else {
            if (i + 1 >= args.size()) throw UsageError("option '" + name + "' needs a value");
            values_[name] = args[++i];
        }
    }
}

bool ArgParser::has(const std::string& name) const {
    return values_.count(name) > 0;
}

std::optional<std::string> ArgParser::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

long long parseInteger(const std::string& option, const std::string& text, long long min) {
    errno = 0;
    char* end = nullptr;
    long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || value < min)
        throw UsageError(option + " expects an integer >= " + std::to_string(min) + ", got '" +
                         text + "'");
    return value;
}

std::string formatNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);  // 0.001, 4e+10: not 0.001000
    return text;
}

double parseNumber(const std::string& option, const std::string& text, double min) {
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value) || !(value >= min))
        throw UsageError(option + " expects a number >= " + formatNumber(min) + ", got '" + text +
                         "'");
    return value;
}

namespace {

struct ByteUnit {
    const char* name;
    double factor;
};

// Binary units as `--help` writes the default (2 GiB), decimal ones as disks do.
const ByteUnit kByteUnits[] = {
    {"", 1},
    {"B", 1},
    {"KiB", 1024.0},
    {"MiB", 1048576.0},
    {"GiB", 1073741824.0},
    {"TiB", 1099511627776.0},
    {"kB", 1e3},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
};

}  // namespace

int64_t parseByteSize(const std::string& option, const std::string& text) {
    const std::string expected =
        option +
        " expects a size in bytes such as 2GiB, 512MiB, 1e9 or 1000000 (units B, KiB, "
        "MiB, GiB, TiB, kB, MB, GB, TB), got '" +
        text + "'";
    char* end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || !std::isfinite(number) || number < 0)
        throw UsageError(expected);
    std::string unit(end);
    if (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
    for (const auto& u : kByteUnits) {
        if (unit != u.name) continue;
        const double bytes = number * u.factor;
        if (bytes < 1 || bytes > 9.0e18)
            throw UsageError(option + " expects at least 1 byte and at most 9e18, got '" + text +
                             "'");
        return static_cast<int64_t>(bytes);
    }
    throw UsageError(expected);
}

}  // namespace hsdp::cli
