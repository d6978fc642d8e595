// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>
#include <vector>

class QWidget;

namespace hsdp {

// Which of a window's views the user last worked in: the one clicked last
// (a canvas takes no focus; a press on a dock's title bar counts for the
// view it holds), or the one the user moved the keyboard focus into (Tab,
// a shortcut). Focus Qt moves by itself, back to the window's old focus
// widget when the window is activated again or a popup closes, is not the
// user's choice and leaves it as it was. Export View… proposes it.
class ActiveViewTracker : public QObject {
    Q_OBJECT
public:
    ActiveViewTracker(std::vector<QWidget*> views, QObject* parent);

    int current() const { return current_; }  // an index of the views, -1 before any
    // The index of the view `widget` is part of (or the dock holding it), -1 if none.
    int viewOf(const QWidget* widget) const;
    // The user turned to `widget` (a dock's tab, say): its view becomes current.
    void note(const QWidget* widget);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::vector<QPointer<QWidget>> views_;
    int current_ = -1;
};

}  // namespace hsdp
