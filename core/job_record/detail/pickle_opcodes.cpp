// SPDX-License-Identifier: Apache-2.0
#include "job_record/detail/pickle_opcodes.h"

#include <array>

namespace hsdp {

namespace {

using enum PickleOpcodeKind;

// Python's Lib/pickletools.py lists the same codes and names.
constexpr std::array kOpcodes = {
    // Building data, as Flight Recorder dumps (and pickle.dumps of them) do.
    PickleOpcode{0x80, "PROTO", Data},
    PickleOpcode{0x95, "FRAME", Data},
    PickleOpcode{'.', "STOP", Data},
    PickleOpcode{'(', "MARK", Data},
    PickleOpcode{'}', "EMPTY_DICT", Data},
    PickleOpcode{'d', "DICT", Data},
    PickleOpcode{'s', "SETITEM", Data},
    PickleOpcode{'u', "SETITEMS", Data},
    PickleOpcode{']', "EMPTY_LIST", Data},
    PickleOpcode{'l', "LIST", Data},
    PickleOpcode{'a', "APPEND", Data},
    PickleOpcode{'e', "APPENDS", Data},
    PickleOpcode{')', "EMPTY_TUPLE", Data},
    PickleOpcode{'t', "TUPLE", Data},
    PickleOpcode{0x85, "TUPLE1", Data},
    PickleOpcode{0x86, "TUPLE2", Data},
    PickleOpcode{0x87, "TUPLE3", Data},
    PickleOpcode{'X', "BINUNICODE", Data},
    PickleOpcode{0x8c, "SHORT_BINUNICODE", Data},
    PickleOpcode{0x8d, "BINUNICODE8", Data},
    PickleOpcode{'B', "BINBYTES", Data},
    PickleOpcode{'C', "SHORT_BINBYTES", Data},
    PickleOpcode{0x8e, "BINBYTES8", Data},
    PickleOpcode{'J', "BININT", Data},
    PickleOpcode{'K', "BININT1", Data},
    PickleOpcode{'M', "BININT2", Data},
    PickleOpcode{0x8a, "LONG1", Data},
    PickleOpcode{'G', "BINFLOAT", Data},
    PickleOpcode{0x88, "NEWTRUE", Data},
    PickleOpcode{0x89, "NEWFALSE", Data},
    PickleOpcode{'N', "NONE", Data},
    PickleOpcode{0x94, "MEMOIZE", Data},
    PickleOpcode{'q', "BINPUT", Data},
    PickleOpcode{'r', "LONG_BINPUT", Data},
    PickleOpcode{'h', "BINGET", Data},
    PickleOpcode{'j', "LONG_BINGET", Data},
    // Importing or calling: never, whatever the file says.
    PickleOpcode{'c', "GLOBAL", Unsafe},
    PickleOpcode{0x93, "STACK_GLOBAL", Unsafe},
    PickleOpcode{'R', "REDUCE", Unsafe},
    PickleOpcode{'i', "INST", Unsafe},
    PickleOpcode{'o', "OBJ", Unsafe},
    PickleOpcode{0x81, "NEWOBJ", Unsafe},
    PickleOpcode{0x92, "NEWOBJ_EX", Unsafe},
    PickleOpcode{'b', "BUILD", Unsafe},
    PickleOpcode{0x82, "EXT1", Unsafe},
    PickleOpcode{0x83, "EXT2", Unsafe},
    PickleOpcode{0x84, "EXT4", Unsafe},
    PickleOpcode{'P', "PERSID", Unsafe},
    PickleOpcode{'Q', "BINPERSID", Unsafe},
    // Real data opcodes no dump uses.
    PickleOpcode{'I', "INT", Unsupported},
    PickleOpcode{'L', "LONG", Unsupported},
    PickleOpcode{0x8b, "LONG4", Unsupported},
    PickleOpcode{'F', "FLOAT", Unsupported},
    PickleOpcode{'S', "STRING", Unsupported},
    PickleOpcode{'T', "BINSTRING", Unsupported},
    PickleOpcode{'U', "SHORT_BINSTRING", Unsupported},
    PickleOpcode{'V', "UNICODE", Unsupported},
    PickleOpcode{'p', "PUT", Unsupported},
    PickleOpcode{'g', "GET", Unsupported},
    PickleOpcode{'0', "POP", Unsupported},
    PickleOpcode{'1', "POP_MARK", Unsupported},
    PickleOpcode{'2', "DUP", Unsupported},
    PickleOpcode{0x8f, "EMPTY_SET", Unsupported},
    PickleOpcode{0x90, "ADDITEMS", Unsupported},
    PickleOpcode{0x91, "FROZENSET", Unsupported},
    PickleOpcode{0x96, "BYTEARRAY8", Unsupported},
    PickleOpcode{0x97, "NEXT_BUFFER", Unsupported},
    PickleOpcode{0x98, "READONLY_BUFFER", Unsupported},
};

}  // namespace

std::span<const PickleOpcode> pickleOpcodes() {
    return kOpcodes;
}

const PickleOpcode* findPickleOpcode(uint8_t code) {
    for (const auto& opcode : kOpcodes)
        if (opcode.code == code) return &opcode;
    return nullptr;
}

}  // namespace hsdp
