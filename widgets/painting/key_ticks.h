// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QVector>

class QCPAxis;

namespace hsdp {

// Labels under the bars of a key axis that never run into each other: every
// label horizontal while the widest fits its slot; else one label every k
// bars (k = 1, 2, 5, 10, 20, ...), horizontal or turned upright, whichever
// keeps more labels (upright only while that does not eat the plot's height).
// Decided from the axis' pixel width, so re-fit after every layout.
class KeyTicks {
public:
    // More labels than this: plain numbers, and tick marks only where labelled.
    static constexpr int kMaxMarkedTicks = 32;

    // `period` > 0: the labels come in blocks of that many (shard coordinates
    // per replicate), and thinning keeps the same positions in every block.
    void setLabels(const QVector<double>& keys, const QStringList& labels, int period = 0);
    // Re-decides step and rotation for `axis`'s current width and installs
    // the ticker; true when that changed (the plot needs another replot).
    bool fit(QCPAxis* axis, int maxUprightHeight);

    int step() const { return step_; }
    double rotation() const { return rotation_; }

private:
    void install(QCPAxis* axis) const;

    QVector<double> keys_;
    QStringList labels_;
    int period_ = 0;
    int step_ = 0;  // 0: not installed yet
    double rotation_ = 0;
};

// The smallest of 1, 2, 5, 10, 20, 50, ... that is >= `atLeast`; with a
// period, the smallest divisor of it that is, else the period (one label a block).
int niceStep(double atLeast, int period = 0);

}  // namespace hsdp
