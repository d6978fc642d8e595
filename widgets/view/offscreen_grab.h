// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QSize>
#include <functional>

class QWidget;

namespace hsdp {

// `widget` laid out at `size` and painted, never on screen: shown with
// WA_DontShowOnScreen (when it is not shown already), events processed so
// its layouts settle, `beforeGrab` run (e.g. a chart's replot), grabbed, and
// hidden again if it was. Under a VectorCapture, what it grabs is also
// painted into the capture's target as drawing commands.
QImage grabOffscreen(QWidget& widget, const QSize& size,
                     const std::function<void()>& beforeGrab = {});

}  // namespace hsdp
