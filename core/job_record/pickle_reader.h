// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string_view>

#include "job_record/job_record_error.h"
#include "scenario/json_text.h"

namespace hsdp {

// Reads one pickle (protocols 2 to 5) of plain data, as PyTorch's Flight
// Recorder writes its dumps, into a Json value: a dict is an object (string
// keys, in file order), a list or a tuple an array, a str a string, bytes a
// binary value, an int an integer (up to 64 bits), a float a number, True and
// False booleans, None null. Shared values (the memo: MEMOIZE, BINPUT, BINGET)
// are read as copies.
//
// It understands only the opcodes that build such data and never imports or
// calls anything: GLOBAL, STACK_GLOBAL, REDUCE, INST, OBJ, NEWOBJ, NEWOBJ_EX,
// BUILD, EXT1/2/4, PERSID and BINPERSID are refused by name, and so is every
// other opcode it does not understand; the error (JobRecordError) names the
// opcode and its byte offset ("offset 12"). Truncated input, bytes after
// STOP, a non-string or repeated dict key, invalid UTF-8 and values past the
// limits below are errors at their offset too.
Json readPickle(std::string_view bytes);

// The most values a pickle may build, copies of memoized values included (a
// few memo references can otherwise repeat a container millions of times).
inline constexpr size_t kMaxPickleValues = size_t(1) << 21;
// The most bytes of text and bytes it may build, copies included.
inline constexpr size_t kMaxPickleTextBytes = size_t(64) << 20;

// True when `bytes` starts like a pickle (the PROTO opcode, protocol 2 to 5).
bool looksLikePickle(std::string_view bytes);

}  // namespace hsdp
