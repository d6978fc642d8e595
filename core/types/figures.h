// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hsdp {

// How every view, report and CLI text writes a run's figures, one convention
// each (docs/glossary.md "Figures"):
//   byte sizes   IEC binary units, "184.0 KiB"; exact counts "10,240 B"
//   bandwidth    NCCL-tests GB/s: 1 GB/s = 1e9 bytes/s ("0.016 GB/s")
//   times        a wall time (elapsed once) or a sum over collectives (which
//                overlap, so it can exceed the wall time), always named
//   counts       grouped thousands, "8,960"
//   collectives  one id per collective, the trace's run-wide seq: "#648"
//   shrunk runs  a run's byte figure says it is of the shrunk run and gives
//                the real-size figure beside it where it is known

std::string humanBytes(double bytes);              // "2.1 GiB", "512 B"
std::string exactBytes(int64_t bytes);             // "10,240 B"
std::string groupedCount(int64_t count);           // "8,960"
std::string bandwidthText(double bytesPerSecond);  // "0.0160 GB/s", "3350 GB/s"
std::string secondsText(double seconds);           // "2.15 s", "0.0336 s": 3 significant figures
// A predicted or short time in the unit that keeps it readable: "2.15 s",
// "41.2 ms", "812 µs", "35.0 ns" (3 significant figures); "0 s" below half a
// nanosecond.
std::string durationText(double seconds);
std::string wallTimeText(double seconds);    // "2.15 s wall"
std::string summedTimeText(double seconds);  // "7.35 s summed over collectives"
// A collective's run-wide id (TraceEvent::seq): "seq 648". Its name on its
// group is "broadcast #3 of group [2,3]".
std::string collectiveId(int64_t seq);
std::string groupRanksText(const std::vector<int>& ranks);  // "[2,3]", "[0..7]", "[0,8,16]"
// `text` padded with spaces to `columns` characters (UTF-8 counted by
// character, so "812 µs" is six wide), for text tables; longer text is kept.
std::string padRight(std::string text, size_t columns);
std::string padLeft(std::string text, size_t columns);
// How many times one figure is another: "370×", "9.5×", "0.51×" (two
// significant figures, whole numbers from 100).
std::string ratioText(double ratio);
// A fraction as a percentage: "12.3 %", "inf" (an error over nothing).
std::string percentText(double fraction);
// The same signed, for an error whose direction matters: "+12.3 %", "-4.0 %".
std::string signedPercentText(double fraction);

// A byte figure of a run: plain when the run used the real shapes, else
// "184.0 KiB in the shrunk run (≈ 9.7 GiB at real size)", or without the
// bracket when the real size is unknown.
std::string runBytesText(double runBytes, bool shrunk, std::optional<double> realBytes);

}  // namespace hsdp
