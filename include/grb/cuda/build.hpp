// Matrix::build for a matrix on the cuda backend (GrB_Matrix_build on the GPU), reached from
// Matrix::build in grb/matrix.hpp. Plain C++ (a host compiler includes it with matrix.hpp); the
// device work is in src/cuda/build.cu.
//
// The tuples are copied to the device and sorted there by a stable CUB radix sort of packed
// (row, column) keys (src/cuda/coordinate_sort.cuh), so duplicates stay in input order; the GPU
// then finds the runs of equal coordinates, writes the column ids and row offsets, and gathers
// each run's first value. `dup` is any host-callable operator (build accepts those from every
// translation unit, nvcc-compiled or not), so the runs holding duplicates, and only those, are
// folded with it on the host, in input order, exactly as build_host_csr folds them, and their
// values written back to the device: the cost beyond the sort is proportional to the number of
// duplicates.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "grb/matrix.hpp"

namespace grb::detail {

/// The structure of a build, computed on the GPU (src/cuda/build.cu).
struct DeviceBuildPlan {
  Array<Offset> row_offsets;  // device, nrows + 1
  Array<Index> col_indices;   // device, one per distinct (i, j)
  Array<Offset> first;        // device: per stored entry, the input position of its first tuple
  /// The stored entries with more than one tuple (host, increasing): entry duplicate_entries[k]
  /// combines the tuples duplicate_positions[duplicate_begin[k] .. duplicate_begin[k + 1]), in
  /// input order. Empty when there are no duplicates.
  std::vector<Offset> duplicate_entries, duplicate_begin, duplicate_positions;
};

/// Throws IndexOutOfBounds for a tuple outside nrows x ncols. `rows` and `cols` are host arrays
/// of n tuples.
DeviceBuildPlan plan_build_cuda(Index nrows, Index ncols, const Index* rows, const Index* cols,
                                std::size_t n);
/// to[to_index ? to_index[k] : k] = from[from_index ? from_index[k] : k] for k < count, for
/// device arrays of values of `value_bytes` bytes.
void move_values_cuda(std::size_t value_bytes, std::size_t count, const void* from,
                      const Offset* from_index, void* to, const Offset* to_index);

template <class T, class Dup>
Csr<T> build_cuda_csr(Index nrows, Index ncols, std::span<const Index> rows,
                      std::span<const Index> cols, std::span<const T> values, Dup dup) {
  if (rows.size() != cols.size() || rows.size() != values.size())
    throw DimensionMismatch("build: " + std::to_string(rows.size()) + " rows, " +
                            std::to_string(cols.size()) + " columns and " +
                            std::to_string(values.size()) + " values");
  DeviceBuildPlan plan = plan_build_cuda(nrows, ncols, rows.data(), cols.data(), rows.size());
  std::vector<T> folded(plan.duplicate_entries.size());
  for (std::size_t k = 0; k < folded.size(); ++k) {
    const Offset* position = plan.duplicate_positions.data() + plan.duplicate_begin[k];
    if constexpr (std::is_same_v<Dup, NoDuplicates>) {
      throw InvalidValue("build: duplicate entry at (" + std::to_string(rows[position[0]]) + ", " +
                         std::to_string(cols[position[0]]) + ") and no duplicate operator");
    } else {
      T value = values[position[0]];
      for (Offset p = plan.duplicate_begin[k] + 1; p < plan.duplicate_begin[k + 1]; ++p)
        value = static_cast<T>(dup(value, values[plan.duplicate_positions[p]]));
      folded[k] = value;
    }
  }
  const Offset nvals = plan.col_indices.size();
  Csr<T> csr{nrows, ncols, std::move(plan.row_offsets), std::move(plan.col_indices),
             Array<T>(nvals, Backend::cuda)};
  {
    const Array<T> input = Array<T>::from(values, Backend::cuda);
    move_values_cuda(sizeof(T), nvals, input.data(), plan.first.data(), csr.values.data(),
                     nullptr);
  }
  if (!folded.empty()) {
    const Array<T> device_folded = host_array(folded).to(Backend::cuda);
    const Array<Offset> entries =
        Array<Offset>::from(std::span<const Offset>(plan.duplicate_entries), Backend::cuda);
    move_values_cuda(sizeof(T), folded.size(), device_folded.data(), nullptr, csr.values.data(),
                     entries.data());
  }
  return csr;
}

}  // namespace grb::detail
