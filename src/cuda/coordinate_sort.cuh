// Sorting (row, column) coordinates on the GPU, shared by the edge list -> CSR construction and
// Matrix::build: each entry becomes one radix-sortable 64-bit key (row above column, packed into
// as few bits as the dimensions need, so the sort makes as few 8-bit passes as possible) carrying
// the entry's position in the input. CUB's radix sort is stable, so equal coordinates stay in
// input order, and after the sort:
//   run_starts()  finds the first position of each run of equal keys (one stored entry each),
//   write_structure() writes the CSR column ids and row offsets of those runs.
// What a run's values combine to is up to the caller, which reads positions[run].
#pragma once

#include <cstdint>

#include "grb/cuda/runtime.cuh"

namespace grb::cuda::detail {

/// (row, column) <-> one key. `sentinel` (all key bits set) sorts after every real entry; a
/// caller that marks slots empty with it must make key_bits large enough for it to be no
/// real coordinate.
struct CoordinateKeys {
  int column_bits = 0;
  int key_bits = 1;

  __host__ __device__ std::uint64_t pack(Index row, Index column) const {
    return (std::uint64_t{row} << column_bits) | column;
  }
  __host__ __device__ Index row(std::uint64_t key) const {
    return static_cast<Index>(key >> column_bits);
  }
  __host__ __device__ Index column(std::uint64_t key) const {
    return static_cast<Index>(key & ((std::uint64_t{1} << column_bits) - 1));
  }
  __host__ __device__ std::uint64_t sentinel() const {
    return key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
  }
};

/// Keys for an nrows x ncols matrix; with spare_row, one more row bit, so that the sentinel's
/// row (all ones) is no row of the matrix.
CoordinateKeys coordinate_keys(Index nrows, Index ncols, bool spare_row);

/// Sorts keys[0, n) with their positions (stable), in place: the arrays may come back swapped
/// with the sort's second buffers, which are freed on return. Device memory while sorting:
/// 2 * (8 + sizeof(Position)) bytes per entry, plus CUB's small temporary storage.
/// Position is std::uint32_t or std::uint64_t.
template <class Position>
void sort_coordinates(DeviceArray<std::uint64_t>& keys, DeviceArray<Position>& positions,
                      int key_bits);

/// How many of the sorted keys are below `limit` (the rest are sentinels).
Offset count_below(const DeviceArray<std::uint64_t>& keys, std::uint64_t limit);

/// The first position of each run of equal keys among the sorted keys[0, count).
DeviceArray<Offset> run_starts(const DeviceArray<std::uint64_t>& keys, Offset count);

/// col_indices[r] (one per run) and row_offsets (nrows + 1 entries) of the runs.
void write_structure(const CoordinateKeys& coordinates, const DeviceArray<std::uint64_t>& keys,
                     const DeviceArray<Offset>& starts, Index nrows, Offset* row_offsets,
                     Index* col_indices);

}  // namespace grb::cuda::detail

