// SPDX-License-Identifier: Apache-2.0
#include "scenario/json_text.h"

#include <cstdio>
#include <unordered_set>
#include <vector>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

TextPosition textPositionOf(std::string_view text, size_t offset) {
    TextPosition pos;
    offset = std::min(offset, text.size());
    for (size_t i = 0; i < offset; ++i) {
        auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n') {
            ++pos.line;
            pos.column = 1;
        } else if ((byte & 0xC0) != 0x80) {
            ++pos.column;  // continuation bytes do not start a character
        }
    }
    return pos;
}

namespace {

// Length of the UTF-8 sequence starting at text[i], 0 when it is malformed.
size_t utf8SequenceLength(std::string_view text, size_t i) {
    auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char lead = at(i);
    if (lead < 0x80) return 1;
    size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (len == 0 || lead > 0xF4 || lead == 0xC0 || lead == 0xC1) return 0;
    if (i + len > text.size()) return 0;
    for (size_t k = 1; k < len; ++k)
        if ((at(i + k) & 0xC0) != 0x80) return 0;
    unsigned char second = at(i + 1);
    if (lead == 0xE0 && second < 0xA0) return 0;  // overlong
    if (lead == 0xED && second > 0x9F) return 0;  // UTF-16 surrogate
    if (lead == 0xF0 && second < 0x90) return 0;  // overlong
    if (lead == 0xF4 && second > 0x8F) return 0;  // above U+10FFFF
    return len;
}

std::string positionText(std::string_view text, size_t offset) {
    auto pos = textPositionOf(text, offset);
    return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

void checkUtf8(std::string_view text) {
    size_t bad = firstInvalidUtf8(text);
    if (bad == std::string_view::npos) return;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
    throw ScenarioError("", positionText(text, bad) + ": invalid UTF-8 (byte " + hex +
                                "); a scenario file must be UTF-8 text");
}

// nlohmann's lexer ends the input at a NUL byte, so a document followed by a
// NUL and anything at all would be accepted, and a NUL inside reads as a
// premature end. JSON text never holds a raw NUL (strings must escape it).
void checkNoNul(std::string_view text) {
    size_t nul = text.find('\0');
    if (nul == std::string_view::npos) return;
    throw ScenarioError("", positionText(text, nul) +
                                ": NUL byte (0x00); a scenario file must be JSON text (a NUL "
                                "inside a string is written \\u0000)");
}

// nlohmann's message without its "[json.exception...] parse error at ...:" prefix,
// whose column counts bytes; we report our own position instead.
std::string libraryReason(const std::string& what) {
    auto colon = what.find(": ");
    auto prefixEnd = what.find("] ");
    if (what.find("parse error") != std::string::npos && colon != std::string::npos)
        return what.substr(colon + 2);
    if (prefixEnd != std::string::npos) return what.substr(prefixEnd + 2);
    return what;
}

// Builds the document like nlohmann's DOM parser, but tracks the JSON pointer
// of every open container so a duplicate key can be reported where it is.
class StrictDomBuilder : public nlohmann::json_sax<Json> {
public:
    explicit StrictDomBuilder(std::string_view text) : text_(text) {}
    Json take() { return std::move(root_); }

    bool null() override { return place(Json(nullptr)); }
    bool boolean(bool v) override { return place(Json(v)); }
    bool number_integer(number_integer_t v) override { return place(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return place(Json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return place(Json(v)); }
    bool string(string_t& v) override { return place(Json(std::move(v))); }
    bool binary(binary_t& v) override { return place(Json::binary(std::move(v))); }
    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override;
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override;

private:
    struct Frame {
        Json* node;
        std::string path;
        std::unordered_set<std::string> keys;  // objects only
    };
    bool place(Json&& value) { return placeAt(std::move(value)) != nullptr; }
    Json* placeAt(Json&& value);
    bool open(Json&& container);
    bool close() {
        stack_.pop_back();
        return true;
    }
    std::string childPathOfNext() const;

    std::string_view text_;
    Json root_;
    std::vector<Frame> stack_;
    std::string key_;
};

std::string StrictDomBuilder::childPathOfNext() const {
    if (stack_.empty()) return "";
    const Frame& top = stack_.back();
    if (top.node->is_array()) return childPath(top.path, top.node->size());
    return childPath(top.path, key_);
}

Json* StrictDomBuilder::placeAt(Json&& value) {
    if (stack_.empty()) {
        root_ = std::move(value);
        return &root_;
    }
    Json& parent = *stack_.back().node;
    if (parent.is_array()) {
        parent.push_back(std::move(value));
        return &parent.back();
    }
    // key() saw that the key is new here: append it. An ordered object's
    // operator[] searches every key first, quadratic in an object's size.
    auto& members = static_cast<Json::object_t::Container&>(parent.get_ref<Json::object_t&>());
    members.emplace_back(key_, std::move(value));
    return &members.back().second;
}

bool StrictDomBuilder::open(Json&& container) {
    std::string path = childPathOfNext();
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth)
        throw ScenarioError(path, "nesting deeper than " + std::to_string(kMaxJsonDepth) +
                                      " levels of arrays and objects");
    Json* node = placeAt(std::move(container));
    stack_.push_back(Frame{node, std::move(path), {}});
    return true;
}

bool StrictDomBuilder::key(string_t& k) {
    Frame& top = stack_.back();
    if (!top.keys.insert(k).second)
        throw ScenarioError(childPath(top.path, k),
                            "duplicate key \"" + k + "\" (each key may appear once per object)");
    key_ = k;
    return true;
}

bool StrictDomBuilder::parse_error(std::size_t position, const std::string&,
                                   const nlohmann::detail::exception& ex) {
    // nlohmann counts `position` 1-based: the byte it stopped at is position - 1.
    size_t offset = position > 0 ? position - 1 : 0;
    throw ScenarioError(
        "", positionText(text_, offset) + ": invalid JSON: " + libraryReason(ex.what()));
}

}  // namespace

size_t firstInvalidUtf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        size_t len = utf8SequenceLength(text, i);
        if (len == 0) return i;
        i += len;
    }
    return std::string_view::npos;
}

Json parseStrictJson(std::string_view text) {
    // One UTF-8 byte order mark is accepted (editors on Windows write it) and not
    // counted: editors do not show it, so positions start after it.
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
    if (text.substr(0, kBom.size()) == kBom)
        throw ScenarioError("", "line 1, column 1: a second byte order mark; expected JSON text");
    checkUtf8(text);
    checkNoNul(text);
    StrictDomBuilder builder(text);
    bool ok = Json::sax_parse(text, &builder, Json::input_format_t::json, /*strict=*/true,
                              /*ignore_comments=*/false);
    if (!ok)
        throw ScenarioError("", "invalid JSON");  // every handler throws first; kept as a guard
    return builder.take();
}

}  // namespace hsdp
