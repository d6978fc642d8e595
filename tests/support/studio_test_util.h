// SPDX-License-Identifier: Apache-2.0
#pragma once

// Opening samples in a studio window, shared by the window's tests.

#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QString>

#include "samples.h"
#include "window/main_window.h"

namespace hsdp::testing {

// Opens `path` in the window and waits for its first plan.
inline bool openAndWait(MainWindow& window, const QString& path) {
    QSignalSpy ready(&window, &MainWindow::planShown);
    window.openScenario(path);
    return ready.wait(20000);
}

// Waits for the prediction of the window's plan when one is being made.
inline bool predictionDone(MainWindow& window) {
    if (!window.session()->isPredicting()) return true;
    QSignalSpy predicted(window.session(), &Session::predictionReady);
    return predicted.wait(20000);
}

// The status bar's run label (its tooltip is the whole run line), or null.
inline QLabel* runStatusLabel(MainWindow& window) {
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
        if (!window.runStatusText().isEmpty() && label->toolTip() == window.runStatusText())
            return label;
    return nullptr;
}

}  // namespace hsdp::testing
