// The cuda entry points of a build without CUDA: the backend is reported unavailable.
#include <cstdint>
#include <string>

#include "grb/array.hpp"
#include "grb/context.hpp"
#include "grb/cuda/build.hpp"
#include "grb/error.hpp"
#include "grb/loop.hpp"
#include "grb/types.hpp"
#include "grb/vector.hpp"

namespace grb {

bool cuda_available() { return false; }

namespace detail {

namespace {
[[noreturn]] void unavailable() {
  throw BackendUnavailable("grb was built without CUDA: the cuda backend is unavailable");
}
}  // namespace

int active_device() { return 0; }
void make_device_current(int) {}
void* create_stream(int device) {
  if (device != 0)
    throw InvalidValue("Context: no device " + std::to_string(device) +
                       " (grb was built without CUDA: contexts are on device 0)");
  return nullptr;
}
void synchronize_context(const ContextState&) {}
ContextState::~ContextState() = default;
void* allocate_device_bytes(std::size_t) { unavailable(); }
void free_device_bytes(void*) noexcept {}
std::size_t kept_device_bytes() { return 0; }
void release_kept_device_blocks() {}
void copy_device_bytes(void*, const void*, std::size_t) { unavailable(); }
void fill_device_bytes(void*, unsigned char, std::size_t) { unavailable(); }
void sparse_to_dense_cuda(std::size_t, Index, Index, const Index*, const void*, void*,
                          std::uint8_t*) {
  unavailable();
}
void fill_absent_cuda(std::size_t, Index, Index, const Index*, const void*, const std::uint8_t*,
                      const void*, void*) {
  unavailable();
}
void transpose_csr_cuda(std::size_t, Index, Index, Offset, const Offset*, const Index*,
                        const void*, Offset*, Index*, void*) {
  unavailable();
}
DeviceBuildPlan plan_build_cuda(Index, Index, const Index*, const Index*, std::size_t) {
  unavailable();
}
void move_values_cuda(std::size_t, std::size_t, const void*, const Offset*, void*, const Offset*) {
  unavailable();
}
void dense_to_sparse_cuda(std::size_t, Index, Index, const void*, const std::uint8_t*, Index*,
                          void*) {
  unavailable();
}
void sort_entries_cuda(std::size_t, Index, Index, const Index*, const void*, Index*, void*) {
  unavailable();
}
bool set_sparse_element_cuda(std::size_t, const Index*, const void*, Index, bool, Index,
                             const void*, Index*, void*) {
  unavailable();
}
void zero_new_counter(void*, std::size_t) { unavailable(); }
std::uint64_t run_device_loop(const void*, std::size_t, const std::function<void()>&) {
  unavailable();
}
void queue_clear_dense(const void*, std::uint8_t*, std::size_t, std::int64_t*, std::int64_t) {
  unavailable();
}
void queue_dense_element(const void*, std::size_t, void*, std::uint8_t*, Index, const void*,
                         std::int64_t*, bool) {
  unavailable();
}
void queue_store(const void*, void*, std::size_t, const void*) { unavailable(); }
bool element_writes_pending() { return false; }

}  // namespace detail
}  // namespace grb
