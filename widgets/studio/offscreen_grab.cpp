// SPDX-License-Identifier: Apache-2.0
#include "studio/offscreen_grab.h"

#include <QApplication>
#include <QWidget>

namespace hsdp {

QImage grabOffscreen(QWidget& widget, const QSize& size, const std::function<void()>& beforeGrab) {
    const bool wasVisible = widget.isVisible();
    if (!wasVisible) widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    QApplication::processEvents();
    if (beforeGrab) beforeGrab();
    QImage image = widget.grab().toImage();
    if (!wasVisible) widget.hide();
    return image;
}

}  // namespace hsdp
