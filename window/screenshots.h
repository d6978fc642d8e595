// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace hsdp {

class MainWindow;

// What --screenshot writes of each picture: PNG (pixels), SVG (drawing
// commands), or both.
struct ScreenshotFormats {
    bool png = true;
    bool svg = false;
};
// "png", "svg", "png,svg" (either order); false with `error` naming the
// word it does not know.
bool parseScreenshotFormats(const QString& text, ScreenshotFormats* formats, QString* error);

// Renders every registered view's screenshots of `window`'s plan (ready)
// and last run into DIR (mesh.png, plan-tree.png, … and, after a run,
// verification.png, trace.png, step-N.png, …, with a job record job.png; with SVG the same names
// ending in .svg), with the window's selection, then the window itself as
// window.png / window.svg. Returns the files written; `error` is set if
// one could not be.
QStringList writeScreenshots(MainWindow& window, const QString& dir, QString* error,
                             ScreenshotFormats formats = {});

}  // namespace hsdp
