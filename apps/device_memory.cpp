// Reads the high-water mark of the device's default memory pool, which src/cuda/memory.cu
// allocates every grb device array from (cudaMallocAsync): the peak of what grb held, not of
// what the pool kept cached.
#include "device_memory.hpp"

#include <cstdint>

#include "grb/array.hpp"
#include "grb/types.hpp"

#if GRB_WITH_CUDA
#include <cuda_runtime.h>

#include "grb/cuda/primitives/check.cuh"
#endif

namespace grb::app {

#if GRB_WITH_CUDA
namespace {
cudaMemPool_t default_pool() {
  int device = 0;
  GRB_CUDA_CHECK(cudaGetDevice(&device));
  cudaMemPool_t pool;
  GRB_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  return pool;
}
}  // namespace
#endif

std::size_t peak_device_bytes() {
#if GRB_WITH_CUDA
  if (!cuda_available()) return 0;
  std::uint64_t bytes = 0;
  GRB_CUDA_CHECK(cudaMemPoolGetAttribute(default_pool(), cudaMemPoolAttrUsedMemHigh, &bytes));
  return bytes;
#else
  return 0;
#endif
}

std::size_t used_device_bytes() {
#if GRB_WITH_CUDA
  if (!cuda_available()) return 0;
  std::uint64_t bytes = 0;
  GRB_CUDA_CHECK(cudaMemPoolGetAttribute(default_pool(), cudaMemPoolAttrUsedMemCurrent, &bytes));
  return bytes;
#else
  return 0;
#endif
}

void reset_peak_device_bytes() {
#if GRB_WITH_CUDA
  if (!cuda_available()) return;
  std::uint64_t zero = 0;  // the only value the attribute accepts: restart from current use
  GRB_CUDA_CHECK(cudaMemPoolSetAttribute(default_pool(), cudaMemPoolAttrUsedMemHigh, &zero));
#endif
}

std::size_t total_device_bytes() {
#if GRB_WITH_CUDA
  if (!cuda_available()) return 0;
  std::size_t free = 0, total = 0;
  GRB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return total;
#else
  return 0;
#endif
}

std::size_t free_device_bytes() {
#if GRB_WITH_CUDA
  if (!cuda_available()) return 0;
  std::size_t free = 0, total = 0;
  GRB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free + grb::detail::kept_device_bytes();
#else
  return 0;
#endif
}

void synchronize_device() {
#if GRB_WITH_CUDA
  if (cuda_available()) GRB_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

}  // namespace grb::app
