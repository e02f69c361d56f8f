// Host side of grb::detail::Array: aligned host allocations, and copies between backends
// (device copies are delegated to src/cuda, or refused when grb was built without CUDA).
//
// Large host arrays are placed on transparent huge pages where the kernel allows it
// (MADV_HUGEPAGE; the usual setting is "madvise", under which nothing else gets them). A graph's
// arrays are written once right after they are allocated, and each first touch of a 4 KiB page
// is a page fault, which is dear on a virtual machine: on the H100's host, building a scale-22
// Kronecker matrix took 3.4 s, and 2.2 s with its arrays on huge pages (docs/engines.md,
// "Session 31"). A 2 MiB page takes one fault for 512.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "grb/array.hpp"

namespace grb::detail {

// Defined in src/cuda/memory.cu, or in src/no_cuda.cpp as throwing stubs.
void* allocate_device_bytes(std::size_t bytes);
void free_device_bytes(void* pointer) noexcept;
void copy_device_bytes(void* destination, const void* source, std::size_t bytes);

namespace {
// 64-byte alignment: a cache line, and what vectorized host loops like.
constexpr std::size_t host_alignment = 64;
constexpr std::size_t huge_page = std::size_t{2} << 20;
}  // namespace

std::size_t host_alignment_for(std::size_t bytes) noexcept {
  return bytes >= huge_page ? huge_page : host_alignment;
}

void* allocate_bytes(std::size_t bytes, Backend backend) {
  if (bytes == 0) return nullptr;
  if (backend == Backend::cuda) return allocate_device_bytes(bytes);
  void* pointer = nullptr;
  if (posix_memalign(&pointer, host_alignment_for(bytes), bytes) != 0)
    throw OutOfMemory("host allocation of " + std::to_string(bytes) + " bytes failed", bytes, 0);
  advise_huge_pages(pointer, bytes);
  return pointer;
}

void advise_huge_pages(void* pointer, std::size_t bytes) noexcept {
#if defined(MADV_HUGEPAGE)
  // Only the whole huge pages inside the block: the advice never reaches memory the block does
  // not own. It is advice: where THP is off it fails, harmlessly.
  const auto begin = reinterpret_cast<std::uintptr_t>(pointer);
  const std::uintptr_t first = (begin + huge_page - 1) / huge_page * huge_page;
  const std::uintptr_t last = (begin + bytes) / huge_page * huge_page;
  if (pointer && last > first)
    (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)pointer, (void)bytes;
#endif
}

void free_bytes(void* pointer, Backend backend) noexcept {
  if (!pointer) return;
  if (backend == Backend::cuda) free_device_bytes(pointer);
  else std::free(pointer);
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
