// Host side of grb::detail::Array: aligned host allocations, and copies between backends
// (device copies are delegated to src/cuda, or refused when grb was built without CUDA).
//
// Large host arrays are placed on transparent huge pages where the kernel allows it
// (MADV_HUGEPAGE; the usual setting is "madvise", under which nothing else gets them). A graph's
// arrays are written once right after they are allocated, and each first touch of a 4 KiB page
// is a page fault, which is dear on a virtual machine: on the H100's host, building a scale-22
// Kronecker matrix took 3.4 s, and 2.2 s with its arrays on huge pages (`grb bfs --kron 22`, its
// load time). A 2 MiB page takes one fault for 512.
#include <cstdint>
#include <cstdio>
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
void fill_device_bytes(void* destination, unsigned char value, std::size_t bytes);

namespace {
// 64-byte alignment: a cache line, and what vectorized host loops like.
constexpr std::size_t host_alignment = 64;
constexpr std::size_t huge_page = std::size_t{2} << 20;
// Host allocations from this size on are checked against the memory available (reading
// /proc/meminfo costs microseconds, nothing beside an allocation this large).
constexpr std::size_t checked_host_bytes = std::size_t{64} << 20;
}  // namespace

std::size_t host_alignment_for(std::size_t bytes) noexcept {
  return bytes >= huge_page ? huge_page : host_alignment;
}

std::size_t host_memory_available() {
  if (const char* limit = std::getenv("GRB_HOST_MEMORY_LIMIT"); limit && *limit) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(limit, &end, 10);
    const int shift = *end == 'K' || *end == 'k' ? 10
                      : *end == 'M' || *end == 'm' ? 20
                      : *end == 'G' || *end == 'g' ? 30
                                                   : 0;
    return static_cast<std::size_t>(value) << shift;
  }
  std::size_t available = SIZE_MAX;
#if defined(__linux__)
  if (std::FILE* meminfo = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof line, meminfo))
      if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
        available = static_cast<std::size_t>(kib) << 10;
        break;
      }
    std::fclose(meminfo);
  }
#endif
  return available;
}

namespace {
std::string gib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / double(1 << 30));
  return text;
}
}  // namespace

void check_host_memory(std::size_t bytes, const std::string& what) {
  const std::size_t available = host_memory_available();
  if (bytes > available)
    throw OutOfMemory(what + " needs " + gib(bytes) + " of host memory; " + gib(available) +
                          " available",
                      bytes, available);
}

void* allocate_bytes(std::size_t bytes, Backend backend) {
  if (bytes == 0) return nullptr;
  if (backend == Backend::cuda) return allocate_device_bytes(bytes);
  // Large blocks are checked first: past the memory there is, Linux's overcommit grants the
  // block and the kernel kills the process when it is written.
  if (bytes >= checked_host_bytes)
    check_host_memory(bytes, "a host array of " + std::to_string(bytes) + " bytes");
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

void fill_bytes(void* destination, Backend backend, unsigned char value, std::size_t bytes) {
  if (bytes == 0) return;
  if (backend == Backend::cpu)
    std::memset(destination, value, bytes);
  else
    fill_device_bytes(destination, value, bytes);
}

}  // namespace grb::detail
