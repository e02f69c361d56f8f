// CUDA status checks for the frontier engines: every failure becomes a grb::CudaError naming
// the call that failed.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "grb/error.hpp"

namespace grb::bfs::frontier {

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw CudaError(std::string("bfs engine: ") + what + ": " + cudaGetErrorString(status));
}

/// Launch-configuration errors surface right after the launch; execution errors at the next
/// synchronization, which every engine reaches once per level.
inline void check_launch(const char* kernel) { check_cuda(cudaGetLastError(), kernel); }

/// Blocks of `block` threads covering `items` items.
inline unsigned blocks_for(std::uint64_t items, unsigned block) {
  return static_cast<unsigned>((items + block - 1) / block);
}

/// A CUDA event that owns itself (per-level timing).
class Event {
 public:
  Event() { check_cuda(cudaEventCreate(&event_), "cudaEventCreate"); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { cudaEventDestroy(event_); }
  void record() { check_cuda(cudaEventRecord(event_), "cudaEventRecord"); }
  void synchronize() { check_cuda(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
  /// Milliseconds from `start` to this event; both must have completed.
  float since(const Event& start) const {
    float milliseconds = 0;
    check_cuda(cudaEventElapsedTime(&milliseconds, start.event_, event_), "cudaEventElapsedTime");
    return milliseconds;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

/// Page-locked host memory for values read back every level (an async copy into pageable
/// memory would be staged and synchronous anyway).
template <class T>
class PinnedValue {
 public:
  PinnedValue() { check_cuda(cudaMallocHost(&value_, sizeof(T)), "cudaMallocHost"); }
  PinnedValue(const PinnedValue&) = delete;
  PinnedValue& operator=(const PinnedValue&) = delete;
  ~PinnedValue() { cudaFreeHost(value_); }
  T* get() { return value_; }
  const T& operator*() const { return *value_; }

 private:
  T* value_ = nullptr;
};

}  // namespace grb::bfs::frontier
