// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>
#include <vector>

class QWidget;

namespace hsdp {

// Which of a window's views the user last worked in: the one that took the
// keyboard focus or was clicked last (a canvas takes no focus). Export
// View… proposes it.
class ActiveViewTracker : public QObject {
    Q_OBJECT
public:
    ActiveViewTracker(std::vector<QWidget*> views, QObject* parent);

    int current() const { return current_; }  // an index of the views, -1 before any
    // The index of the view `widget` is part of, -1 if none.
    int viewOf(const QWidget* widget) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void note(const QWidget* widget);

    std::vector<QPointer<QWidget>> views_;
    int current_ = -1;
};

}  // namespace hsdp
