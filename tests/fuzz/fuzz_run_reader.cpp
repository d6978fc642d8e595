// SPDX-License-Identifier: Apache-2.0
// runFromJson (saved/saved_run.h), the reader of `hsdp-inspect run --json`,
// on any bytes: a RunResult or a ScenarioError whose path is in the
// document. A result read writes back (runToJson) to a document that reads to
// the same result, and runMismatch judges it against a scenario without
// throwing.
#include "export/run_json.h"
#include "saved/saved_run.h"
#include "saved_run_fixture.h"
#include "scenario/json_text.h"

using namespace hsdp;
using fuzz::finding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::optional<Json> parsed = fuzz::strictJsonOf(data, size);
    if (!parsed) return 0;
    const Json& document = *parsed;
    RunResult run;
    if (!fuzz::returnsOrRefuses<ScenarioError>(
            "runFromJson", [&] { run = runFromJson(document); },
            [&](const ScenarioError& e) {
                fuzz::checkMessage("runFromJson", e);
                fuzz::checkPointsInto("runFromJson", document, e.path, e.what());
            }))
        return 0;
    const Json written = runToJson(run);
    RunResult again;
    fuzz::returnsOrRefuses<ScenarioError>(
        "runFromJson of runToJson", [&] { again = runFromJson(written); },
        [&](const ScenarioError& e) {
            finding("runToJson wrote what runFromJson refuses: " + std::string(e.what()));
        });
    if (runToJson(again) != written) finding("a run result does not read back to itself");
    const auto& fixture = fuzz::savedRunFixture();
    fuzz::returnsOrRefuses<std::exception>(
        "runMismatch", [&] { runMismatch(fixture.scenario, fixture.plan, run); },
        [](const std::exception& e) { finding(std::string("runMismatch threw: ") + e.what()); });
    return 0;
}
