// SPDX-License-Identifier: Apache-2.0
// readRunCard (distributed/run_join.h), how `collect` learns what run a store
// folder holds, on any run.json: a RunCard of at least one process, or a
// std::runtime_error naming the file.
#include "distributed/run_join.h"
#include "fuzz_support.h"

using namespace hsdp;
using fuzz::finding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const fuzz::ScratchFolder scratch;
    const StoreFolder folder(scratch.path().string());
    const std::string runJson = scratch.write("run.json", fuzz::textOf(data, size));
    scratch.write("scenario.json", "{}");
    RunCard card;
    if (!fuzz::returnsOrRefuses<std::runtime_error>(
            "readRunCard", [&] { card = readRunCard(folder); },
            [&](const std::runtime_error& e) {
                if (std::string_view(e.what()).rfind(runJson + ": ", 0) != 0)
                    finding(std::string("an error that does not name run.json: ") + e.what());
            }))
        return 0;
    if (card.procs < 1) finding("a run of " + std::to_string(card.procs) + " processes");
    return 0;
}
