// What the host waits on and reads back: an event (also for timing) and a page-locked value,
// owned and released by RAII.
#pragma once

#include <cuda_runtime.h>

#include "grb/cuda/primitives/check.cuh"
#include "grb/cuda/primitives/launch.cuh"

namespace grb::cuda::detail {

/// A CUDA event that owns itself (per-level timing, a point in a stream to wait for).
class Event {
 public:
  Event() { GRB_CUDA_CHECK(cudaEventCreate(&event_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { cudaEventDestroy(event_); }  // an error here changes nothing
  void record(cudaStream_t stream = current_stream()) {
    GRB_CUDA_CHECK(cudaEventRecord(event_, stream));
  }
  void synchronize() { GRB_CUDA_CHECK(cudaEventSynchronize(event_)); }
  /// Milliseconds from `start` to this event; both must have completed.
  float since(const Event& start) const {
    float milliseconds = 0;
    GRB_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start.event_, event_));
    return milliseconds;
  }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

/// Page-locked host memory for a value read back often (a copy into pageable memory would be
/// staged by the driver and synchronous anyway).
template <class T>
class PinnedValue {
 public:
  PinnedValue() { GRB_CUDA_CHECK(cudaMallocHost(&value_, sizeof(T))); }
  PinnedValue(const PinnedValue&) = delete;
  PinnedValue& operator=(const PinnedValue&) = delete;
  ~PinnedValue() { cudaFreeHost(value_); }
  T* get() { return value_; }
  const T& operator*() const { return *value_; }

 private:
  T* value_ = nullptr;
};

}  // namespace grb::cuda::detail
