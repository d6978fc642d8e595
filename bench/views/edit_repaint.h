// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace hsdp::bench {

// What-if edits in the studio window (offscreen, 1600x1000) on one scenario.
struct EditFigures {
    double toRepaintMs = 0;  // median: the edit until the window has repainted the new plan
    double guiStallMs = 0;  // median over edits of the longest GUI-thread gap, the repaint included
    double peakMiB = 0;     // the process's peak resident memory once the edits are done
};

EditFigures editFigures(const QString& path, int rounds);

}  // namespace hsdp::bench
