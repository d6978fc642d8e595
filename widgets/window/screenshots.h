// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace hsdp {

class MainWindow;

// Renders every registered view's screenshots of `window`'s plan (ready)
// and last run into DIR as PNG (mesh.png, plan-tree.png, … and, after a run,
// verification.png, trace.png, step-N.png, …), with the window's selection,
// then the window itself as window.png. Returns the files written; `error`
// is set if one could not be.
QStringList writeScreenshots(MainWindow& window, const QString& dir, QString* error);

}  // namespace hsdp
