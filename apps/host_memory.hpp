// The host memory a long run holds: the peak of the process's resident set (what the kernel's
// out-of-memory killer looks at), reported beside the device's by `grb bench` and the algorithm
// commands.
#pragma once

#include <cstddef>

namespace grb::app {

/// The most resident memory the process has held (Linux: VmHWM) since it started or since the
/// last reset; 0 where the system does not say.
std::size_t peak_host_bytes();
/// Restarts peak_host_bytes() from the present use (Linux: /proc/self/clear_refs). Where that is
/// refused, the peak stays the one since the start.
void reset_peak_host_bytes();

}  // namespace grb::app
