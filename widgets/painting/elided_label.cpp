// SPDX-License-Identifier: Apache-2.0
#include "painting/elided_label.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace hsdp {

ElidedLabel::ElidedLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {
    // Never narrower than minimumSizeHint()'s few letters (an ignored policy
    // let a layout squeeze it to nothing).
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
}

QSize ElidedLabel::minimumSizeHint() const {
    // Room for a few letters and the ellipsis; the rest is the layout's to give.
    return {fontMetrics().horizontalAdvance(QStringLiteral("wwwww…")),
            QLabel::minimumSizeHint().height()};
}

bool ElidedLabel::isElided() const {
    return fontMetrics().horizontalAdvance(text()) > contentsRect().width();
}

void ElidedLabel::paintEvent(QPaintEvent* event) {
    if (!isElided()) return QLabel::paintEvent(event);
    QPainter painter(this);
    const QRect area = contentsRect();
    painter.setPen(palette().color(foregroundRole()));
    painter.drawText(area, int(alignment() | Qt::AlignVCenter),
                     fontMetrics().elidedText(text(), Qt::ElideRight, area.width()));
}

bool ElidedLabel::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty() && isElided()) {
        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), text(), this);
        return true;
    }
    return QLabel::event(event);
}

}  // namespace hsdp
