#include "cli_args.h"

#include <cerrno>
#include <cstdlib>

namespace hsdp::cli {

ArgParser& ArgParser::flag(const std::string& name) {
    takesValue_[name] = false;
    return *this;
}

ArgParser& ArgParser::option(const std::string& name) {
    takesValue_[name] = true;
    return *this;
}

void ArgParser::parse(const std::vector<std::string>& args) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
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

double parseNumber(const std::string& option, const std::string& text, double min) {
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(value >= min))
        throw UsageError(option + " expects a number >= " + std::to_string(min) + ", got '" + text +
                         "'");
    return value;
}

}  // namespace hsdp::cli
