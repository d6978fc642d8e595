// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

class QWidget;

namespace hsdp {

// A combo box or spin box in a scrolled form takes the wheel only once the
// user has given it the keyboard (a click or Tab): otherwise the wheel that
// scrolls the form would change the value under the pointer, silently (a
// backend going from gloo to nccl as the user scrolled past it). Installed
// on such an editor, it gives the editor Qt::StrongFocus (so the wheel no
// longer focuses it) and passes an unfocused editor's wheel on to the form.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    // Guards `editor`; the guard is its child.
    static void install(QWidget* editor);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

}  // namespace hsdp
