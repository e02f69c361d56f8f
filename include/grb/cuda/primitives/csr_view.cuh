// The one device view of a compressed sparse row matrix, as every kernel takes it by value: the
// backend's operations (a matrix's rows), the engines (a graph's out- or in-edges: the
// neighbours of v are col_indices[begin(v), end(v))) and the validators.
#pragma once

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::cuda::detail {

/// T is the stored value's type; void (values null) for a pattern, such as a graph's edges.
template <class T>
struct CsrView {
  Index nrows = 0;
  Index ncols = 0;
  Offset nvals = 0;  // stored entries (a graph's edges): row_offsets[nrows], kept on the host
  const Offset* row_offsets = nullptr;
  const Index* col_indices = nullptr;
  const T* values = nullptr;

  __device__ Offset begin(Index i) const { return row_offsets[i]; }
  __device__ Offset end(Index i) const { return row_offsets[i + 1]; }
  __device__ Offset degree(Index i) const { return row_offsets[i + 1] - row_offsets[i]; }

  /// Position of (i, j) among the stored entries, or ~Offset(0) (the columns of a row ascend).
  __device__ Offset find(Index i, Index j) const {
    Offset low = row_offsets[i], high = row_offsets[i + 1];
    while (low < high) {
      const Offset middle = low + (high - low) / 2;
      if (col_indices[middle] < j) low = middle + 1;
      else high = middle;
    }
    return (low < row_offsets[i + 1] && col_indices[low] == j) ? low : ~Offset{0};
  }
};

/// A graph's edges: the pattern of its adjacency matrix.
using GraphView = CsrView<void>;

/// The view of a CSR that lives on the device.
template <class T>
CsrView<T> view_of(const Csr<T>& csr) {
  return CsrView<T>{csr.nrows,           csr.ncols,          csr.nvals(),
                    csr.row_offsets.data(), csr.col_indices.data(), csr.values.data()};
}

/// The pattern of a CSR that lives on the device (its values are not read).
template <class T>
GraphView pattern_of(const Csr<T>& csr) {
  return GraphView{csr.nrows, csr.ncols, csr.nvals(), csr.row_offsets.data(),
                   csr.col_indices.data(), nullptr};
}

}  // namespace grb::cuda::detail
