// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace hsdp {

// This build's version, as every program's --version prints it and the
// package carries it: the project version, and between releases where the
// commit stands ("0.1.0~414.g2bd95f0c"; packaging/version.cmake).
const char* version();

}  // namespace hsdp
