// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QPalette>

namespace hsdp {

// A palette whose text is a step quieter than the window's, in any colour
// scheme: for the summary lines' explanations under a panel's headline.
inline QPalette secondaryText(QPalette palette) {
    QColor text = palette.color(QPalette::WindowText);
    text.setAlpha(170);
    palette.setColor(QPalette::WindowText, text);
    return palette;
}

}  // namespace hsdp
