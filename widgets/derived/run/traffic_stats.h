// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <vector>

#include "derived/run/run_steps.h"
#include "run/real_size.h"
#include "types/collective_op.h"
#include "types/scenario.h"

namespace hsdp {

// Bandwidth as NCCL-tests reports it (nccl-tests doc/PERFORMANCE.md):
//   S      the collective's size: the all-gathered / reduce-scattered /
//          all-to-all'd whole buffer (n x one rank's block), the broadcast
//          or all-reduced buffer. TraceEvent.bytes is on-wire bytes per rank
//          under Gloo's algorithm, and for every op but all_reduce the
//          participants together send exactly (n - 1) x S (ring all-gather,
//          binomial-tree broadcast, reduce-scatter, all-to-all), for the ring
//          all-reduce 2 (n - 1) x S; so S is recovered from the recorded
//          bytes, with no payload guessed from shapes.
//   t      the collective's own time: from the last participant's arrival to
//          the last finish (RunStep::runUs), not the waiting before it.
//   algbw  = S / t
//   busbw  = algbw x busBandwidthFactor (types/collective_op.h).
// Aggregates sum S, S x factor and t over the collectives of a row: that t is
// a sum over collectives, which overlap (groups run side by side), so it can
// exceed the run's wall time; wallSeconds is the row's busy wall time instead,
// the union of its collectives' [last arrival, last finish] intervals.
// Shrunk runs: every byte figure is of the shrunk shapes; the real* ones give
// them at the real shapes (run/real_size.h). Bandwidths are measured on the
// shrunk run only: a real-size run's times are not known.
double collectiveSize(const RunStep& step, const Trace& trace);  // S, bytes

struct TrafficRow {
    QString key;               // "all_gather", "main dp_shard (dim 1)", "all"
    int64_t collectives = 0;   // distinct seqs
    int64_t events = 0;        // participant events
    int64_t wireBytes = 0;     // sum of TraceEvent.bytes
    double sizeBytes = 0;      // sum of S
    double busBytes = 0;       // sum of S x factor
    double seconds = 0;        // sum of t over the collectives
    double wallSeconds = 0;    // union of the collectives' t intervals
    double realWireBytes = 0;  // wireBytes at the real shapes (shrunk runs)
    double realSizeBytes = 0;  // sizeBytes at the real shapes (shrunk runs)
    double algbw() const { return seconds > 0 ? sizeBytes / seconds : 0; }  // bytes/s
    double busbw() const { return seconds > 0 ? busBytes / seconds : 0; }
};

struct TrafficStats {
    std::vector<TrafficRow> byOp;   // in traceOpNames() order, present ops only
    std::vector<TrafficRow> byDim;  // by mesh, then mesh dim
    TrafficRow total;
    std::vector<int> slowest;  // step positions, longest t first
    bool shrunk = false;       // the real* figures are filled
};

// `real`: the run's scale to the real shapes (nullptr or unshrunk: none).
TrafficStats trafficStats(const std::vector<RunStep>& steps, const Trace& trace,
                          const Scenario* scenario, int slowestCount = 12,
                          const RealScale* real = nullptr);

}  // namespace hsdp
