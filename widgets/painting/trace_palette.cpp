// SPDX-License-Identifier: Apache-2.0
#include "painting/trace_palette.h"

#include <algorithm>
#include <array>

namespace hsdp {

namespace {

// The compute kinds (pack, unpack, newton_schulz, update) in both colourings:
// muted, so the wire stands out, and never a phase's or an op's colour.
constexpr QRgb kPack = 0xc9c3a3, kUnpack = 0xa3b5c9, kNewtonSchulz = 0x8fa89a, kUpdate = 0xc4a7bd;
// The phases in Tableau 10: distinct at a glance, readable on white.
// A collective that never completed (a job's hang): dark, apart from both.
constexpr QRgb kNeverCompleted = 0x5b1a18;
constexpr std::array<QRgb, 10> kPhase{0x4c78a8, 0xf58518,      0x54a24b, 0xb279a2,        kPack,
                                      kUnpack,  kNewtonSchulz, kUpdate,  kNeverCompleted, 0x9d9d9d};
// The collectives in Tableau 10, then the compute kinds; "other" last.
constexpr std::array<QRgb, 13> kOp{0x4c78a8,      0x72b7b2, 0xf58518, 0xe45756, 0xeeca3b,
                                   0xb279a2,      0xff9da6, 0x9d755d, kPack,    kUnpack,
                                   kNewtonSchulz, kUpdate,  0xbab0ac};

}  // namespace

QColor traceCategoryColour(int category, TraceColouring colouring) {
    if (colouring == TraceColouring::Phase)
        return QColor(kPhase[static_cast<size_t>(std::clamp<int>(category, 0, kPhase.size() - 1))]);
    return QColor(kOp[static_cast<size_t>(std::clamp<int>(category, 0, kOp.size() - 1))]);
}

QColor traceFaultColour() {
    return QColor(0xd6, 0x27, 0x28);
}

QColor tracePhaseColour(const std::string& phase) {
    const auto& names = tracePhaseNames();
    auto it = std::find(names.begin(), names.end(), QString::fromStdString(phase));
    int category = static_cast<int>(it == names.end() ? names.size() - 1 : it - names.begin());
    return traceCategoryColour(category, TraceColouring::Phase);
}

}  // namespace hsdp
