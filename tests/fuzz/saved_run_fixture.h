// SPDX-License-Identifier: Apache-2.0
// The scenario the saved-run harnesses open runs for: samples/diagnostics_tour.json
// (three meshes, TP transitions, parameters the planner rejects, plan errors,
// mismatches under --mode reference), the one scripts/fuzz runs to seed them.
#pragma once

#include "fuzz_support.h"
#include "plan/planner.h"
#include "scenario/reader.h"

namespace hsdp::fuzz {

struct SavedRunFixture {
    Scenario scenario;
    Plan plan;
};

inline const SavedRunFixture& savedRunFixture() {
    static const SavedRunFixture fixture = [] {
        SavedRunFixture f;
        f.scenario = readScenario(repositoryFile("samples/diagnostics_tour.json"));
        f.plan = makePlan(f.scenario);
        return f;
    }();
    return fixture;
}

}  // namespace hsdp::fuzz
