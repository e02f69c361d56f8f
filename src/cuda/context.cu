// The cuda side of grb::Context (grb/context.hpp): devices, streams, and the end of a context.
#include <cuda_runtime.h>

#include <string>

#include "grb/context.hpp"
#include "grb/cuda/primitives/check.cuh"
#include "grb/error.hpp"
#include "grb/types.hpp"

namespace grb::detail {

bool device_memory_used();                     // src/cuda/memory.cu
void release_stream_blocks(void* stream) noexcept;  // src/cuda/memory.cu

namespace {

/// Makes `device` current for the guard's lifetime.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) : previous_(active_device()) {
    if (device != previous_) make_device_current(device);
  }
  ~DeviceGuard() { make_device_current(previous_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_;
};

}  // namespace

int active_device() {
  if (!cuda_available()) return 0;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return device;
}

void make_device_current(int device) {
  // The device was checked when its context was made (create_stream); an error here, in a
  // scope's end, could not be thrown.
  if (cuda_available() && cudaSetDevice(device) != cudaSuccess) (void)cudaGetLastError();
}

void* create_stream(int device) {
  const int devices = [] {
    int count = 0;
    return cuda_available() && cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
  }();
  if (device < 0 || (device >= devices && device != 0))
    throw InvalidValue("Context: no device " + std::to_string(device) + " (this machine has " +
                       std::to_string(devices) + (devices == 1 ? " GPU)" : " GPUs)"));
  if (devices == 0) return nullptr;  // device 0 without a GPU: a context for cpu work
  const DeviceGuard on(device);
  cudaStream_t stream = nullptr;
  // A blocking stream: the legacy default stream orders after it, so memory freed there by an
  // object of the default context never reaches this stream's work while it runs.
  GRB_CUDA_CHECK(cudaStreamCreate(&stream));
  return stream;
}

void synchronize_context(const ContextState& context) {
  if (!device_memory_used()) return;  // grb never ran anything on a GPU: nothing to wait for
  // All of a context's work is on its stream (the legacy one included: nothing in grb uses
  // another).
  GRB_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(context.stream)));
}

ContextState::~ContextState() {
  if (!cuda_available()) return;
  const DeviceGuard on(device);
  // Every object made in this context held it and completed its queue as it went: only the
  // backend's state is left, and the stream.
  claim_stamps.reset();
  cusparse.reset();
  if (!stream) return;
  release_stream_blocks(stream);
  if (owns_stream) {
    (void)cudaStreamSynchronize(static_cast<cudaStream_t>(stream));
    (void)cudaStreamDestroy(static_cast<cudaStream_t>(stream));
    (void)cudaGetLastError();  // at exit the runtime may be gone: nothing to report
  }
}

}  // namespace grb::detail
