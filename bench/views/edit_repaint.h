// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <string>
#include <utility>
#include <vector>

namespace hsdp::bench {

// What-if edits in the studio window (offscreen, 1600x1000) on one scenario.
struct EditFigures {
    double toRepaintMs = 0;  // median: the edit until the window has repainted the new plan
    double guiStallMs = 0;  // median over edits of the longest GUI-thread gap, the repaint included
    double peakMiB = 0;     // the process's peak resident memory once the edits are done
    // Where an edit's time goes, medians: the GUI thread's share per view
    // (MainWindow::lastShowTimes, slowest first), and, measured alone after
    // the window's rounds, the re-plan and the diff the studio runs off it.
    std::vector<std::pair<std::string, double>> showMs;
    double planMs = 0;
    double diffMs = 0;
};

EditFigures editFigures(const QString& path, int rounds);

}  // namespace hsdp::bench
