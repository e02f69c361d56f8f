// Small pieces every cuda operation uses: launch geometry, pool-backed device temporaries,
// CUB's two-phase calls, and reading one counter back to the host.
#pragma once

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "grb/array.hpp"
#include "grb/cuda/check.cuh"
#include "grb/types.hpp"

namespace grb::cuda::detail {

/// Threads per block for the element-wise kernels: a multiple of the warp, enough blocks per SM.
inline constexpr unsigned block_threads = 256;

/// Blocks to cover `items` with one thread each (grid-stride loops cover any remainder).
inline unsigned blocks_for(std::uint64_t items) {
  // 2^20 blocks of 256 threads is far past what a GPU keeps resident; the kernels loop.
  constexpr std::uint64_t max_blocks = std::uint64_t{1} << 20;
  std::uint64_t blocks = (items + block_threads - 1) / block_threads;
  if (blocks == 0) blocks = 1;
  return static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks);
}

/// How many blocks of block_threads threads of `kernel` the GPU holds at once: a grid of one
/// wave, for kernels whose blocks loop (whole-block strides). Asked of the runtime per call:
/// callers keep the answer (a static per kernel).
template <class Kernel>
unsigned resident_blocks(Kernel kernel) {
  int device = 0, multiprocessors = 0, per_multiprocessor = 0;
  GRB_CUDA_CHECK(cudaGetDevice(&device));
  GRB_CUDA_CHECK(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  GRB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel,
                                                               block_threads, 0));
  return unsigned(std::max(multiprocessors * per_multiprocessor, 1));
}

/// Blocks for work of at most `items` items whose real count the kernel reads on the device
/// (a product's output bound): at most 4096, the whole-block strides covering the rest, so a
/// loose bound does not launch a grid of idle blocks.
inline unsigned blocks_for_bound(std::uint64_t items) {
  constexpr unsigned most = 4096;
  const unsigned blocks = blocks_for(items);
  return blocks < most ? blocks : most;
}

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
  void* staging = pinned_scratch();
  GRB_CUDA_CHECK(cudaMemcpyAsync(staging, device_pointer, sizeof(T), cudaMemcpyDeviceToHost, 0));
  GRB_CUDA_CHECK(cudaStreamSynchronize(0));
  T value;
  std::memcpy(&value, staging, sizeof(T));
  return value;
}

template <class T>
void write_scalar(T* device_pointer, const T& value) {
  GRB_CUDA_CHECK(cudaMemcpy(device_pointer, &value, sizeof(T), cudaMemcpyHostToDevice));
}

template <class T>
void fill_zero(T* device_pointer, std::size_t count) {
  if (count > 0) GRB_CUDA_CHECK(cudaMemsetAsync(device_pointer, 0, count * sizeof(T), 0));
}

/// counts[0, n) -> their exclusive scan, in place, with the total in counts[n] (the array holds
/// n + 1 entries; counts[n] need not be set): row offsets from row lengths, positions from flags.
inline void exclusive_scan_counts(Offset* counts, std::size_t n) {
  fill_zero(counts + n, 1);
  const std::int64_t items = static_cast<std::int64_t>(n) + 1;
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temporary, bytes, counts, counts, items);
  });
}

/// The bits a radix sort must look at for keys up to largest_key (at least 1, at most 32).
inline int key_bits(Index largest_key) {
  int bits = 1;
  while (bits < 32 && (std::uint64_t(largest_key) >> bits) != 0) ++bits;
  return bits;
}

/// Grid-stride loop bounds for a kernel covering [0, items).
#define GRB_GRID_STRIDE_LOOP(index, items)                                                    \
  for (std::uint64_t index = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;            \
       index < std::uint64_t(items); index += std::uint64_t(gridDim.x) * blockDim.x)

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

/// The position of `offset` among row `offsets` (length rows + 1): the row r with
/// offsets[r] <= offset < offsets[r + 1]; empty rows are skipped.
template <class OffsetT>
__host__ __device__ inline Index owner_of(const OffsetT* offsets, Index rows, OffsetT offset) {
  Index low = 0, high = rows;  // invariant: offsets[low] <= offset < offsets[high]
  while (high - low > 1) {
    const Index middle = low + (high - low) / 2;
    if (offsets[middle] <= offset) low = middle;
    else high = middle;
  }
  return low;
}

}  // namespace grb::cuda::detail
