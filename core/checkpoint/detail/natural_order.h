// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace hsdp {

// Orders names as people read them: runs of digits compare as numbers, so
// model.layers.2 comes before model.layers.10 (and 007 equals 7, the
// shorter spelling first); everything else compares byte by byte.
bool naturalLess(std::string_view a, std::string_view b);

}  // namespace hsdp
