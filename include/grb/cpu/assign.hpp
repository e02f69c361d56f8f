// assign on the cpu (GrB_assign): output(I)<mask> = accum(output(I), source).
//
// Z is the output with the region I (I x J for matrices) overwritten by the source (without an
// accumulator: including its empty positions, which empty the region) or folded into it by
// accum; then output<mask, replace> = Z. The mask spans the whole output, so replace clears
// entries outside the region too. A list that repeats an index folds every source entry sent
// there through the accumulator, in list order (as SuiteSparse does: FastSV's hooking step
// f(f(u)) min= ... relies on it); without an accumulator the last one wins.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu::detail {

/// in_list[i] = 1 where the list names i.
inline Array<std::uint8_t> listed(const IndexList& list, Index dimension) {
  Array<std::uint8_t> in_list(dimension, Backend::cpu);
  std::fill(in_list.begin(), in_list.end(), std::uint8_t{list.is_all()});
  if (!list.is_all())
    for (Index i : list.ids()) in_list[i] = 1;
  return in_list;
}

/// Vector assign; for_each_source(f) calls f(p, value) for each source entry, by position p.
template <class W, class Mask, class Accum, class ForEachSource>
void assign_vector(Vector<W>& w, const Mask& mask, const Accum& accum, Index source_size,
                   ForEachSource for_each_source, const IndexList& indices,
                   const Descriptor& desc) {
  check_indices(indices, w.size(), "assign", "index");
  if (source_size != indices.size(w.size()))
    dimension_mismatch("assign", "source of size " + std::to_string(source_size) + " for " +
                                     std::to_string(indices.size(w.size())) + " indices");
  const VectorMask view(mask, desc, w.size(), "assign");
  DenseResult<W> z(w.size());
  {
    const DenseView<W> old(w);
    const bool clear_region = !has_accum<Accum>;
    const Array<std::uint8_t> in_region =
        clear_region ? listed(indices, w.size()) : Array<std::uint8_t>(0, Backend::cpu);
    for (Index i = 0; i < w.size(); ++i)
      if (old.has(i) && !(clear_region && in_region[i])) z.set(i, old[i]);
  }
  for_each_source([&](Index p, const auto& value) {
    const Index i = indices(p);
    if constexpr (has_accum<Accum>) {
      if (z.has(i)) {
        z[i] = accumulate<W>(accum, z[i], value);
        return;
      }
    }
    z.set(i, static_cast<W>(value));
  });
  write_back(w, view, no_accum, std::move(z).finish(), desc);
}

/// Matrix assign; for_each_source(p, f) calls f(q, value) for row p of the source.
template <class S, class C, class Mask, class Accum, class ForEachSource>
void assign_matrix(Matrix<C>& c, const Mask& mask, const Accum& accum, Index source_nrows,
                   Index source_ncols, ForEachSource for_each_source, const IndexList& rows,
                   const IndexList& cols, const Descriptor& desc) {
  check_indices(rows, c.nrows(), "assign", "row index");
  check_indices(cols, c.ncols(), "assign", "column index");
  if (source_nrows != rows.size(c.nrows()) || source_ncols != cols.size(c.ncols()))
    dimension_mismatch("assign", "source of " + shape(source_nrows, source_ncols) + " for " +
                                     shape(rows.size(c.nrows()), cols.size(c.ncols())) +
                                     " indices");
  MatrixMask view(mask, desc, c.nrows(), c.ncols(), "assign");

  // The source entries, moved to their output rows (a stable counting sort keeps list order).
  std::vector<Offset> row_start(std::size_t(c.nrows()) + 1, 0);
  for (Index p = 0; p < source_nrows; ++p)
    for_each_source(p, [&](Index, const S&) { ++row_start[std::size_t(rows(p)) + 1]; });
  for (Index i = 0; i < c.nrows(); ++i) row_start[i + 1] += row_start[i];
  std::vector<Index> moved_columns(row_start.back());
  std::vector<Stored<S>> moved_values(row_start.back());
  {
    std::vector<Offset> next(row_start.begin(), row_start.end() - 1);
    for (Index p = 0; p < source_nrows; ++p)
      for_each_source(p, [&](Index q, const S& value) {
        const Offset slot = next[rows(p)]++;
        moved_columns[slot] = cols(q);
        moved_values[slot] = static_cast<Stored<S>>(value);
      });
  }

  const bool clear_region = !has_accum<Accum>;
  const Array<std::uint8_t> row_listed = listed(rows, c.nrows());
  const Array<std::uint8_t> column_listed = listed(cols, c.ncols());
  const Csr<C>& old = c.csr();
  // The row being built, by column: value and whether set (stamped with the row).
  Array<C> value(c.ncols(), Backend::cpu);
  Array<Index> stamp(c.ncols(), Backend::cpu);
  std::fill(stamp.begin(), stamp.end(), no_index);
  std::vector<Index> columns;
  CsrBuilder<C> z(c.nrows(), c.ncols());
  for (Index i = 0; i < c.nrows(); ++i) {
    columns.clear();
    for (Offset e = old.row_offsets[i]; e < old.row_offsets[i + 1]; ++e) {
      const Index j = old.col_indices[e];
      if (clear_region && row_listed[i] && column_listed[j]) continue;
      stamp[j] = i;
      value[j] = old.values[e];
      columns.push_back(j);
    }
    for (Offset e = row_start[i]; e < row_start[i + 1]; ++e) {
      const Index j = moved_columns[e];
      const S source = static_cast<S>(moved_values[e]);
      if (stamp[j] != i) {
        stamp[j] = i;
        value[j] = static_cast<C>(source);
        columns.push_back(j);
      } else if constexpr (has_accum<Accum>) {
        value[j] = accumulate<C>(accum, value[j], source);
      } else {
        value[j] = static_cast<C>(source);
      }
    }
    std::sort(columns.begin(), columns.end());
    for (Index j : columns) z.push(j, value[j]);
    z.end_row(i);
  }
  write_back(c, view, no_accum, std::move(z).finish(), desc);
}

}  // namespace grb::cpu::detail

namespace grb::cpu {

template <class W, class Mask, class Accum, class U>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
            const IndexList& indices, const Descriptor& desc) {
  // The source is read before the output is replaced, so w may be u.
  detail::assign_vector(
      w, mask, accum, u.size(), [&](auto&& f) { detail::for_each_entry(u, f); }, indices, desc);
}

template <class W, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& indices, const Descriptor& desc) {
  const Index count = indices.size(w.size());
  detail::assign_vector(
      w, mask, accum, count,
      [&](auto&& f) {
        for (Index p = 0; p < count; ++p) f(p, value);
      },
      indices, desc);
}

template <class C, class Mask, class Accum, class A>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  const Csr<A>& source = detail::rows_of(a, desc.transpose_first);
  detail::assign_matrix<A>(
      c, mask, accum, source.nrows, source.ncols,
      [&](Index p, auto&& f) {
        for (Offset e = source.row_offsets[p]; e < source.row_offsets[p + 1]; ++e)
          f(source.col_indices[e], source.values[e]);
      },
      rows, cols, desc);
}

template <class C, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  const Index ncols = cols.size(c.ncols());
  detail::assign_matrix<Scalar>(
      c, mask, accum, rows.size(c.nrows()), ncols,
      [&](Index, auto&& f) {
        for (Index q = 0; q < ncols; ++q) f(q, value);
      },
      rows, cols, desc);
}

}  // namespace grb::cpu
