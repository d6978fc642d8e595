// SPDX-License-Identifier: Apache-2.0
#include "view/offscreen_grab.h"

#include <QApplication>
#include <QWidget>

#include "view/vector_capture.h"

namespace hsdp {

QImage grabOffscreen(QWidget& widget, const QSize& size, const std::function<void()>& beforeGrab) {
    const bool wasVisible = widget.isVisible();
    if (!wasVisible) widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    QApplication::processEvents();
    if (beforeGrab) beforeGrab();
    QImage image = widget.grab().toImage();
    VectorCapture::offer(widget);  // an SVG of this very picture, when one is asked for
    if (!wasVisible) widget.hide();
    return image;
}

}  // namespace hsdp
