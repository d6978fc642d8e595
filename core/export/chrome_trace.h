// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/trace.h"

namespace hsdp {

struct ChromeTraceOptions {
    // Names of the plan's parameters by index; when given, events also carry
    // "param_names" next to the indices.
    std::vector<std::string> paramNames;
    // When > 0, ranks 0..worldSize-1 all get a process, even those that ran
    // no collective; otherwise only ranks with events appear.
    int worldSize = 0;
};

// The trace in Chrome's trace-event format (loads in Perfetto and
// chrome://tracing): {"traceEvents": [...], "displayTimeUnit": "ms"}, one
// process per rank (pid = rank, named "rank N"), one complete event ("ph":
// "X", ts and dur in microseconds since the run started) per collective per
// rank, named after the op and the phase, with args {op, seq, group_ranks,
// bytes, step, group, batch, phase, mesh, mesh_dim, tp_transition, params,
// segments: [{param, offset, length, padding}]}; fields the label leaves
// unset (-1, "") are null. A compute span (isCompute: pack, unpack,
// newton_schulz, update) is a complete event of its own on its rank's track,
// category "compute". Each collective with more than one participant also
// has flow events (category "collective", id = its seq, name = its op): "s"
// on the slice of the member that started first, "f" with "bp": "e" on each
// other member's, so Perfetto and chrome://tracing draw arrows between them.
nlohmann::ordered_json traceToChromeJson(const Trace& trace,
                                         const ChromeTraceOptions& options = {});

}  // namespace hsdp
