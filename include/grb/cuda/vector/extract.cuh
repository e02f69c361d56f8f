// extract on vectors, w<mask> = accum(w, u(indices)), and a matrix's column or row: a gather
// from a dense source.
#pragma once

#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

template <class T>
__global__ void gather_kernel(Index count, IndexListView list, const T* values,
                              const std::uint8_t* present, T* t_values,
                              std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(p, count) {
    const Index i = list(static_cast<Index>(p));
    const bool has = present[i] != 0;
    t_present[p] = has ? 1 : 0;
    t_values[p] = has ? values[i] : T{};
  }
}

/// T(p) = source(list(p)) for a dense source.
template <class T>
DenseResult<T> gather(const T* values, const std::uint8_t* present, Index dimension,
                      const IndexList& indices, Index count) {
  DenseResult<T> t(count);
  if (count > 0) {
    const DeviceIndexList list(indices, dimension);
    gather_kernel<<<blocks_for(count), block_threads, 0, current_stream()>>>(
        count, list.view(), values, present, t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  return t;
}

}  // namespace grb::cuda::detail

namespace grb::cuda {

template <class W, class Mask, class Accum, class U>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
             const IndexList& indices, const Descriptor& desc) {
  grb::cuda::detail::check_indices(indices, u.size(), "extract", "index");
  const Index count = indices.size(u.size());
  if (w.size() != count)
    detail::dimension_mismatch("extract", "w of size " + std::to_string(w.size()) + " for " +
                                              std::to_string(count) + " indices");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "extract");
  const detail::DenseInput<U> input(u);
  detail::write_back(w, mask_view, accum, detail::gather(input.values(), input.present(), u.size(), indices,
                                                         count),
                     desc);
}

template <class W, class Mask, class Accum, class A>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, Index column, const Descriptor& desc) {
  const Index nrows = desc.transpose_first ? a.ncols() : a.nrows();
  const Index ncols = desc.transpose_first ? a.nrows() : a.ncols();
  if (column >= ncols)
    throw IndexOutOfBounds("extract: column " + std::to_string(column) + " outside a " +
                           detail::shape(nrows, ncols) + " matrix");
  grb::cuda::detail::check_indices(rows, nrows, "extract", "row index");
  const Index count = rows.size(nrows);
  if (w.size() != count)
    detail::dimension_mismatch("extract", "w of size " + std::to_string(w.size()) + " for " +
                                              std::to_string(count) + " indices");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "extract");
  // The column is a row of the effective matrix's transpose: densify it, then gather.
  const Csr<A>& columns = detail::rows_of(a, !desc.transpose_first);
  const Offset begin = detail::read_scalar(columns.row_offsets.data() + column);
  const Offset end = detail::read_scalar(columns.row_offsets.data() + column + 1);
  auto values = detail::device_array<A>(nrows);
  auto present = detail::device_array<std::uint8_t>(nrows);
  grb::detail::sparse_to_dense_cuda(sizeof(A), nrows, static_cast<Index>(end - begin),
                                    columns.col_indices.data() + begin,
                                    columns.values.data() + begin, values.data(), present.data());
  detail::write_back(w, mask_view, accum, detail::gather(values.data(), present.data(), nrows, rows, count),
                     desc);
}

}  // namespace grb::cuda
