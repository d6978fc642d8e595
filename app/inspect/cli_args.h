// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hsdp::cli {

// A usage error: the message names the offending argument. Exit code 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Runs `body` and returns its exit code, or 2 when it throws: a UsageError
// prints "hsdp-inspect: MESSAGE" and points at `hsdp-inspect HELP --help`
// (the tool's help when `help` is empty); running out of memory and any other
// exception are said as such. Both hsdp-inspect and hsdp-inspect-report.
int exitCodeOf(const std::function<int()>& body, const std::string& help);

// Declarative option parsing for one subcommand: flags (`--json`), options
// with a value (`--mode reference` or `--mode=reference`) and positionals.
// "--" ends the options; "-" is a positional (standard input).
class ArgParser {
public:
    ArgParser& flag(const std::string& name);
    ArgParser& option(const std::string& name);
    void parse(const std::vector<std::string>& args);  // throws UsageError

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    const std::vector<std::string>& positionals() const { return positionals_; }

private:
    std::map<std::string, bool> takesValue_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positionals_;
};

// Strict number parsing that names the option in its error.
long long parseInteger(const std::string& option, const std::string& text, long long min);
double parseNumber(const std::string& option, const std::string& text, double min);
// A byte count with an optional unit: "2GiB", "2 GiB", "512MiB", "1e9", "1GB".
int64_t parseByteSize(const std::string& option, const std::string& text);
// Shortest readable form of a number in messages: 0.001, 4e+10.
std::string formatNumber(double value);

}  // namespace hsdp::cli
