// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <stop_token>

namespace hsdp {

// Thrown by a long computation (a schedule, a memory model, a diff) whose
// caller asked it to stop: its result is no longer wanted, e.g. the studio
// has a newer plan. Nothing it made is kept.
class Stopped : public std::runtime_error {
public:
    Stopped() : std::runtime_error("stopped: the result is no longer wanted") {}
};

inline void throwIfStopped(const std::stop_token& stop) {
    if (stop.stop_requested()) throw Stopped();
}

}  // namespace hsdp
