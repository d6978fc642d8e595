// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a timeline picture's bars end: how the tests tell that two
// timelines drawn one above the other share their time axis.

#include <QColor>
#include <QImage>
#include <QRect>
#include <algorithm>

#include "trace/trace_canvas.h"

namespace hsdp::testing {

// The x of the rightmost bar pixel (saturated: the bars' colours, not the
// grey of text and grid) in the trace canvas drawn at `area`, counted from
// its row labels; -1 - kGutter without one.
inline int rightmostBar(const QImage& picture, const QRect& area) {
    int right = -1;
    for (int y = area.top() + TraceCanvas::kHeader; y <= area.bottom(); y += 2)
        for (int x = area.left() + TraceCanvas::kGutter; x <= area.right(); ++x)
            if (QColor(picture.pixel(x, y)).saturation() > 80) right = std::max(right, x);
    return right - area.left() - TraceCanvas::kGutter;
}

}  // namespace hsdp::testing
