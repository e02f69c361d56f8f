// Device memory for grb::detail::Array: a stream-ordered pool on the default stream.
//
// Allocations come from the device's default memory pool (cudaMallocAsync / cudaFreeAsync) with
// its release threshold raised to "never": freed blocks stay in the pool, so the temporaries an
// operation makes on every BFS level are served from memory the pool already holds and never
// reach the driver's cudaMalloc after the first level. All grb work runs on the legacy default
// stream, so a block freed by one operation is safely reused by the next.
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "grb/array.hpp"
#include "grb/cuda/check.cuh"
#include "grb/error.hpp"
#include "grb/types.hpp"

namespace grb {

bool cuda_available() {
  // Probed once: without a driver or a GPU the runtime reports an error, which means "no".
  static const bool available = [] {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return count > 0;
  }();
  return available;
}

namespace detail {

namespace {

struct PoolState {
  std::mutex mutex;
  std::vector<int> configured;    // devices whose pool has been configured
  std::vector<int> without_pool;  // devices without stream-ordered allocation support
};

PoolState& pool_state() {
  // Never destroyed: arrays freed by other static objects' destructors at exit still ask it.
  static PoolState* state = new PoolState;
  return *state;
}

/// Whether `device` allocates through its (configured) default pool.
bool uses_pool(int device) {
  PoolState& state = pool_state();
  std::lock_guard lock(state.mutex);
  for (int d : state.configured)
    if (d == device) return true;
  for (int d : state.without_pool)
    if (d == device) return false;
  int supported = 0;
  GRB_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
  if (!supported) {
    state.without_pool.push_back(device);
    return false;
  }
  cudaMemPool_t pool;
  GRB_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t keep_everything = std::numeric_limits<std::uint64_t>::max();
  GRB_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
  state.configured.push_back(device);
  return true;
}

[[noreturn]] void throw_out_of_memory(std::size_t bytes) {
  (void)cudaGetLastError();  // allocation failures are not sticky; clear the last-error slot
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    (void)cudaGetLastError();
    free = 0;
  }
  throw OutOfMemory("cuda: device allocation of " + std::to_string(bytes) + " bytes failed (" +
                        std::to_string(free) + " of " + std::to_string(total) +
                        " bytes free on the device)",
                    bytes, free);
}

}  // namespace

void* allocate_device_bytes(std::size_t bytes) {
  if (!cuda_available())
    throw BackendUnavailable("cuda: no usable GPU (or driver) for a device allocation");
  int device = 0;
  GRB_CUDA_CHECK(cudaGetDevice(&device));
  void* pointer = nullptr;
  const cudaError_t status = uses_pool(device) ? cudaMallocAsync(&pointer, bytes, cudaStream_t{0})
                                               : cudaMalloc(&pointer, bytes);
  if (status == cudaErrorMemoryAllocation) throw_out_of_memory(bytes);
  GRB_CUDA_CHECK(status);
  return pointer;
}

void free_device_bytes(void* pointer) noexcept {
  // Stream-ordered: the block returns to the pool once the work queued before it is done. A
  // failure here (the runtime already shut down at exit) cannot be reported from a destructor.
  int device = 0;
  bool pooled = cudaGetDevice(&device) == cudaSuccess;
  if (pooled) {
    PoolState& state = pool_state();
    std::lock_guard lock(state.mutex);
    pooled = false;
    for (int d : state.configured) pooled = pooled || d == device;
  }
  const cudaError_t status = pooled ? cudaFreeAsync(pointer, cudaStream_t{0}) : cudaFree(pointer);
  if (status != cudaSuccess) (void)cudaGetLastError();
}

void copy_device_bytes(void* destination, const void* source, std::size_t bytes) {
  // cudaMemcpyDefault infers the direction from unified addressing; the copy is ordered after
  // the work already queued on the default stream and finished when it returns.
  GRB_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDefault));
}

}  // namespace detail
}  // namespace grb
