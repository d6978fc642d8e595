// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace hsdp::bench {

// run_gui_stall_ms: the longest gap in the GUI event loop while the studio
// window runs the plan of `path` for real (RunSession off the GUI thread,
// progress in the status bar, the Verification dock filled at the end), the
// median of `rounds` runs. Needs a QApplication.
double runGuiStallMs(const QString& path, int rounds);

}  // namespace hsdp::bench
