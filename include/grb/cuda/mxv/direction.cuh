// What the push/pull choice and the pull kernels' choice read of a matrix: the longest row,
// the 32-bit copy of the row offsets, and the factors that weigh push against pull.
#pragma once

#include <cuda/functional>

#include <cstdint>

#include "grb/cuda/policy.hpp"
#include "grb/cuda/primitives.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/matrix.hpp"

namespace grb::cuda::detail {

/// The longest row of a CSR (one pass over its offsets; Matrix::longest_row caches it).
__global__ inline void longest_row_kernel(Index nrows, const Offset* offsets,
                                          unsigned long long* longest) {
  unsigned long long mine = 0;
  GRB_GRID_STRIDE_LOOP(i, nrows) {
    const Offset length = offsets[i + 1] - offsets[i];
    mine = length > mine ? length : mine;
  }
  mine = warp_reduce(mine, ::cuda::maximum<>{});
  if (lane_id() == 0 && mine > 0) atomicMax(longest, mine);
}

template <class A>
Offset longest_row_of(const Matrix<A>& a, bool transposed) {
  return grb::detail::Storage::longest_row(a, transposed, [](const Csr<A>& rows) -> Offset {
    if (rows.nrows == 0) return 0;
    auto longest = device_array<unsigned long long>(1);
    fill_zero(longest.data(), 1);
    longest_row_kernel<<<blocks_for(rows.nrows), block_threads, 0, current_stream()>>>(
        rows.nrows, rows.row_offsets.data(), longest.data());
    GRB_CUDA_CHECK_LAUNCH();
    return static_cast<Offset>(read_scalar(longest.data()));
  });
}

/// Row offsets narrowed to 32 (or fewer) bits, where every offset fits.
template <class Narrow>
__global__ void narrow_offsets(std::uint64_t count, const Offset* in, Narrow* out) {
  GRB_GRID_STRIDE_LOOP(i, count) out[i] = static_cast<Narrow>(in[i]);
}

/// The 32-bit row offsets of csr() (of csc() when `transposed`), made once and cached with the
/// matrix (Matrix::narrow_offsets); null where the matrix has 2^32 entries or more.
template <class A>
const std::uint32_t* narrow_offsets_of(const Matrix<A>& a, bool transposed) {
  if (a.nvals() >= (Offset{1} << 32)) return nullptr;
  return grb::detail::Storage::narrow_offsets(
             a, transposed,
             [](const Csr<A>& rows) {
               auto narrow = device_array<std::uint32_t>(std::size_t(rows.nrows) + 1);
               narrow_offsets<<<blocks_for(std::uint64_t(rows.nrows) + 1), block_threads, 0,
                                current_stream()>>>(std::uint64_t(rows.nrows) + 1,
                                                    rows.row_offsets.data(), narrow.data());
               GRB_CUDA_CHECK_LAUNCH();
               return narrow;
             })
      .data();
}

}  // namespace grb::cuda::detail
