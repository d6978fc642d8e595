// SPDX-License-Identifier: Apache-2.0
#include "painting/heat_scale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace hsdp {

namespace {

// Stops of a light-to-dark ramp (after matplotlib's "PuBu" / viridis ends),
// chosen so labels stay readable on every cell.
constexpr std::array<std::array<int, 3>, 5> kStops = {{{0xf1, 0xee, 0xf6},
                                                       {0xbd, 0xc9, 0xe1},
                                                       {0x74, 0xa9, 0xcf},
                                                       {0x2b, 0x8c, 0xbe},
                                                       {0x04, 0x5a, 0x8d}}};

}  // namespace

QColor HeatScale::ramp(double t) {
    t = std::clamp(t, 0.0, 1.0) * static_cast<double>(kStops.size() - 1);
    auto i = std::min(static_cast<size_t>(t), kStops.size() - 2);
    double f = t - static_cast<double>(i);
    auto mix = [&](int c) {
        return static_cast<int>(std::lround(kStops[i][c] + f * (kStops[i + 1][c] - kStops[i][c])));
    };
    return QColor(mix(0), mix(1), mix(2));
}

HeatScale HeatScale::logarithmic(double floor, double max) {
    HeatScale scale;
    scale.max_ = max;
    scale.floor_ = std::clamp(floor, std::min(1.0, max), max);
    scale.log_ = true;
    return scale;
}

double HeatScale::position(double value) const {
    if (!log_) return max_ > 0 ? std::clamp(value / max_, 0.0, 1.0) : 0.0;
    if (max_ <= floor_ || floor_ <= 0) return 1.0;
    const double t = std::log(std::max(value, floor_) / floor_) / std::log(max_ / floor_);
    return kLogStart + (1.0 - kLogStart) * std::clamp(t, 0.0, 1.0);
}

double HeatScale::valueAt(double t) const {
    if (!log_) return max_ * t;
    if (max_ <= floor_ || floor_ <= 0) return max_;
    const double u = std::clamp((t - kLogStart) / (1.0 - kLogStart), 0.0, 1.0);
    return floor_ * std::pow(max_ / floor_, u);
}

QColor HeatScale::colorForValue(double value) const {
    if (value <= 0 || max_ <= 0) return idleColor();
    return ramp(position(value));
}

QColor HeatScale::textOn(const QColor& background) {
    return background.lightnessF() > 0.55 ? QColor(0x1f, 0x23, 0x28) : QColor(Qt::white);
}

QString humanCount(double value) {
    static const char* const units[] = {"", " k", " M", " G", " T", " P"};
    int unit = 0;
    while (std::abs(value) >= 1000.0 && unit < 5) {
        value /= 1000.0;
        ++unit;
    }
    int decimals = unit == 0 ? 0 : (value < 10 ? 2 : value < 100 ? 1 : 0);
    return QString::number(value, 'f', decimals) + QLatin1String(units[unit]);
}

}  // namespace hsdp
