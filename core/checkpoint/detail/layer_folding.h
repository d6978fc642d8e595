// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "scenario/json_text.h"

namespace hsdp {

// One parameter to fold: its name and the members that follow "name" in its
// scenario entry (shape, dtype, placements, ...).
struct FoldEntry {
    std::string name;
    Json members;
};

// The entries as a scenario's `params`, repeated layers folded into repeat
// blocks: the first index in a name (model.layers.7.…) splits it into a
// prefix, the index and the rest; the indices of one prefix whose entries
// agree in everything but the index (their own nested indices folded the
// same way, as experts inside a layer) and follow one another become one
// block {"repeat": n, "start": first, "var": v, "params": [...]} (`start`
// left out when 0), any other index its own entries. Entries keep their
// order, a prefix's blocks standing where its first entry stood. Vars are
// i, j, k, … by depth, e for experts.
Json foldRepeatedLayers(const std::vector<FoldEntry>& entries);

// The same folding of bare names, for messages:
// "model.layers.{i}.self_attn.qkv_proj.weight (i = 0…31)".
std::vector<std::string> foldNamesForMessage(const std::vector<std::string>& names);

}  // namespace hsdp
