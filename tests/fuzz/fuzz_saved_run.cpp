// SPDX-License-Identifier: Apache-2.0
// openSavedRun (saved/saved_run.h), File > Open Run of the studio, on any
// pair of files: the input is the run --json result, then a NUL byte and the
// --trace file (no NUL: no trace; JSON never holds a raw NUL). It opens them
// for samples/diagnostics_tour.json: a RunResult, or a std::runtime_error
// whose message starts with the file it is about.
#include "saved/saved_run.h"
#include "saved_run_fixture.h"

using namespace hsdp;
using fuzz::finding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const fuzz::ScratchFolder scratch;
    const std::string_view input = fuzz::textOf(data, size);
    const size_t nul = input.find('\0');
    const std::string runPath = scratch.write("run.json", input.substr(0, nul));
    const std::string tracePath =
        nul == std::string_view::npos ? "" : scratch.write("trace.json", input.substr(nul + 1));
    const auto& fixture = fuzz::savedRunFixture();
    fuzz::returnsOrRefuses<std::runtime_error>(
        "openSavedRun", [&] { openSavedRun(fixture.scenario, fixture.plan, runPath, tracePath); },
        [&](const std::runtime_error& e) {
            const std::string_view message = e.what();
            if (message.rfind(runPath + ": ", 0) != 0 &&
                (tracePath.empty() || message.rfind(tracePath + ": ", 0) != 0))
                finding("an error that names neither file: " + std::string(message));
        });
    return 0;
}
