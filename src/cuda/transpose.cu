// The transpose of a CSR matrix on the GPU (i.e. its CSC), for any value size.
//
// A stable radix sort of the entries' positions by column keeps each column's entries in row
// order, so the transpose's rows come out sorted. Row offsets of the transpose come from a binary
// search of each column in the sorted keys (no atomics, so a 'celebrity' column with millions of
// entries costs nothing extra), and each entry's row is recovered by a binary search of its
// position in the original row offsets (no row-expansion array is stored).
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <limits>

#include "grb/cuda/runtime.cuh"
#include "grb/matrix.hpp"

namespace grb::detail {

namespace {

template <class Position>
__global__ void number_entries(Offset nvals, Position* positions) {
  GRB_GRID_STRIDE_LOOP(e, nvals) positions[e] = static_cast<Position>(e);
}

/// t_row_offsets[c] = the first sorted position whose column is >= c.
__global__ void column_offsets(Index ncols, Offset nvals, const Index* sorted_columns,
                               Offset* t_row_offsets) {
  GRB_GRID_STRIDE_LOOP(c, std::uint64_t(ncols) + 1) {
    Offset low = 0, high = nvals;
    while (low < high) {
      const Offset middle = low + (high - low) / 2;
      if (sorted_columns[middle] < c) low = middle + 1;
      else high = middle;
    }
    t_row_offsets[c] = low;
  }
}

template <class Position, class Word>
__global__ void gather_transposed(Offset nvals, Index nrows, const Offset* row_offsets,
                                  const Position* order, const Word* values,
                                  Index* t_col_indices, Word* t_values) {
  GRB_GRID_STRIDE_LOOP(p, nvals) {
    const Offset e = order[p];
    t_col_indices[p] = grb::cuda::detail::owner_of(row_offsets, nrows, e);
    t_values[p] = values[e];
  }
}

int significant_bits(std::uint64_t largest) {
  int bits = 0;
  while (bits < 64 && (largest >> bits) != 0) ++bits;
  return bits > 0 ? bits : 1;
}

template <class Position>
void transpose_with(std::size_t value_bytes, Index nrows, Index ncols, Offset nvals,
                    const Offset* row_offsets, const Index* col_indices, const void* values,
                    Offset* t_row_offsets, Index* t_col_indices, void* t_values) {
  using namespace grb::cuda::detail;
  auto keys = device_array<Index>(nvals);
  auto positions_in = device_array<Position>(nvals);
  auto positions_out = device_array<Position>(nvals);
  number_entries<<<blocks_for(nvals), block_threads, 0, current_stream()>>>(nvals,
                                                                            positions_in.data());
  GRB_CUDA_CHECK_LAUNCH();
  const int end_bit = significant_bits(ncols > 0 ? ncols - 1 : 0);
  const std::int64_t items = static_cast<std::int64_t>(nvals);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temporary, bytes, col_indices, keys.data(),
                                           positions_in.data(), positions_out.data(), items, 0,
                                           end_bit, current_stream());
  });
  column_offsets<<<blocks_for(std::uint64_t(ncols) + 1), block_threads, 0, current_stream()>>>(
      ncols, nvals, keys.data(), t_row_offsets);
  GRB_CUDA_CHECK_LAUNCH();
  dispatch_element_size(value_bytes, "transpose", [&](auto word) {
    using Word = decltype(word);
    gather_transposed<<<blocks_for(nvals), block_threads, 0, current_stream()>>>(
        nvals, nrows, row_offsets, positions_out.data(), static_cast<const Word*>(values),
        t_col_indices, static_cast<Word*>(t_values));
    GRB_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace

void transpose_csr_cuda(std::size_t value_bytes, Index nrows, Index ncols, Offset nvals,
                        const Offset* row_offsets, const Index* col_indices, const void* values,
                        Offset* t_row_offsets, Index* t_col_indices, void* t_values) {
  using namespace grb::cuda::detail;
  if (nvals == 0) {
    fill_zero(t_row_offsets, std::size_t(ncols) + 1);
    return;
  }
  // 32-bit positions halve the sort's traffic whenever they can number every entry.
  if (nvals <= std::numeric_limits<std::uint32_t>::max())
    transpose_with<std::uint32_t>(value_bytes, nrows, ncols, nvals, row_offsets, col_indices,
                                  values, t_row_offsets, t_col_indices, t_values);
  else
    transpose_with<std::uint64_t>(value_bytes, nrows, ncols, nvals, row_offsets, col_indices,
                                  values, t_row_offsets, t_col_indices, t_values);
}

}  // namespace grb::detail
