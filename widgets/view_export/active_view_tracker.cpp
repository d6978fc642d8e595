// SPDX-License-Identifier: Apache-2.0
#include "view_export/active_view_tracker.h"

#include <QApplication>
#include <QDockWidget>
#include <QFocusEvent>
#include <QWidget>

namespace hsdp {

ActiveViewTracker::ActiveViewTracker(std::vector<QWidget*> views, QObject* parent)
    : QObject(parent), views_(views.begin(), views.end()) {
    // The application's filter sees a press wherever it lands, however
    // deep in a view, and on children the view makes later.
    qApp->installEventFilter(this);
}

int ActiveViewTracker::viewOf(const QWidget* widget) const {
    for (const QWidget* w = widget; w; w = w->parentWidget())
        for (size_t i = 0; i < views_.size(); ++i)
            if (views_[i] == w) return int(i);
    // A dock (its title bar): the view inside it.
    if (const auto* dock = qobject_cast<const QDockWidget*>(widget))
        for (size_t i = 0; i < views_.size(); ++i)
            if (views_[i] && dock->isAncestorOf(views_[i])) return int(i);
    return -1;
}

bool ActiveViewTracker::eventFilter(QObject* watched, QEvent* event) {
    if (!watched->isWidgetType()) return false;
    switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::ContextMenu:
            note(static_cast<QWidget*>(watched));
            break;
        case QEvent::FocusIn:
            switch (static_cast<QFocusEvent*>(event)->reason()) {
                case Qt::MouseFocusReason:
                case Qt::TabFocusReason:
                case Qt::BacktabFocusReason:
                case Qt::ShortcutFocusReason:
                    note(static_cast<QWidget*>(watched));
                    break;
                default:  // the window activated again, a popup or menu closed, the program
                    break;
            }
            break;
        default:
            break;
    }
    return false;
}

void ActiveViewTracker::note(const QWidget* widget) {
    const int view = viewOf(widget);
    if (view >= 0) current_ = view;
}

}  // namespace hsdp
