// The GPU's memory as a long run sees it: the peak of what grb's device pool handed out (the
// Graph500 mode reports it per phase), and waiting for queued work before a clock is read.
// Plain C++: every function is a no-op (or 0) without CUDA or without a GPU.
#pragma once

#include <cstddef>

namespace grb::app {

/// The most bytes grb's device pool had handed out at once since the last reset.
std::size_t peak_device_bytes();
/// The bytes grb's device pool has handed out now.
std::size_t used_device_bytes();
void reset_peak_device_bytes();
/// Bytes the device has in total (0 without a GPU).
std::size_t total_device_bytes();
/// Bytes grb could still take on the device: what it has free, plus the blocks grb's pool keeps
/// for reuse (0 without a GPU).
std::size_t free_device_bytes();
/// Returns when all work queued on the GPU is done.
void synchronize_device();

}  // namespace grb::app
