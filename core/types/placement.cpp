// SPDX-License-Identifier: Apache-2.0
#include "types/placement.h"

#include <cctype>
#include <charconv>

namespace hsdp {

std::string_view reduceOpName(ReduceOp op) {
    switch (op) {
        case ReduceOp::Sum:
            return "sum";
        case ReduceOp::Avg:
            return "avg";
        case ReduceOp::Max:
            return "max";
        case ReduceOp::Min:
            return "min";
        case ReduceOp::Product:
            return "product";
    }
    return "?";
}

std::optional<ReduceOp> parseReduceOp(std::string_view text) {
    for (ReduceOp op :
         {ReduceOp::Sum, ReduceOp::Avg, ReduceOp::Max, ReduceOp::Min, ReduceOp::Product})
        if (text == reduceOpName(op)) return op;
    return std::nullopt;
}

std::string Placement::toString() const {
    switch (kind) {
        case Kind::Replicate:
            return "R";
        case Kind::Shard:
            return "S(" + std::to_string(dim) + ")";
        case Kind::StridedShard:
            return "SS(" + std::to_string(dim) + "," + std::to_string(splitFactor) + ")";
        case Kind::Partial:
            return "P(" + std::string(reduceOpName(reduceOp)) + ")";
    }
    return "?";
}

bool Placement::operator==(const Placement& other) const {
    if (kind != other.kind) return false;
    switch (kind) {
        case Kind::Replicate:
            return true;
        case Kind::Shard:
            return dim == other.dim;
        case Kind::StridedShard:
            return dim == other.dim && splitFactor == other.splitFactor;
        case Kind::Partial:
            return reduceOp == other.reduceOp;
    }
    return false;
}

namespace {

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Drops white space, except between two word characters: "S(1 0)" must not
// silently read as S(10), nor "Str ided" as a name.
std::optional<std::string> stripSpaces(std::string_view text) {
    std::string out;
    bool spaceSeen = false;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            spaceSeen = !out.empty();
            continue;
        }
        if (spaceSeen && isWordChar(out.back()) && isWordChar(c)) return std::nullopt;
        spaceSeen = false;
        out.push_back(c);
    }
    return out;
}

// Splits "Name(args)" into name and args; nullopt when the parentheses are off.
std::optional<std::pair<std::string, std::string>> splitCall(const std::string& text) {
    auto open = text.find('(');
    if (open == std::string::npos) return std::pair{text, std::string()};
    if (text.back() != ')' || text.find('(', open + 1) != std::string::npos) return std::nullopt;
    return std::pair{text.substr(0, open), text.substr(open + 1, text.size() - open - 2)};
}

std::optional<int> parseInt(std::string_view text) {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

// Removes an optional "key=" prefix when the key is one of `keys`.
std::string_view dropKeyword(std::string_view arg, std::initializer_list<std::string_view> keys) {
    for (auto key : keys) {
        if (arg.size() > key.size() && arg.substr(0, key.size()) == key && arg[key.size()] == '=')
            return arg.substr(key.size() + 1);
    }
    return arg;
}

std::vector<std::string_view> splitArgs(std::string_view args) {
    std::vector<std::string_view> out;
    if (args.empty()) return out;
    size_t start = 0;
    while (true) {
        auto comma = args.find(',', start);
        out.push_back(args.substr(start, comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

std::optional<Placement> parseShard(const std::vector<std::string_view>& args) {
    if (args.size() != 1) return std::nullopt;
    auto dim = parseInt(dropKeyword(args[0], {"dim"}));
    if (!dim) return std::nullopt;
    return Placement::shard(*dim);
}

std::optional<Placement> parseStrided(const std::vector<std::string_view>& args) {
    if (args.size() != 2) return std::nullopt;
    auto dim = parseInt(dropKeyword(args[0], {"dim"}));
    auto factor = parseInt(dropKeyword(args[1], {"sf", "split_factor"}));
    if (!dim || !factor || *factor < 1) return std::nullopt;
    return Placement::stridedShard(*dim, *factor);
}

std::optional<Placement> parsePartial(const std::vector<std::string_view>& args) {
    if (args.empty()) return Placement::partial();
    if (args.size() != 1) return std::nullopt;
    auto op = parseReduceOp(dropKeyword(args[0], {"reduce_op"}));
    if (!op) return std::nullopt;
    return Placement::partial(*op);
}

}  // namespace

std::optional<Placement> parsePlacement(std::string_view raw) {
    auto stripped = stripSpaces(raw);
    if (!stripped) return std::nullopt;
    auto call = splitCall(*stripped);
    if (!call) return std::nullopt;
    const auto& [name, argText] = *call;
    bool hasParens = raw.find('(') != std::string_view::npos;
    auto args = splitArgs(argText);
    if (name == "R") return hasParens ? std::nullopt : std::optional(Placement::replicate());
    // PyTorch prints both `Replicate()` and, for the class, `Replicate`.
    if (name == "Replicate")
        return args.empty() ? std::optional(Placement::replicate()) : std::nullopt;
    if (name == "S" || name == "Shard") return parseShard(args);
    if (name == "SS" || name == "_S" || name == "StridedShard" || name == "_StridedShard")
        return parseStrided(args);
    if (name == "P") return hasParens ? parsePartial(args) : std::optional(Placement::partial());
    if (name == "Partial")
        return hasParens ? parsePartial(args) : std::optional(Placement::partial());
    return std::nullopt;
}

std::string placementsToString(const std::vector<Placement>& placements) {
    std::string out = "[";
    for (size_t i = 0; i < placements.size(); ++i) {
        if (i) out += ", ";
        out += placements[i].toString();
    }
    return out + "]";
}

}  // namespace hsdp
