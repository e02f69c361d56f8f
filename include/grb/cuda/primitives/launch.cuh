// Launch geometry, for the backend's operations and the engines alike: how many blocks cover
// a range, how many a GPU holds at once, and the grid-stride loop that covers whatever is left.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "grb/context.hpp"
#include "grb/cuda/primitives/check.cuh"

namespace grb::cuda::detail {

/// The stream that every grb kernel, copy, allocation and CUB call goes to: the current
/// context's (grb/context.hpp; by default the legacy default stream of the current device).
/// Work is ordered on it, so successive operations see each other's results and reuse each
/// other's freed blocks without events.
inline cudaStream_t current_stream() {
  return static_cast<cudaStream_t>(grb::detail::current_context().stream);
}

/// Threads per block for the element-wise kernels: a multiple of the warp, enough blocks per SM.
inline constexpr unsigned block_threads = 256;

/// Blocks of `threads` threads to cover `items` with one thread each: at least one (a launch of
/// no blocks is an error), at most the grid's limit (kernels whose items can pass it loop).
inline unsigned blocks_for(std::uint64_t items, unsigned threads = block_threads) {
  constexpr std::uint64_t max_blocks = 0x7fffffffu;  // gridDim.x's limit
  const std::uint64_t blocks = (items + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<std::uint64_t>(blocks, 1, max_blocks));
}

/// The current device's streaming multiprocessors.
inline unsigned multiprocessor_count() {
  int device = 0, multiprocessors = 0;
  GRB_CUDA_CHECK(cudaGetDevice(&device));
  GRB_CUDA_CHECK(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::max(multiprocessors, 1));
}

/// Whether the current device launches cooperative kernels (a grid-wide barrier).
inline bool cooperative_launch_supported() {
  int device = 0, supported = 0;
  GRB_CUDA_CHECK(cudaGetDevice(&device));
  GRB_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
  return supported != 0;
}

/// How many blocks of `threads` threads of `kernel` the current device holds at once: a grid of
/// one wave, for kernels whose blocks loop (whole-block strides). Asked of the runtime per call:
/// callers keep the answer (a static per kernel, or a member set up once).
template <class Kernel>
unsigned resident_blocks(Kernel kernel, unsigned threads = block_threads,
                         std::size_t shared_bytes = 0) {
  int per_multiprocessor = 0;
  GRB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel,
                                                               int(threads), shared_bytes));
  return std::max(multiprocessor_count() * unsigned(per_multiprocessor), 1u);
}

/// Blocks for work of at most `items` items whose real count the kernel reads on the device
/// (a product's output bound): at most 4096, the whole-block strides covering the rest, so a
/// loose bound does not launch a grid of idle blocks.
inline unsigned blocks_for_bound(std::uint64_t items) {
  constexpr unsigned most = 4096;
  return std::min(blocks_for(items), most);
}

}  // namespace grb::cuda::detail

/// Grid-stride loop bounds for a kernel covering [0, items).
#define GRB_GRID_STRIDE_LOOP(index, items)                                                    \
  for (std::uint64_t index = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;            \
       index < std::uint64_t(items); index += std::uint64_t(gridDim.x) * blockDim.x)
