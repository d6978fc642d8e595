// SPDX-License-Identifier: Apache-2.0
#pragma once

// Opening samples in a studio window, shared by the window's tests.

#include <QSignalSpy>
#include <QString>

#include "samples.h"
#include "window/main_window.h"

namespace hsdp::testing {

// Opens `path` in the window and waits for its first plan.
inline bool openAndWait(MainWindow& window, const QString& path) {
    QSignalSpy ready(window.session(), &Session::planReady);
    window.openScenario(path);
    return ready.wait(20000);
}

}  // namespace hsdp::testing
