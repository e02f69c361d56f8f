// Sorting (row, column) coordinates on the GPU: see coordinate_sort.cuh.
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <bit>
#include <cstdint>

#include "coordinate_sort.cuh"

namespace grb::cuda::detail {
namespace {

/// Adds to *runs the number of positions p < count that start a run (keys[p] != keys[p - 1]).
__global__ void count_run_starts(const std::uint64_t* keys, std::uint64_t count,
                                 unsigned long long* runs) {
  using Reduce = cub::BlockReduce<unsigned long long, block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  unsigned long long mine = 0;
  GRB_GRID_STRIDE_LOOP(p, count) mine += (p == 0 || keys[p] != keys[p - 1]);
  const unsigned long long block_total = Reduce(storage).Sum(mine);
  if (threadIdx.x == 0 && block_total > 0) atomicAdd(runs, block_total);
}

/// *count = the number of sorted keys below `limit` (one thread's binary search).
__global__ void find_limit(const std::uint64_t* keys, std::uint64_t n, std::uint64_t limit,
                           std::uint64_t* count) {
  std::uint64_t low = 0, high = n;
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    if (keys[middle] < limit) low = middle + 1;
    else high = middle;
  }
  *count = low;
}

struct StartsRun {
  const std::uint64_t* keys;
  __device__ bool operator()(Offset p) const { return p == 0 || keys[p] != keys[p - 1]; }
};

/// Each run's column; row offsets without atomics: run r, in row i, sets row_offsets[j] = r for
/// the rows j in (row of run r - 1, i], and the last run fills the rows after its own.
__global__ void write_runs(CoordinateKeys coordinates, const std::uint64_t* keys,
                           const Offset* starts, Offset nruns, Index nrows, Offset* row_offsets,
                           Index* col_indices) {
  GRB_GRID_STRIDE_LOOP(r, nruns) {
    const std::uint64_t key = keys[starts[r]];
    col_indices[r] = coordinates.column(key);
    const std::uint64_t row = coordinates.row(key);
    const std::uint64_t first_row = r == 0 ? 0 : coordinates.row(keys[starts[r - 1]]) + 1ull;
    for (std::uint64_t j = first_row; j <= row; ++j) row_offsets[j] = r;
    if (r + 1 == nruns)
      for (std::uint64_t j = row + 1; j <= nrows; ++j) row_offsets[j] = nruns;
  }
}

}  // namespace

CoordinateKeys coordinate_keys(Index nrows, Index ncols, bool spare_row) {
  CoordinateKeys keys;
  keys.column_bits = ncols > 1 ? int(std::bit_width(std::uint64_t{ncols} - 1)) : 0;
  const int row_bits = nrows > 1 ? int(std::bit_width(std::uint64_t{nrows} - 1)) : 0;
  keys.key_bits = keys.column_bits + row_bits + (spare_row ? 1 : 0);
  if (keys.key_bits == 0) keys.key_bits = 1;
  return keys;
}

template <class Position>
void sort_coordinates(DeviceArray<std::uint64_t>& keys, DeviceArray<Position>& positions,
                      int key_bits) {
  const std::size_t n = keys.size();
  if (n == 0) return;
  // The DoubleBuffer form lets CUB ping-pong between our two buffers; the pointer form would
  // allocate a third copy of keys and positions inside its temporary storage.
  DeviceArray<std::uint64_t> keys_other = device_array<std::uint64_t>(n);
  DeviceArray<Position> positions_other = device_array<Position>(n);
  cub::DoubleBuffer<std::uint64_t> key_buffer(keys.data(), keys_other.data());
  cub::DoubleBuffer<Position> position_buffer(positions.data(), positions_other.data());
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temporary, bytes, key_buffer, position_buffer,
                                           static_cast<std::int64_t>(n), 0, key_bits,
                                           current_stream());
  });
  if (key_buffer.Current() != keys.data()) keys.swap(keys_other);
  if (position_buffer.Current() != positions.data()) positions.swap(positions_other);
}

template void sort_coordinates(DeviceArray<std::uint64_t>&, DeviceArray<std::uint32_t>&, int);
template void sort_coordinates(DeviceArray<std::uint64_t>&, DeviceArray<std::uint64_t>&, int);

Offset count_below(const DeviceArray<std::uint64_t>& keys, std::uint64_t limit) {
  if (keys.empty()) return 0;
  DeviceArray<std::uint64_t> count = device_array<std::uint64_t>(1);
  find_limit<<<1, 1, 0, current_stream()>>>(keys.data(), keys.size(), limit, count.data());
  GRB_CUDA_CHECK_LAUNCH();
  return read_scalar(count.data());
}

DeviceArray<Offset> run_starts(const DeviceArray<std::uint64_t>& keys, Offset count) {
  if (count == 0) return device_array<Offset>(0);
  DeviceArray<unsigned long long> runs = device_array<unsigned long long>(1);
  fill_zero(runs.data(), 1);
  count_run_starts<<<blocks_for(count), block_threads, 0, current_stream()>>>(keys.data(), count,
                                                                              runs.data());
  GRB_CUDA_CHECK_LAUNCH();
  // Counted first so that the output is allocated at its exact size (the big array of a build).
  DeviceArray<Offset> starts = device_array<Offset>(read_scalar(runs.data()));
  DeviceArray<std::uint64_t> selected = device_array<std::uint64_t>(1);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceSelect::If(temporary, bytes, thrust::counting_iterator<Offset>(0),
                                 starts.data(), selected.data(), static_cast<std::int64_t>(count),
                                 StartsRun{keys.data()}, current_stream());
  });
  return starts;
}

void write_structure(const CoordinateKeys& coordinates, const DeviceArray<std::uint64_t>& keys,
                     const DeviceArray<Offset>& starts, Index nrows, Offset* row_offsets,
                     Index* col_indices) {
  const Offset nruns = starts.size();
  if (nruns == 0) {
    fill_zero(row_offsets, std::size_t(nrows) + 1);
    return;
  }
  write_runs<<<blocks_for(nruns), block_threads, 0, current_stream()>>>(
      coordinates, keys.data(), starts.data(), nruns, nrows, row_offsets, col_indices);
  GRB_CUDA_CHECK_LAUNCH();
}

}  // namespace grb::cuda::detail
