// SPDX-License-Identifier: Apache-2.0
#include "painting/key_ticks.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

namespace hsdp {

namespace {

constexpr int kLabelGap = 6;  // pixels between neighbouring labels

double smallestKeyGap(const QVector<double>& keys) {
    double gap = 1.0;
    for (qsizetype i = 1; i < keys.size(); ++i)
        gap = i == 1 ? keys[i] - keys[i - 1] : std::min(gap, keys[i] - keys[i - 1]);
    return std::max(gap, 1e-9);
}

}  // namespace

int niceStep(double atLeast, int period) {
    if (period > 0) {
        for (int step = 1; step < period; ++step)
            if (period % step == 0 && step >= atLeast) return step;
        return period;
    }
    // An axis not laid out yet has no width: every label needs "infinitely" many bars.
    constexpr int kMost = 1000000000;
    for (int scale = 1; scale < kMost / 5; scale *= 10)
        for (int base : {1, 2, 5})
            if (base * scale >= atLeast) return base * scale;
    return kMost;
}

void KeyTicks::setLabels(const QVector<double>& keys, const QStringList& labels, int period) {
    keys_ = keys;
    labels_ = labels;
    period_ = period;
    step_ = 0;
}

bool KeyTicks::fit(QCPAxis* axis, int maxUprightHeight) {
    const QFontMetrics metrics(axis->tickLabelFont());
    int widest = 0;
    for (const QString& label : labels_)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    const double range = std::max(axis->range().size(), 1e-9);
    const double slot = axis->axisRect()->width() / range * smallestKeyGap(keys_);
    const int flat = niceStep((widest + kLabelGap) / std::max(slot, 1e-9), period_);
    const int upright = niceStep((metrics.height() + kLabelGap) / std::max(slot, 1e-9), period_);
    const bool turn = upright < flat && widest <= maxUprightHeight;
    const int step = turn ? upright : flat;
    const double rotation = turn ? -90 : 0;
    const bool changed = step != step_ || rotation != rotation_;
    step_ = step;
    rotation_ = rotation;
    if (changed) install(axis);
    return changed;
}

void KeyTicks::install(QCPAxis* axis) const {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const bool marked = labels_.size() <= kMaxMarkedTicks;
    for (qsizetype i = 0; i < labels_.size() && i < keys_.size(); ++i) {
        if ((period_ > 0 ? i % period_ : i) % step_ == 0)
            ticker->addTick(keys_[i], labels_[i]);
        else if (marked)
            ticker->addTick(keys_[i], QString());
    }
    axis->setTicker(ticker);
    axis->setTickLabelRotation(rotation_);
}

}  // namespace hsdp
