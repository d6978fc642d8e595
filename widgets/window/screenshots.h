#pragma once

#include <QString>
#include <QStringList>

namespace hsdp {

class MainWindow;

// Renders every view of `window` (whose plan is ready) into DIR as PNG:
// mesh.png, plan-tree.png, diagnostics.png, owner-balance.png, tensor-layout.png, window.png
// and, after a run, verification.png, with the current selection. Returns the files written;
// `error` is set if one could not be.
QStringList writeScreenshots(MainWindow& window, const QString& dir, QString* error);

}  // namespace hsdp
