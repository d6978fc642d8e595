// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>

namespace hsdp::bench {

// The longest time the GUI thread went without serving a 1 ms timer since
// construction: how long a user would have found the window frozen.
class GapMeter {
public:
    GapMeter() {
        tick_.setInterval(1);
        QObject::connect(&tick_, &QTimer::timeout, [this] {
            const double now = seconds();
            longest_ = std::max(longest_, now - last_);
            last_ = now;
        });
        clock_.start();
        tick_.start();
    }
    double seconds() const { return static_cast<double>(clock_.nsecsElapsed()) * 1e-9; }
    // The longest gap so far, the one still open included.
    double longest() const { return std::max(longest_, seconds() - last_); }
    double longestClosed() const { return longest_; }

private:
    QElapsedTimer clock_;
    QTimer tick_;
    double longest_ = 0, last_ = 0;
};

}  // namespace hsdp::bench
