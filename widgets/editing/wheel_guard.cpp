// SPDX-License-Identifier: Apache-2.0
#include "editing/wheel_guard.h"

#include <QEvent>
#include <QWidget>

namespace hsdp {

void WheelGuard::install(QWidget* editor) {
    editor->setFocusPolicy(Qt::StrongFocus);
    editor->installEventFilter(new WheelGuard(editor));
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::Wheel) return false;
    auto* editor = qobject_cast<QWidget*>(watched);
    if (!editor || editor->hasFocus()) return false;
    // Not ours: ignored, the event goes to the parent, the scrolled form.
    event->ignore();
    return true;
}

}  // namespace hsdp
