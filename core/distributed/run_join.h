// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "distributed/store_folder.h"

namespace hsdp {

// What every process of one split run must agree on: the scenario's text,
// the run settings and the number of processes. Its digest (FNV-1a, 64 bits,
// hex) is how processes started apart (e.g. on two hosts) check that they
// read the same scenario before their groups meet.
struct RunCard {
    std::string scenarioText;
    std::vector<std::string> settings;  // the run options, as on the command line
    int procs = 1;
    std::string digest() const;
};

// Joins the run in `folder` as process `proc`, before any group connects.
// Process 0 opens the run: a folder an earlier run left (its digest or
// results) is refused unless `fresh`, which empties it first; then it writes
// the scenario, the settings and the digest. The others wait (up to
// `timeout`) until process 0 has opened it and no earlier run's results
// remain, and refuse a digest that is not theirs. Every refusal is a
// std::runtime_error whose message names both digests or the stale files;
// a refusing process marks itself failed so the others stop waiting.
void joinRun(const StoreFolder& folder, const RunCard& card, int proc, bool fresh,
             std::chrono::milliseconds timeout);

// The most processes a run splits into: each holds at least one of the at
// most 2^20 ranks of a world.
inline constexpr int kMaxRunProcesses = 1 << 20;

// The card process 0 wrote (for `collect`). Throws std::runtime_error naming
// run.json (or the scenario file it cannot read).
RunCard readRunCard(const StoreFolder& folder);

// Every process's share is there (up to `timeout`); throws naming the missing ones.
void waitForShares(const StoreFolder& folder, int procs, std::chrono::milliseconds timeout);

}  // namespace hsdp
