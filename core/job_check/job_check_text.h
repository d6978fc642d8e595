// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "job_check/job_check.h"

namespace hsdp {

// check-job's text: a verdict line, then each divergence in one sentence, the
// one to look at first before the rest (docs/job-records.md has an example of
// each kind).
std::string jobCheckText(const JobCheck& check, const PlannedStep& step, const Scenario& scenario,
                         const Plan& plan);

// One divergence in one sentence, e.g. "rank 17 never completed all_gather
// #42 of dp_shard group [16..31]: batch 3 of group 1 (layers.12.mlp.*),
// started 1,830 s ago; ranks 16, 18–31 completed it".
std::string divergenceSentence(const JobDivergence& d, const JobCheck& check,
                               const PlannedStep& step, const Scenario& scenario, const Plan& plan);

// "16, 18–31": runs of three or more ranks joined by `dash`.
std::string rankRanges(const std::vector<int64_t>& ranks, const std::string& dash = "–");

// The params' names in a few words: "w", "layers.12.mlp.*" (a common dotted
// prefix), "a, b and 3 more".
std::string paramsSummary(const std::vector<std::string>& names);

// The names of the params collective `c` (StepSchedule::collectives) moves:
// its schedule entry's params, or its TP transition's name.
std::vector<std::string> collectiveParams(const PlannedStep& step, const Scenario& scenario,
                                          const Plan& plan, int c);

}  // namespace hsdp
