// The GPU half of Matrix::build on the cuda backend (see grb/cuda/build.hpp): range check, the
// stable sort of the tuples' coordinates, and the structure of the result.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "coordinate_sort.cuh"
#include "grb/cuda/build.hpp"
#include "grb/cuda/runtime.cuh"

namespace grb::detail {
namespace {

using namespace grb::cuda::detail;

template <class Position>
__global__ void write_tuple_keys(std::uint64_t n, const Index* rows, const Index* cols,
                                 CoordinateKeys coordinates, std::uint64_t* keys,
                                 Position* positions) {
  GRB_GRID_STRIDE_LOOP(e, n) {
    keys[e] = coordinates.pack(rows[e], cols[e]);
    positions[e] = static_cast<Position>(e);
  }
}

template <class Position>
__global__ void first_of_runs(Offset nruns, const Offset* starts, const Position* positions,
                              Offset* first) {
  GRB_GRID_STRIDE_LOOP(r, nruns) first[r] = positions[starts[r]];
}

template <class Word>
__global__ void move_words(std::uint64_t count, const Word* from, const Offset* from_index,
                           Word* to, const Offset* to_index) {
  GRB_GRID_STRIDE_LOOP(k, count) {
    to[to_index ? to_index[k] : k] = from[from_index ? from_index[k] : k];
  }
}

__global__ void move_bytes(std::uint64_t count, std::size_t bytes, const std::uint8_t* from,
                           const Offset* from_index, std::uint8_t* to, const Offset* to_index) {
  GRB_GRID_STRIDE_LOOP(k, count) {
    const std::uint8_t* source = from + (from_index ? from_index[k] : k) * bytes;
    std::uint8_t* destination = to + (to_index ? to_index[k] : k) * bytes;
    for (std::size_t b = 0; b < bytes; ++b) destination[b] = source[b];
  }
}

template <class Position>
DeviceBuildPlan plan_with(Index nrows, Index ncols, const Index* rows, const Index* cols,
                          std::size_t n) {
  const CoordinateKeys coordinates = coordinate_keys(nrows, ncols, false);
  DeviceArray<std::uint64_t> keys = device_array<std::uint64_t>(n);
  DeviceArray<Position> positions = device_array<Position>(n);
  {
    const auto device_rows = Array<Index>::from(std::span<const Index>(rows, n), Backend::cuda);
    const auto device_cols = Array<Index>::from(std::span<const Index>(cols, n), Backend::cuda);
    write_tuple_keys<<<blocks_for(n), block_threads, 0, current_stream()>>>(
        n, device_rows.data(), device_cols.data(), coordinates, keys.data(), positions.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  sort_coordinates(keys, positions, coordinates.key_bits);
  const DeviceArray<Offset> starts = run_starts(keys, n);
  const Offset nruns = starts.size();
  DeviceBuildPlan plan{device_array<Offset>(std::size_t(nrows) + 1), device_array<Index>(nruns),
                       device_array<Offset>(nruns), {}, {}, {}};
  write_structure(coordinates, keys, starts, nrows, plan.row_offsets.data(),
                  plan.col_indices.data());
  if (nruns > 0) {
    first_of_runs<<<blocks_for(nruns), block_threads, 0, current_stream()>>>(
        nruns, starts.data(), positions.data(), plan.first.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  if (nruns < n) {
    // Duplicates: the runs longer than one tuple, with their positions in input order, for the
    // caller to fold with its (host) operator.
    const std::vector<Offset> run_start = starts.to_vector();
    const std::vector<Position> position = positions.to_vector();
    for (Offset r = 0; r < nruns; ++r) {
      const Offset end = r + 1 < nruns ? run_start[r + 1] : n;
      if (end - run_start[r] < 2) continue;
      plan.duplicate_entries.push_back(r);
      plan.duplicate_begin.push_back(plan.duplicate_positions.size());
      for (Offset p = run_start[r]; p < end; ++p) plan.duplicate_positions.push_back(position[p]);
    }
    plan.duplicate_begin.push_back(plan.duplicate_positions.size());
  }
  return plan;
}

}  // namespace

DeviceBuildPlan plan_build_cuda(Index nrows, Index ncols, const Index* rows, const Index* cols,
                                std::size_t n) {
  // Checked on the host, where the tuples are, before any of them is uploaded.
  for (std::size_t e = 0; e < n; ++e) {
    if (rows[e] >= nrows || cols[e] >= ncols)
      throw IndexOutOfBounds("build: entry " + std::to_string(e) + " at (" +
                             std::to_string(rows[e]) + ", " + std::to_string(cols[e]) +
                             ") outside a " + std::to_string(nrows) + " x " +
                             std::to_string(ncols) + " matrix");
  }
  // 32-bit positions halve the sort's payload whenever they can number every tuple.
  if (n <= std::numeric_limits<std::uint32_t>::max())
    return plan_with<std::uint32_t>(nrows, ncols, rows, cols, n);
  return plan_with<std::uint64_t>(nrows, ncols, rows, cols, n);
}

void move_values_cuda(std::size_t value_bytes, std::size_t count, const void* from,
                      const Offset* from_index, void* to, const Offset* to_index) {
  if (count == 0) return;
  switch (value_bytes) {
    case 1: case 2: case 4: case 8: case 12: case 16:
      dispatch_element_size(value_bytes, "build", [&](auto word) {
        using Word = decltype(word);
        move_words<<<blocks_for(count), block_threads, 0, current_stream()>>>(
            count, static_cast<const Word*>(from), from_index, static_cast<Word*>(to), to_index);
      });
      break;
    default:
      move_bytes<<<blocks_for(count), block_threads, 0, current_stream()>>>(
          count, value_bytes, static_cast<const std::uint8_t*>(from), from_index,
          static_cast<std::uint8_t*>(to), to_index);
  }
  GRB_CUDA_CHECK_LAUNCH();
}

}  // namespace grb::detail
