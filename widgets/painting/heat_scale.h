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
//
// A logarithmic scale (logarithmic()) serves loads that span decades, as a
// 131,072-rank mesh's do (one embedding owner at 65 M, thousands of ranks at
// 2-4 M): linear, all but the largest would be near white. It runs from the
// smallest load above zero to the largest and starts at ramp(kLogStart), so
// the lightest load is still clearly blue next to idle grey.
class HeatScale {
public:
    explicit HeatScale(int64_t maxValue = 0) : max_(static_cast<double>(maxValue)) {}
    static HeatScale logarithmic(double floor, double max);
    static constexpr double kLogStart = 0.3;

    int64_t maxValue() const { return static_cast<int64_t>(max_); }
    bool isLogarithmic() const { return log_; }
    QColor colorFor(int64_t value) const { return colorForValue(static_cast<double>(value)); }
    QColor colorForValue(double value) const;
    // Where `value` sits on the ramp, in [0, 1].
    double position(double value) const;
    // The value at ramp position t (the legend's labels).
    double valueAt(double t) const;
    // The ramp at t in [0, 1] (for the legend).
    static QColor ramp(double t);
    static QColor idleColor() { return QColor(0xe4, 0xe4, 0xe7); }
    // Text that reads on `background`.
    static QColor textOn(const QColor& background);

private:
    double max_;
    double floor_ = 0;
    bool log_ = false;
};

// 1234567 -> "1.23 M": numel and byte counts for labels and legends.
QString humanCount(double value);

}  // namespace hsdp
