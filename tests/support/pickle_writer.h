// SPDX-License-Identifier: Apache-2.0
// Pickles written the way the dumps are: protocol 2 as PyTorch's own
// pickler writes a Flight Recorder dump (BINPUT memo, BINUNICODE, BININT*,
// LONG1, MARK ... SETITEMS), protocol 4 as Python's pickle.dumps rewrites one
// (FRAME, MEMOIZE, SHORT_BINUNICODE). Equal strings are written once and
// fetched from the memo after (BINGET), as both do; with shareEqualDicts an
// object equal to one written before is fetched too (PyTorch shares each
// stack frame's dict between the entries that show it).
//
// Json has no tuple: an object {"(tuple)": [...]} is written as a tuple, and
// plainJson() turns it into the array a JSON dump holds instead.
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace hsdp::testing {

using PickleJson = nlohmann::ordered_json;

inline PickleJson pickleTuple(PickleJson items) {
    return PickleJson{{"(tuple)", std::move(items)}};
}

inline bool isPickleTuple(const PickleJson& value) {
    return value.is_object() && value.size() == 1 && value.contains("(tuple)");
}

// The value as a JSON dump holds it: tuples as arrays.
inline PickleJson plainJson(const PickleJson& value) {
    if (isPickleTuple(value)) return plainJson(value["(tuple)"]);
    if (value.is_array() || value.is_object()) {
        PickleJson out = value;
        for (auto& [key, item] : out.items()) item = plainJson(item);
        return out;
    }
    return value;
}

class PickleWriter {
public:
    explicit PickleWriter(int protocol, bool shareEqualDicts = false)
        : protocol_(protocol), shareDicts_(shareEqualDicts) {}

    std::string write(const PickleJson& value) {
        body_.clear();
        writeValue(value);
        body_ += '.';
        std::string out = {char(0x80), char(protocol_)};
        if (protocol_ >= 4) {  // one frame: its length, then everything up to STOP
            out += char(0x95);
            out += littleEndian(body_.size(), 8);
        }
        return out + body_;
    }

private:
    static std::string littleEndian(uint64_t value, int bytes) {
        std::string out;
        for (int i = 0; i < bytes; ++i) out += char((value >> (8 * i)) & 0xff);
        return out;
    }

    void memoize() {
        if (protocol_ >= 4) {
            body_ += char(0x94);
        } else if (memo_ < 256) {
            body_ += 'q' + littleEndian(memo_, 1);
        } else {
            body_ += 'r' + littleEndian(memo_, 4);
        }
        ++memo_;
    }

    void fetch(uint64_t slot) {
        body_ += slot < 256 ? 'h' + littleEndian(slot, 1) : 'j' + littleEndian(slot, 4);
    }

    void writeString(const std::string& text) {
        if (auto found = strings_.find(text); found != strings_.end()) return fetch(found->second);
        if (protocol_ >= 4 && text.size() < 256)
            body_ += char(0x8c) + littleEndian(text.size(), 1);
        else
            body_ += 'X' + littleEndian(text.size(), 4);
        body_ += text;
        strings_[text] = memo_;
        memoize();
    }

    void writeInteger(int64_t value) {
        if (value >= 0 && value < 256) {
            body_ += 'K' + littleEndian(value, 1);
        } else if (value >= 0 && value < 65536) {
            body_ += 'M' + littleEndian(value, 2);
        } else if (value >= INT32_MIN && value <= INT32_MAX) {
            body_ += 'J' + littleEndian(uint32_t(int32_t(value)), 4);
        } else {  // LONG1: the fewest two's-complement bytes that keep the sign
            int bytes = 8;
            while (bytes > 1) {
                const int64_t shifted = value >> (8 * (bytes - 1) - 1);
                if (shifted != 0 && shifted != -1) break;
                --bytes;
            }
            body_ += char(0x8a) + littleEndian(bytes, 1) + littleEndian(uint64_t(value), bytes);
        }
    }

    void writeFloat(double value) {
        const uint64_t bits = std::bit_cast<uint64_t>(value);
        body_ += 'G';
        for (int i = 7; i >= 0; --i) body_ += char((bits >> (8 * i)) & 0xff);
    }

    void writeItems(const PickleJson& items, char batchOpcode, char singleOpcode) {
        if (items.size() == 1) {
            writeValue(items[0]);
            body_ += singleOpcode;
        } else if (!items.empty()) {
            body_ += '(';
            for (const auto& item : items) writeValue(item);
            body_ += batchOpcode;
        }
    }

    void writeObject(const PickleJson& object) {
        const std::string key = object.dump();
        if (shareDicts_)
            if (auto found = dicts_.find(key); found != dicts_.end()) return fetch(found->second);
        body_ += '}';
        const uint64_t slot = memo_;
        memoize();
        if (object.size() == 1) {
            writeString(object.begin().key());
            writeValue(object.begin().value());
            body_ += 's';
        } else if (!object.empty()) {
            body_ += '(';
            for (const auto& [name, value] : object.items()) {
                writeString(name);
                writeValue(value);
            }
            body_ += 'u';
        }
        dicts_[key] = slot;
    }

    void writeTuple(const PickleJson& items) {
        if (items.size() >= 1 && items.size() <= 3) {
            for (const auto& item : items) writeValue(item);
            body_ += char(0x84 + items.size());
        } else {
            body_ += '(';
            for (const auto& item : items) writeValue(item);
            body_ += 't';
        }
        memoize();
    }

    void writeValue(const PickleJson& value) {
        if (isPickleTuple(value)) return writeTuple(value["(tuple)"]);
        switch (value.type()) {
            case PickleJson::value_t::null:
                body_ += 'N';
                break;
            case PickleJson::value_t::boolean:
                body_ += value.get<bool>() ? char(0x88) : char(0x89);
                break;
            case PickleJson::value_t::number_integer:
            case PickleJson::value_t::number_unsigned:
                writeInteger(value.get<int64_t>());
                break;
            case PickleJson::value_t::number_float:
                writeFloat(value.get<double>());
                break;
            case PickleJson::value_t::string:
                writeString(value.get<std::string>());
                break;
            case PickleJson::value_t::array:
                body_ += ']';
                memoize();
                writeItems(value, 'e', 'a');
                break;
            case PickleJson::value_t::object:
                writeObject(value);
                break;
            default:
                break;
        }
    }

    int protocol_;
    bool shareDicts_;
    std::string body_;
    uint64_t memo_ = 0;
    std::map<std::string, uint64_t> strings_;
    std::map<std::string, uint64_t> dicts_;
};

inline std::string writePickle(const PickleJson& value, int protocol = 2,
                               bool shareEqualDicts = false) {
    return PickleWriter(protocol, shareEqualDicts).write(value);
}

}  // namespace hsdp::testing
