// extract on the cpu: T = u(I), A(I, J), or one column A(I, j) (a row with transpose_first).
// Lists may repeat indices and need not be sorted: T(p) = u(I(p)) for every position p.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu::detail {

/// T(p) = source(I(p)) where the source (random access: has(i), [i]) holds an entry.
template <class T, class Source>
Vector<T> gather(const Source& source, const IndexList& indices, Index count) {
  DenseResult<T> result(count);
  for (Index p = 0; p < count; ++p)
    if (source.has(indices(p))) result.set(p, source[indices(p)]);
  return std::move(result).finish();
}

}  // namespace grb::cpu::detail

namespace grb::cpu {

template <class W, class Mask, class Accum, class U>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
             const IndexList& indices, const Descriptor& desc) {
  detail::check_indices(indices, u.size(), "extract", "index");
  const Index count = indices.size(u.size());
  if (w.size() != count)
    detail::dimension_mismatch("extract", "w of size " + std::to_string(w.size()) + " for " +
                                              std::to_string(count) + " indices");
  const detail::VectorMask view(mask, desc, w.size(), "extract");
  auto t = detail::gather<U>(detail::DenseView<U>(u), indices, count);
  detail::write_back(w, view, accum, std::move(t), desc);
}

template <class C, class Mask, class Accum, class A>
void extract(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  const Csr<A>& source = detail::rows_of(a, desc.transpose_first);
  detail::check_indices(rows, source.nrows, "extract", "row index");
  detail::check_indices(cols, source.ncols, "extract", "column index");
  const Index nrows = rows.size(source.nrows), ncols = cols.size(source.ncols);
  if (c.nrows() != nrows || c.ncols() != ncols)
    detail::dimension_mismatch("extract", "C (" + detail::shape(c.nrows(), c.ncols()) + ") for " +
                                              detail::shape(nrows, ncols) + " indices");
  detail::MatrixMask view(mask, desc, c.nrows(), c.ncols(), "extract");
  // positions[column_offsets[j] ...]: the positions q with cols(q) == j, increasing.
  std::vector<Offset> column_offsets(std::size_t(source.ncols) + 1, 0);
  std::vector<Index> positions(ncols);
  for (Index q = 0; q < ncols; ++q) ++column_offsets[cols(q) + 1];
  for (Index j = 0; j < source.ncols; ++j) column_offsets[j + 1] += column_offsets[j];
  {
    std::vector<Offset> next(column_offsets.begin(), column_offsets.end() - 1);
    for (Index q = 0; q < ncols; ++q) positions[next[cols(q)]++] = q;
  }
  detail::CsrBuilder<A> t(nrows, ncols);
  std::vector<std::pair<Index, detail::Stored<A>>> row;
  for (Index p = 0; p < nrows; ++p) {
    const Index i = rows(p);
    row.clear();
    for (Offset e = source.row_offsets[i]; e < source.row_offsets[i + 1]; ++e) {
      const Index j = source.col_indices[e];
      for (Offset s = column_offsets[j]; s < column_offsets[j + 1]; ++s)
        row.emplace_back(positions[s], source.values[e]);
    }
    if (!cols.is_all())
      std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return std::get<0>(x) < std::get<0>(y); });
    for (const auto& [q, value] : row) t.push(q, static_cast<A>(value));
    t.end_row(p);
  }
  detail::write_back(c, view, accum, std::move(t).finish(), desc);
}

template <class W, class Mask, class Accum, class A>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, Index column, const Descriptor& desc) {
  const Index nrows = desc.transpose_first ? a.ncols() : a.nrows();
  const Index ncols = desc.transpose_first ? a.nrows() : a.ncols();
  if (column >= ncols)
    throw IndexOutOfBounds("extract: column " + std::to_string(column) + " outside a " +
                           detail::shape(nrows, ncols) + " matrix");
  detail::check_indices(rows, nrows, "extract", "row index");
  const Index count = rows.size(nrows);
  if (w.size() != count)
    detail::dimension_mismatch("extract", "w of size " + std::to_string(w.size()) + " for " +
                                              std::to_string(count) + " indices");
  const detail::VectorMask view(mask, desc, w.size(), "extract");
  // The column, as a row of the effective matrix's transpose.
  const Csr<A>& columns = detail::rows_of(a, !desc.transpose_first);
  Vector<A> entries(nrows, Backend::cpu);
  {
    const Offset begin = columns.row_offsets[column], end = columns.row_offsets[column + 1];
    grb::detail::Array<Index> indices(end - begin, Backend::cpu);
    grb::detail::Array<A> values(end - begin, Backend::cpu);
    std::copy(columns.col_indices.begin() + begin, columns.col_indices.begin() + end, indices.begin());
    std::copy(columns.values.begin() + begin, columns.values.begin() + end, values.begin());
    grb::detail::Storage::adopt_sparse(entries, std::move(indices), std::move(values));
  }
  auto t = detail::gather<A>(detail::DenseView<A>(entries), rows, count);
  detail::write_back(w, view, accum, std::move(t), desc);
}

}  // namespace grb::cpu
