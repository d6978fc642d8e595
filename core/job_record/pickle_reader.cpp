// SPDX-License-Identifier: Apache-2.0
#include "job_record/pickle_reader.h"

#include <bit>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "job_record/detail/pickle_arena.h"
#include "job_record/detail/pickle_opcodes.h"

namespace hsdp {

namespace {

using Kind = PickleValue::Kind;

std::string hexByte(uint8_t code) {
    constexpr char kDigits[] = "0123456789abcdef";
    return std::string("0x") + kDigits[code >> 4] + kDigits[code & 15];
}

std::string kindName(Kind kind) {
    switch (kind) {
        case Kind::None:
            return "None";
        case Kind::Bool:
            return "a boolean";
        case Kind::Int:
            return "an integer";
        case Kind::Float:
            return "a float";
        case Kind::Text:
            return "a string";
        case Kind::Bytes:
            return "bytes";
        case Kind::List:
            return "a list";
        case Kind::Tuple:
            return "a tuple";
        case Kind::Dict:
            return "a dict";
    }
    return "a value";
}

// The pickle virtual machine, data opcodes only: a stack of values (indices
// into the arena), the marks MARK pushed, and the memo.
class PickleMachine {
public:
    explicit PickleMachine(std::string_view bytes) : bytes_(bytes) {}

    Json run() {
        while (pos_ < bytes_.size()) {
            opcodeAt_ = pos_;
            const uint8_t code = static_cast<uint8_t>(bytes_[pos_++]);
            const PickleOpcode* opcode = findPickleOpcode(code);
            if (!opcode) fail(hexByte(code) + " is not a pickle opcode");
            checkAllowed(*opcode);
            if (code == '.') return stop();
            step(code, opcode->name);
        }
        throw JobRecordError("offset " + std::to_string(bytes_.size()),
                             "the pickle ends without STOP (a truncated file?)");
    }

private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw JobRecordError("offset " + std::to_string(opcodeAt_), problem);
    }

    void checkAllowed(const PickleOpcode& opcode) const {
        const std::string named = std::string(opcode.name) + " (" + hexByte(opcode.code) + ")";
        if (opcode.kind == PickleOpcodeKind::Unsafe)
            fail("refused opcode " + named +
                 ": it imports or calls code; a Flight Recorder dump is plain data (dicts, "
                 "lists, tuples, strings, bytes, numbers, booleans, None) and is never executed");
        if (opcode.kind == PickleOpcodeKind::Unsupported)
            fail("unsupported opcode " + named +
                 ": this reader understands only the data opcodes Flight Recorder dumps use");
    }

    // `count` bytes after the opcode, or an error naming what was cut.
    std::string_view take(size_t count, std::string_view opcode) {
        if (count > bytes_.size() - pos_)
            fail("truncated: " + std::string(opcode) + " needs " + std::to_string(count) +
                 " more bytes, the file has " + std::to_string(bytes_.size() - pos_));
        std::string_view out = bytes_.substr(pos_, count);
        pos_ += count;
        return out;
    }

    uint64_t littleEndian(size_t count, std::string_view opcode) {
        const std::string_view raw = take(count, opcode);
        uint64_t out = 0;
        for (size_t i = 0; i < count; ++i) out |= uint64_t(uint8_t(raw[i])) << (8 * i);
        return out;
    }

    size_t push(Kind kind, std::vector<size_t> items = {}) {
        PickleValue value;
        value.kind = kind;
        value.items = std::move(items);
        return push(std::move(value));
    }

    void pushInt(int64_t integer) {
        PickleValue value;
        value.kind = Kind::Int;
        value.integer = integer;
        push(std::move(value));
    }

    void pushBool(bool flag) {
        PickleValue value;
        value.kind = Kind::Bool;
        value.flag = flag;
        push(std::move(value));
    }

    size_t push(PickleValue value) {
        value.offset = opcodeAt_;
        const size_t index = arena_.add(std::move(value));
        stack_.push_back(index);
        return index;
    }

    size_t pop(std::string_view opcode) {
        if (stack_.size() <= floor())
            fail(std::string(opcode) + " needs a value on the stack, there is none" +
                 (marks_.empty() ? "" : " above the last MARK"));
        const size_t top = stack_.back();
        stack_.pop_back();
        return top;
    }

    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }

    // The values pushed since the last MARK, and that MARK popped.
    std::vector<size_t> popToMark(std::string_view opcode) {
        if (marks_.empty()) fail(std::string(opcode) + " needs a MARK before it, there is none");
        const size_t mark = marks_.back();
        marks_.pop_back();
        std::vector<size_t> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
        stack_.resize(mark);
        return items;
    }

    PickleValue& topContainer(Kind kind, std::string_view opcode) {
        if (stack_.size() <= floor())
            fail(std::string(opcode) + " needs " + kindName(kind) + " on the stack, there is none");
        PickleValue& target = arena_.at(stack_.back());
        if (target.kind != kind)
            fail(std::string(opcode) + " needs " + kindName(kind) + " on the stack, found " +
                 kindName(target.kind));
        return target;
    }

    void addPairs(size_t dict, const std::vector<size_t>& flat, std::string_view opcode) {
        if (flat.size() % 2)
            fail(std::string(opcode) + " needs key-value pairs, found an odd number of values");
        for (size_t i = 0; i < flat.size(); i += 2) {
            const Kind keyKind = arena_.at(flat[i]).kind;
            if (keyKind != Kind::Text)
                fail("a dictionary key must be a string, found " + kindName(keyKind));
        }
        auto& items = arena_.at(dict).items;
        items.insert(items.end(), flat.begin(), flat.end());
    }

    Json stop() {
        if (!marks_.empty()) fail("STOP with a MARK still open");
        if (stack_.size() != 1)
            fail("STOP needs exactly one value on the stack, found " +
                 std::to_string(stack_.size()));
        if (pos_ != bytes_.size())
            throw JobRecordError("offset " + std::to_string(pos_),
                                 std::to_string(bytes_.size() - pos_) + " bytes after STOP");
        return arena_.toJson(stack_.back());
    }

    void step(uint8_t code, std::string_view name) {
        if (stepContainer(code, name) || stepScalar(code, name) || stepMemo(code, name)) return;
        fail("opcode " + std::string(name) + " is not handled");  // every Data opcode is
    }

    bool stepContainer(uint8_t code, std::string_view name) {
        switch (code) {
            case '(':
                marks_.push_back(stack_.size());
                return true;
            case '}':
                push(Kind::Dict);
                return true;
            case ']':
                push(Kind::List);
                return true;
            case ')':
                push(Kind::Tuple);
                return true;
            case 'd': {
                const auto flat = popToMark(name);
                addPairs(push(Kind::Dict), flat, name);
                return true;
            }
            case 'l':
                push(Kind::List, popToMark(name));
                return true;
            case 't':
                push(Kind::Tuple, popToMark(name));
                return true;
            case 0x85:
            case 0x86:
            case 0x87: {
                std::vector<size_t> items(code - 0x84);
                for (size_t i = items.size(); i-- > 0;) items[i] = pop(name);
                push(Kind::Tuple, std::move(items));
                return true;
            }
            case 'a': {
                const size_t item = pop(name);
                topContainer(Kind::List, name).items.push_back(item);
                return true;
            }
            case 'e': {
                const auto items = popToMark(name);
                auto& list = topContainer(Kind::List, name).items;
                list.insert(list.end(), items.begin(), items.end());
                return true;
            }
            case 's': {
                if (stack_.size() < floor() + 3)
                    fail("SETITEM needs a dict, a key and a value on the stack");
                const size_t value = pop(name), key = pop(name);
                topContainer(Kind::Dict, name);
                addPairs(stack_.back(), {key, value}, name);
                return true;
            }
            case 'u': {
                const auto flat = popToMark(name);
                topContainer(Kind::Dict, name);
                addPairs(stack_.back(), flat, name);
                return true;
            }
        }
        return false;
    }

    bool stepScalar(uint8_t code, std::string_view name) {
        switch (code) {
            case 0x80: {
                const int protocol = uint8_t(take(1, name)[0]);
                if (protocol < 2 || protocol > 5)
                    fail("pickle protocol " + std::to_string(protocol) + ": expected 2 to 5");
                return true;
            }
            case 0x95:
                littleEndian(8, name);
                return true;  // framing only groups the bytes
            case 'N':
                push(Kind::None);
                return true;
            case 0x88:
                pushBool(true);
                return true;
            case 0x89:
                pushBool(false);
                return true;
            case 'J':
                pushInt(int64_t(int32_t(uint32_t(littleEndian(4, name)))));
                return true;
            case 'K':
                pushInt(int64_t(littleEndian(1, name)));
                return true;
            case 'M':
                pushInt(int64_t(littleEndian(2, name)));
                return true;
            case 0x8a:
                pushLong1(name);
                return true;
            case 'G': {
                const std::string_view raw = take(8, name);  // big-endian, unlike the rest
                uint64_t bits = 0;
                for (char byte : raw) bits = (bits << 8) | uint8_t(byte);
                PickleValue value;
                value.kind = Kind::Float;
                value.real = std::bit_cast<double>(bits);
                push(std::move(value));
                return true;
            }
            case 'X':
                pushText(Kind::Text, littleEndian(4, name), name);
                return true;
            case 0x8c:
                pushText(Kind::Text, littleEndian(1, name), name);
                return true;
            case 0x8d:
                pushText(Kind::Text, littleEndian(8, name), name);
                return true;
            case 'B':
                pushText(Kind::Bytes, littleEndian(4, name), name);
                return true;
            case 'C':
                pushText(Kind::Bytes, littleEndian(1, name), name);
                return true;
            case 0x8e:
                pushText(Kind::Bytes, littleEndian(8, name), name);
                return true;
        }
        return false;
    }

    // LONG1: a length byte, then that many bytes of two's complement.
    void pushLong1(std::string_view name) {
        const size_t length = littleEndian(1, name);
        if (length > 8)
            fail("LONG1 of " + std::to_string(length) +
                 " bytes: integers past 64 bits are not read");
        const std::string_view raw = take(length, name);
        uint64_t bits = 0;
        for (size_t i = 0; i < length; ++i) bits |= uint64_t(uint8_t(raw[i])) << (8 * i);
        if (length > 0 && length < 8 && (uint8_t(raw[length - 1]) & 0x80))
            bits |= ~uint64_t(0) << (8 * length);  // sign-extend
        pushInt(int64_t(bits));
    }

    void pushText(Kind kind, uint64_t length, std::string_view name) {
        const std::string_view raw = take(length, name);
        if (kind == Kind::Text) {
            const size_t bad = firstInvalidUtf8(raw);
            if (bad != std::string_view::npos)
                fail(std::string(name) + ": the string is not UTF-8 (byte " + std::to_string(bad) +
                     ")");
        }
        PickleValue value;
        value.kind = kind;
        value.text = std::string(raw);
        push(std::move(value));
    }

    bool stepMemo(uint8_t code, std::string_view name) {
        switch (code) {
            case 0x94:
                memoize(memo_.size(), name);
                return true;
            case 'q':
                memoize(littleEndian(1, name), name);
                return true;
            case 'r':
                memoize(littleEndian(4, name), name);
                return true;
            case 'h':
                recall(littleEndian(1, name), name);
                return true;
            case 'j':
                recall(littleEndian(4, name), name);
                return true;
        }
        return false;
    }

    void memoize(uint64_t slot, std::string_view name) {
        if (stack_.size() <= floor())
            fail(std::string(name) + " needs a value on the stack, there is none");
        memo_[slot] = stack_.back();
    }

    void recall(uint64_t slot, std::string_view name) {
        const auto found = memo_.find(slot);
        if (found == memo_.end())
            fail(std::string(name) + " " + std::to_string(slot) + ": nothing was memoized there");
        stack_.push_back(found->second);  // the same value: containers stay shared
    }

    std::string_view bytes_;
    size_t pos_ = 0;
    size_t opcodeAt_ = 0;
    PickleArena arena_;
    std::vector<size_t> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, size_t> memo_;
};

}  // namespace

Json readPickle(std::string_view bytes) {
    if (bytes.empty()) throw JobRecordError("", "the pickle is empty");
    return PickleMachine(bytes).run();
}

bool looksLikePickle(std::string_view bytes) {
    return bytes.size() >= 2 && uint8_t(bytes[0]) == 0x80 && uint8_t(bytes[1]) >= 2 &&
           uint8_t(bytes[1]) <= 5;
}

}  // namespace hsdp
