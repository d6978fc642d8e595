// SPDX-License-Identifier: Apache-2.0
#include "view/studio_view.h"

#include <QPainter>
#include <QWidget>

#include "view/offscreen_grab.h"

namespace hsdp {

QImage StudioView::picture(const QSize& size, const QString& part) {
    (void)part;
    return grabOffscreen(*widget(), size);
}

void StudioView::paintPicture(QPaintDevice& target, const QSize& size, const QString& part) {
    QPainter painter(&target);
    painter.drawImage(0, 0, picture(size, part));
}

QSize StudioView::shownPictureSize() {
    return widget()->size();
}

void paintOnWhite(QPaintDevice& target, const QSize& size,
                  const std::function<void(QPainter&)>& paint) {
    QPainter painter(&target);
    painter.setClipRect(QRect(QPoint(0, 0), size));
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    paint(painter);
}

}  // namespace hsdp
