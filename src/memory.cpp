// Host side of grb::detail::Array: aligned host allocations, and copies between backends
// (device copies are delegated to src/cuda, or refused when grb was built without CUDA).
#include <cstring>
#include <new>
#include <string>

#include "grb/array.hpp"

namespace grb::detail {

// Defined in src/cuda/memory.cu, or in src/no_cuda.cpp as throwing stubs.
void* allocate_device_bytes(std::size_t bytes);
void free_device_bytes(void* pointer) noexcept;
void copy_device_bytes(void* destination, const void* source, std::size_t bytes);

namespace {
// 64-byte alignment: a cache line, and what vectorized host loops like.
constexpr std::align_val_t host_alignment{64};
}  // namespace

void* allocate_bytes(std::size_t bytes, Backend backend) {
  if (bytes == 0) return nullptr;
  if (backend == Backend::cuda) return allocate_device_bytes(bytes);
  void* pointer = ::operator new(bytes, host_alignment, std::nothrow);
  if (!pointer)
    throw OutOfMemory("host allocation of " + std::to_string(bytes) + " bytes failed", bytes, 0);
  return pointer;
}

void free_bytes(void* pointer, Backend backend) noexcept {
  if (!pointer) return;
  if (backend == Backend::cuda) free_device_bytes(pointer);
  else ::operator delete(pointer, host_alignment);
}

void copy_bytes(void* destination, Backend destination_backend, const void* source,
                Backend source_backend, std::size_t bytes) {
  if (bytes == 0) return;
  if (destination_backend == Backend::cpu && source_backend == Backend::cpu)
    std::memcpy(destination, source, bytes);
  else
    copy_device_bytes(destination, source, bytes);  // cudaMemcpyDefault works out the direction
}

}  // namespace grb::detail
