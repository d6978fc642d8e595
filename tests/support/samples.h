// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one way a test names a file of the repository's samples/ folder:
// sample("teaching_2x2.json"); sample() is the folder itself (with its "/").

#include <QString>

namespace hsdp::testing {

inline QString sample(const QString& name = QString()) {
    return QStringLiteral(HSDP_SOURCE_DIR "/samples/") + name;
}

}  // namespace hsdp::testing
