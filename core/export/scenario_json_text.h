// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "scenario/json_text.h"

namespace hsdp {

// A scenario document as people write them (the samples' style): a "leaf"
// value — a scalar, an array of scalars, or an object whose members are all
// leaves of those two kinds — stays on one line (`{"name": ..., "shape": [8192,
// 8192], ...}`, a mesh, the options); everything else opens one line per
// member, indented by two. Member order is kept, so saving an edited file
// changes only what was edited (and the layout of a hand-formatted file).
// Ends with a newline.
std::string scenarioJsonText(const Json& document);

}  // namespace hsdp
