// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace hsdp {

// Breaks every line longer than `width` so terminals and logs stay readable:
// after the last "; " that fits, else the last ", ", else the last space; a
// continuation line is indented 4 columns deeper than its line. A word longer
// than the width stays whole.
std::string wrapText(const std::string& text, size_t width = 100);

}  // namespace hsdp
