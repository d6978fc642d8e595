// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "cost/step_schedule.h"
#include "cost/step_simulation.h"

namespace hsdp {

// Ranks that share CPU cores (docs/cost-model.md, "Shared cores"): the
// engine's runs put one thread per rank on one host, so 8 ranks on 2 cores
// each get a quarter of a core while all of them are busy.

// How fast each busy rank runs when `busy` ranks (the load: computing ranks
// count 1, members of running collectives the cluster's collective member
// load) share `cores` cores, as a fraction of its speed alone:
// min(1, cores / busy); 1 when busy <= 0 or cores <= 0 (no sharing).
double sharedCoreSpeed(double busy, double cores);

// The discrete-event pass of simulateStep with processor sharing: a rank is
// busy while it computes or is in a collective that runs (a member waiting for
// the last one to arrive is not: it sleeps), and every busy item progresses at
// sharedCoreSpeed(load, cores) of its rate, the load counting each computing
// rank as 1 and each member of a running collective as `memberLoad`. `collectiveSeconds[c]` is
// collective c's time alone on the cores (its cost with every member at full
// speed); compute items take workSeconds at full speed. The result's
// collectiveSeconds are the times the collectives took in the pass (start to
// end); spans, makespan, critical path as simulateStep defines them. With
// cores >= every rank at once, the result equals simulateStep's. Throws as
// simulateStep does.
// `idleWake[c]` (optional, empty: none), collective c's idle wake-up per
// step times its steps: the pass adds idleWake[c] x the idle fraction of the
// cores, max(0, 1 - load / cores) with c's members counted, to c's time when
// it starts.
StepSimulation simulateOnSharedCores(const StepSchedule& schedule,
                                     std::vector<double> collectiveSeconds,
                                     const ComputeRates& rates, double cores, double memberLoad = 1,
                                     std::vector<double> idleWake = {});

// The idle fraction of `cores` under `load`: max(0, 1 - load / cores); 0
// without sharing.
double idleFraction(double load, double cores);

// simulateOnSharedCores when `cluster` has shared_cores, else simulateStep:
// the pass the cluster calls for, over collectiveSecondsOn(schedule, cluster).
StepSimulation simulateOn(const StepSchedule& schedule, const Cluster& cluster);

}  // namespace hsdp
