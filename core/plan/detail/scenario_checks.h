// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "plan/diagnostics.h"
#include "types/scenario.h"

namespace hsdp {

// Warnings about scenarios that read fine but are probably not what was meant:
// world-ranks-unused (world ranks no mesh uses: they own nothing and idle, as
// when a mesh lists ranks 8..15 and the world size defaults to 16) and
// no-params (neither params nor TP transitions: nothing to plan or run, e.g.
// a missing "params" key).
void reportScenarioShape(const Scenario& scenario, DiagnosticSink& sink);

}  // namespace hsdp
