// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace hsdp {

// What the pickle reader does with an opcode. `Data`: it builds plain data
// and is understood. `Unsafe`: it imports or calls code (or asks the
// unpickler to), so it is refused whatever follows. `Unsupported`: a real
// opcode that builds data Flight Recorder dumps never hold (text-protocol
// numbers and strings, sets, stack juggling, out-of-band buffers).
enum class PickleOpcodeKind { Data, Unsafe, Unsupported };

struct PickleOpcode {
    uint8_t code;
    std::string_view name;  // as Python's pickletools names it
    PickleOpcodeKind kind;
};

// Every opcode of pickle protocols 0 to 5.
std::span<const PickleOpcode> pickleOpcodes();
// The opcode `code`, or nullptr when no protocol defines it.
const PickleOpcode* findPickleOpcode(uint8_t code);

}  // namespace hsdp
