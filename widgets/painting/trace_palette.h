// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>

#include "derived/run/trace_timeline.h"

namespace hsdp {

// The colour of a phase or op category (tracePhaseNames / traceOpNames):
// one palette for the trace's bars, its legend and the step panel's badge.
QColor traceCategoryColour(int category, TraceColouring colouring);
QColor tracePhaseColour(const std::string& phase);
// The mark of a step whose result verification found wrong: the trace's
// bars, the step panel's badge (the red of Wrong rows' wrong rows).
QColor traceFaultColour();

}  // namespace hsdp
