// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QString>
#include <cstdint>

namespace hsdp {

// Owned numel per rank as a colour: a perceptually ordered ramp (pale to deep
// blue-violet) from 0 to the plan's largest load. Ranks owning nothing get a
// neutral grey so "idle" stands apart from "light". Tests compare painted
// pixels against colorFor(), so the view must paint exactly these colours.
class HeatScale {
public:
    explicit HeatScale(int64_t maxValue = 0) : max_(maxValue) {}

    int64_t maxValue() const { return max_; }
    QColor colorFor(int64_t value) const;
    // The ramp at t in [0, 1] (for the legend).
    static QColor ramp(double t);
    static QColor idleColor() { return QColor(0xe4, 0xe4, 0xe7); }
    // Text that reads on `background`.
    static QColor textOn(const QColor& background);

private:
    int64_t max_;
};

// 1234567 -> "1.23 M": numel and byte counts for labels and legends.
QString humanCount(double value);

}  // namespace hsdp
