// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLabel>

namespace hsdp {

// A one-line label that, given less room than its text needs, shows the
// text cut at the right with "…" and the whole of it as its tooltip, instead
// of clipping it mid-letter or pushing its neighbours off (two of them share
// the status bar). Its size hint is its whole text's width; it shrinks to a
// few letters and "…" at the least. text() stays the whole text.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(const QString& text, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    bool isElided() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
};

}  // namespace hsdp
