// What every cuda operation uses beside the primitives: pool-backed device temporaries, CUB's
// two-phase calls, one value copied to or from the device, and moving values as raw words.
#pragma once

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "grb/array.hpp"
#include "grb/cuda/primitives/check.cuh"
#include "grb/cuda/primitives/launch.cuh"
#include "grb/cuda/primitives/search.cuh"
#include "grb/types.hpp"

namespace grb::cuda::detail {

/// A device buffer from the pool (released back to it at scope exit).
template <class T>
using DeviceArray = grb::detail::Array<T>;

template <class T>
DeviceArray<T> device_array(std::size_t size) {
  return DeviceArray<T>(size, Backend::cuda);
}

/// Runs a CUB device-wide algorithm: asks for the temporary storage size, takes it from the
/// pool, runs. `algorithm(void* temp, std::size_t& bytes)` returns the cudaError_t of the call.
template <class Algorithm>
void cub_run(Algorithm&& algorithm) {
  std::size_t bytes = 0;
  GRB_CUDA_CHECK(algorithm(static_cast<void*>(nullptr), bytes));
  DeviceArray<std::uint8_t> temporary = device_array<std::uint8_t>(bytes > 0 ? bytes : 1);
  GRB_CUDA_CHECK(algorithm(static_cast<void*>(temporary.data()), bytes));
}

/// A page-locked slot per host thread for read_scalar: a copy into pageable memory is staged
/// by the driver, which costs more than the copy itself for one small value.
inline void* pinned_scratch() {
  struct Slot {
    void* bytes = nullptr;
    ~Slot() {
      if (bytes) cudaFreeHost(bytes);  // at thread exit; an error there changes nothing
    }
  };
  thread_local Slot slot;
  if (!slot.bytes) GRB_CUDA_CHECK(cudaMallocHost(&slot.bytes, 64));
  return slot.bytes;
}

/// Reads one value from device memory (a blocking copy: the one host round trip an operation
/// makes to learn its output size).
template <class T>
T read_scalar(const T* device_pointer) {
  static_assert(sizeof(T) <= 64 && std::is_trivially_copyable_v<T>);
  grb::detail::check_not_recording("a value read back to the host");
  void* staging = pinned_scratch();
  GRB_CUDA_CHECK(cudaMemcpyAsync(staging, device_pointer, sizeof(T), cudaMemcpyDeviceToHost,
                                 current_stream()));
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
  T value;
  std::memcpy(&value, staging, sizeof(T));
  return value;
}

template <class T>
void write_scalar(T* device_pointer, const T& value) {
  // From pageable memory: the call returns once `value` has been read. A recorded loop would copy
  // from wherever `value` was when it was recorded.
  grb::detail::check_not_recording("a value written from the host");
  GRB_CUDA_CHECK(
      cudaMemcpyAsync(device_pointer, &value, sizeof(T), cudaMemcpyHostToDevice, current_stream()));
}

template <class T>
void fill_zero(T* device_pointer, std::size_t count) {
  if (count > 0)
    GRB_CUDA_CHECK(cudaMemsetAsync(device_pointer, 0, count * sizeof(T), current_stream()));
}

/// counts[0, n) -> their exclusive scan, in place, with the total in counts[n] (the array holds
/// n + 1 entries; counts[n] need not be set): row offsets from row lengths, positions from flags.
inline void exclusive_scan_counts(Offset* counts, std::size_t n) {
  fill_zero(counts + n, 1);
  const std::int64_t items = static_cast<std::int64_t>(n) + 1;
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temporary, bytes, counts, counts, items, current_stream());
  });
}

/// The bits a radix sort must look at for keys up to largest_key (at least 1, at most 32).
inline int key_bits(Index largest_key) {
  int bits = 1;
  while (bits < 32 && (std::uint64_t(largest_key) >> bits) != 0) ++bits;
  return bits;
}

/// The unsigned integer type of `bytes` bytes: kernels that only move values work on these.
template <std::size_t bytes>
struct word;
template <> struct word<1> { using type = std::uint8_t; };
template <> struct word<2> { using type = std::uint16_t; };
template <> struct word<4> { using type = std::uint32_t; };
template <> struct word<8> { using type = std::uint64_t; };
template <std::size_t bytes>
using word_t = typename word<bytes>::type;

/// A value moved as raw 4-byte words (user types such as SSSP's (distance, vertex) pairs).
template <int N>
struct Words {
  std::uint32_t word[N];
};

/// Calls `body(Word{})` with a word type of `element_bytes` bytes.
template <class Body>
void dispatch_element_size(std::size_t element_bytes, const char* what, Body&& body) {
  switch (element_bytes) {
    case 1: body(std::uint8_t{}); break;
    case 2: body(std::uint16_t{}); break;
    case 4: body(std::uint32_t{}); break;
    case 8: body(std::uint64_t{}); break;
    case 12: body(Words<3>{}); break;
    case 16: body(Words<4>{}); break;
    default:
      throw InvalidValue(std::string(what) + ": element size " + std::to_string(element_bytes) +
                         " is not supported on cuda (1, 2, 4, 8, 12 or 16 bytes)");
  }
}

}  // namespace grb::cuda::detail
