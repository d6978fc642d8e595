// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/header_json.h"

#include <cstdio>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "scenario/json_text.h"

namespace hsdp {

namespace {

using Sax = nlohmann::json_sax<nlohmann::json>;

// Builds RawHeader from SAX events. Depth 1 is the header object, 2 an
// entry, 3 an array inside an entry; `skip_` counts the open containers of
// an ignored value.
class HeaderHandler : public Sax {
public:
    RawHeader take() { return std::move(header_); }
    // The tensor whose entry is open ("" between entries), and the last one read.
    std::string openTensor() const { return depth_ >= 1 ? tensorName() : std::string(); }
    const std::string& lastCompleted() const { return lastCompleted_; }

    bool null() override { return scalar("null"); }
    bool boolean(bool) override { return scalar("a boolean"); }
    bool number_integer(number_integer_t v) override;
    bool number_unsigned(number_unsigned_t v) override;
    bool number_float(number_float_t, const string_t& text) override;
    bool string(string_t& v) override;
    bool binary(binary_t&) override { return scalar("binary data"); }
    bool start_object(std::size_t) override;
    bool start_array(std::size_t) override;
    bool key(string_t& k) override;
    bool end_object() override;
    bool end_array() override;
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override;

private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw HeaderJsonProblem{openTensor(), problem};
    }
    bool inMetadata() const { return entry_.name == "__metadata__"; }
    std::string tensorName() const { return inMetadata() ? std::string() : entry_.name; }
    bool isArrayField() const { return field_ == "shape" || field_ == "data_offsets"; }
    // A key of an entry whose value the format defines (others are ignored).
    bool isKnownField() const { return inMetadata() || field_ == "dtype" || isArrayField(); }
    bool scalar(const char* what);
    void addNumber(uint64_t value);
    void openArray();
    void finishEntry();

    RawHeader header_;
    RawHeaderEntry entry_;
    std::unordered_set<std::string> names_;
    std::unordered_set<std::string> fields_;
    std::string field_;
    std::string lastCompleted_;
    int depth_ = 0;
    int skip_ = 0;
};

bool HeaderHandler::scalar(const char* what) {
    if (skip_ > 0) return true;
    if (depth_ == 0) fail(std::string("the header is ") + what + ", not a JSON object");
    if (depth_ == 1)
        fail(inMetadata()
                 ? std::string("__metadata__ is ") + what + ", not an object of strings"
                 : std::string("expected an object {dtype, shape, data_offsets}, got ") + what);
    if (depth_ == 3) fail(field_ + ": expected integers >= 0, got " + what);
    if (inMetadata())
        fail("__metadata__: the value of \"" + field_ + "\" is " + what + ", not a string");
    if (field_ == "dtype") fail(std::string("dtype: expected a string, got ") + what);
    if (isArrayField()) fail(field_ + ": expected an array of integers >= 0, got " + what);
    return true;  // another key's value: ignored
}

bool HeaderHandler::number_integer(number_integer_t v) {
    if (skip_ == 0 && depth_ == 3 && v < 0)
        fail(field_ + ": " + std::to_string(v) + " is negative");
    if (skip_ == 0 && depth_ == 3) {
        addNumber(static_cast<uint64_t>(v));
        return true;
    }
    return scalar("a number");
}

bool HeaderHandler::number_unsigned(number_unsigned_t v) {
    if (skip_ == 0 && depth_ == 3) {
        addNumber(v);
        return true;
    }
    return scalar("a number");
}

bool HeaderHandler::number_float(number_float_t, const string_t& text) {
    if (skip_ == 0 && depth_ == 3) fail(field_ + ": " + text + " is not an integer below 2^64");
    return scalar("a number");
}

bool HeaderHandler::string(string_t& v) {
    if (skip_ == 0 && depth_ == 2) {
        if (inMetadata()) {
            header_.metadata.emplace_back(field_, std::move(v));
            return true;
        }
        if (field_ == "dtype") {
            entry_.dtype = std::move(v);
            return true;
        }
    }
    return scalar("a string");
}

void HeaderHandler::addNumber(uint64_t value) {
    auto& list = field_ == "shape" ? entry_.shape : entry_.dataOffsets;
    list->push_back(value);
}

void HeaderHandler::openArray() {
    if (field_ == "shape")
        entry_.shape.emplace();
    else
        entry_.dataOffsets.emplace();
}

bool HeaderHandler::start_object(std::size_t) {
    if (skip_ > 0 || (depth_ == 2 && !isKnownField())) {
        ++skip_;
        return true;
    }
    if (depth_ >= 2) scalar("an object");
    if (depth_ == 1) {
        fields_.clear();
        if (inMetadata()) header_.hasMetadata = true;
    }
    ++depth_;
    return true;
}

bool HeaderHandler::start_array(std::size_t) {
    if (skip_ > 0) {
        ++skip_;
        return true;
    }
    if (depth_ == 2 && !isKnownField()) {
        ++skip_;
        return true;
    }
    if (depth_ == 2 && isArrayField()) {
        openArray();
        ++depth_;
        return true;
    }
    return scalar("an array");
}

bool HeaderHandler::key(string_t& k) {
    if (skip_ > 0) return true;
    if (depth_ == 1) {
        entry_ = RawHeaderEntry{k, {}, {}, {}};
        if (!names_.insert(k).second)
            fail(k == "__metadata__" ? "__metadata__ is given twice"
                                     : "the name is given twice in the header");
        return true;
    }
    if (!fields_.insert(k).second)
        fail((inMetadata() ? "__metadata__: key \"" : "key \"") + k + "\" is given twice");
    field_ = k;
    return true;
}

bool HeaderHandler::end_object() {
    if (skip_ > 0) {
        --skip_;
        return true;
    }
    if (depth_ == 2) finishEntry();
    --depth_;
    return true;
}

bool HeaderHandler::end_array() {
    if (skip_ > 0) {
        --skip_;
        return true;
    }
    --depth_;
    return true;
}

void HeaderHandler::finishEntry() {
    if (!inMetadata()) {
        for (const auto& [present, key] :
             {std::pair{entry_.dtype.has_value(), "dtype"},
              std::pair{entry_.shape.has_value(), "shape"},
              std::pair{entry_.dataOffsets.has_value(), "data_offsets"}})
            if (!present) fail(std::string("no \"") + key + "\" in its entry");
        header_.tensors.push_back(std::move(entry_));
    }
    lastCompleted_ = header_.tensors.empty() ? std::string() : header_.tensors.back().name;
    entry_ = {};
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C:"
// prefix (a header is one line; the byte offset is what a hex dump shows).
std::string reasonOf(const std::string& what) {
    const auto colon = what.find(": ");
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

bool HeaderHandler::parse_error(std::size_t position, const std::string&,
                                const nlohmann::detail::exception& ex) {
    std::string where = "byte " + std::to_string(position > 0 ? position - 1 : 0);
    if (depth_ < 2 && !lastCompleted_.empty()) where += ", after tensor " + lastCompleted_;
    fail("the header is not valid JSON at " + where + ": " + reasonOf(ex.what()));
}

// The context of byte `offset`: the handler run over the text before it.
HeaderJsonProblem problemAt(std::string_view json, size_t offset, const std::string& problem) {
    HeaderHandler handler;
    try {
        nlohmann::json::sax_parse(json.substr(0, offset), &handler);
    } catch (const HeaderJsonProblem&) {
    }
    std::string where = problem + " at byte " + std::to_string(offset) + " of the header";
    const std::string tensor = handler.openTensor();
    if (tensor.empty() && !handler.lastCompleted().empty())
        where += ", after tensor " + handler.lastCompleted();
    return {tensor, where};
}

}  // namespace

RawHeader parseHeaderJson(std::string_view json) {
    // JSON is UTF-8 text; nlohmann stops at a NUL byte as at the end.
    if (const size_t bad = firstInvalidUtf8(json); bad != std::string_view::npos) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(json[bad]));
        throw problemAt(json, bad, std::string("invalid UTF-8 (byte ") + hex + ")");
    }
    if (const size_t nul = json.find('\0'); nul != std::string_view::npos)
        throw problemAt(json, nul, "a NUL byte (JSON text has none)");
    HeaderHandler handler;
    nlohmann::json::sax_parse(json, &handler);
    return handler.take();
}

}  // namespace hsdp
