// SPDX-License-Identifier: Apache-2.0
#include "view_export/active_view_tracker.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

namespace hsdp {

ActiveViewTracker::ActiveViewTracker(std::vector<QWidget*> views, QObject* parent)
    : QObject(parent), views_(views.begin(), views.end()) {
    // The application's filter sees a press wherever it lands, however
    // deep in a view, and on children the view makes later.
    qApp->installEventFilter(this);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) { note(now); });
}

int ActiveViewTracker::viewOf(const QWidget* widget) const {
    for (; widget; widget = widget->parentWidget())
        for (size_t i = 0; i < views_.size(); ++i)
            if (views_[i] == widget) return int(i);
    return -1;
}

bool ActiveViewTracker::eventFilter(QObject* watched, QEvent* event) {
    if ((event->type() == QEvent::MouseButtonPress || event->type() == QEvent::ContextMenu) &&
        watched->isWidgetType())
        note(static_cast<QWidget*>(watched));
    return false;
}

void ActiveViewTracker::note(const QWidget* widget) {
    const int view = viewOf(widget);
    if (view >= 0) current_ = view;
}

}  // namespace hsdp
