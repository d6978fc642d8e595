// SPDX-License-Identifier: Apache-2.0
// decodeShare (distributed/share_outcome.h), how `collect` and a split run's
// parent read the share.<proc> files the worker processes leave in the store
// folder (a folder other hosts write to), on any bytes: a ShareOutcome or a
// std::runtime_error. A share read encodes back to bytes that decode to it.
#include "distributed/share_outcome.h"
#include "fuzz_support.h"

using namespace hsdp;
using fuzz::finding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ShareOutcome share;
    if (!fuzz::returnsOrRefuses<std::runtime_error>(
            "decodeShare",
            [&] { share = decodeShare(std::string(reinterpret_cast<const char*>(data), size)); },
            [](const std::runtime_error& e) { fuzz::checkMessage("decodeShare", e); }))
        return 0;
    const std::string encoded = encodeShare(share);
    ShareOutcome again;
    fuzz::returnsOrRefuses<std::runtime_error>(
        "decodeShare of encodeShare", [&] { again = decodeShare(encoded); },
        [](const std::runtime_error& e) {
            finding(std::string("encodeShare wrote what decodeShare refuses: ") + e.what());
        });
    if (encodeShare(again) != encoded) finding("a share does not decode back to itself");
    return 0;
}
