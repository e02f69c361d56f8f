// assign on the cpu (GrB_assign): output(I)<mask> = accum(output(I), source).
//
// Z is the output with the region I (I x J for matrices) overwritten by the source (without an
// accumulator: including its empty positions) or combined with it by accum; then
// output<mask, replace> = Z. The mask spans the whole output, so replace clears entries outside
// the region too. An index listed twice takes the source value at its last position.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu::detail {

/// position[i] = the last position p with list(p) == i, or no_index when i is not listed.
inline Array<Index> list_positions(const IndexList& list, Index dimension) {
  Array<Index> position(dimension, Backend::cpu);
  if (list.is_all()) {
    for (Index i = 0; i < dimension; ++i) position[i] = i;
  } else {
    std::fill(position.begin(), position.end(), no_index);
    for (std::size_t p = 0; p < list.ids().size(); ++p) position[list.ids()[p]] = Index(p);
  }
  return position;
}

/// Vector assign; source_has(p) / source_value(p) read the source at position p of the list.
template <class W, class Mask, class Accum, class Has, class Value>
void assign_vector(Vector<W>& w, const Mask& mask, const Accum& accum, Index source_size,
                   Has source_has, Value source_value, const IndexList& indices,
                   const Descriptor& desc) {
  check_indices(indices, w.size(), "assign", "index");
  if (source_size != indices.size(w.size()))
    dimension_mismatch("assign", "source of size " + std::to_string(source_size) + " for " +
                                     std::to_string(indices.size(w.size())) + " indices");
  const VectorMask view(mask, desc, w.size(), "assign");
  const Array<Index> position = list_positions(indices, w.size());
  DenseResult<W> z(w.size());
  {
    const DenseView<W> old(w);
    for (Index i = 0; i < w.size(); ++i) {
      const Index p = position[i];
      if (p == no_index) {
        if (old.has(i)) z.set(i, old[i]);
      } else if constexpr (has_accum<Accum>) {
        if (old.has(i) && source_has(p)) z.set(i, accumulate<W>(accum, old[i], source_value(p)));
        else if (old.has(i)) z.set(i, old[i]);
        else if (source_has(p)) z.set(i, static_cast<W>(source_value(p)));
      } else if (source_has(p)) {
        z.set(i, static_cast<W>(source_value(p)));
      }
    }
  }
  write_back(w, view, no_accum, std::move(z).finish(), desc);
}

/// Matrix assign; for_each_source(p, f) calls f(q, value) for row p of the source.
template <class C, class Mask, class Accum, class ForEachSource>
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
  const Array<Index> row_position = list_positions(rows, c.nrows());
  const Array<Index> col_position = list_positions(cols, c.ncols());
  const Csr<C>& old = c.csr();
  // Old values inside the region, by column, for the row being built (valid where stamped).
  Array<C> old_value(c.ncols(), Backend::cpu);
  Array<Index> old_stamp(c.ncols(), Backend::cpu);
  std::fill(old_stamp.begin(), old_stamp.end(), no_index);
  CsrBuilder<C> z(c.nrows(), c.ncols());
  std::vector<std::pair<Index, Stored<C>>> row;
  for (Index i = 0; i < c.nrows(); ++i) {
    const Index p = row_position[i];
    row.clear();
    for (Offset e = old.row_offsets[i]; e < old.row_offsets[i + 1]; ++e) {
      const Index j = old.col_indices[e];
      if (p == no_index || col_position[j] == no_index) {
        row.emplace_back(j, old.values[e]);
      } else if constexpr (has_accum<Accum>) {
        old_value[j] = old.values[e];
        old_stamp[j] = i;
      }
    }
    if (p != no_index) {
      for_each_source(p, [&](Index q, const auto& value) {
        const Index j = cols(q);
        if (col_position[j] != q) return;
        if (has_accum<Accum> && old_stamp[j] == i) {
          if constexpr (has_accum<Accum>) row.emplace_back(j, accumulate<C>(accum, old_value[j], value));
          old_stamp[j] = no_index;  // combined: not kept again below
        } else {
          row.emplace_back(j, static_cast<C>(value));
        }
      });
      if constexpr (has_accum<Accum>) {
        for (Offset e = old.row_offsets[i]; e < old.row_offsets[i + 1]; ++e) {
          const Index j = old.col_indices[e];
          if (old_stamp[j] == i) row.emplace_back(j, old.values[e]);
        }
      }
      std::sort(row.begin(), row.end(),
                [](const auto& x, const auto& y) { return std::get<0>(x) < std::get<0>(y); });
    }
    for (const auto& [j, value] : row) z.push(j, static_cast<C>(value));
    z.end_row(i);
  }
  write_back(c, view, no_accum, std::move(z).finish(), desc);
}

}  // namespace grb::cpu::detail

namespace grb::cpu {

template <class W, class Mask, class Accum, class U>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
            const IndexList& indices, const Descriptor& desc) {
  const detail::DenseView<U> source(u);
  detail::assign_vector(
      w, mask, accum, u.size(), [&](Index p) { return source.has(p); },
      [&](Index p) { return source[p]; }, indices, desc);
}

template <class W, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& indices, const Descriptor& desc) {
  detail::assign_vector(
      w, mask, accum, indices.size(w.size()), [](Index) { return true; },
      [&](Index) { return value; }, indices, desc);
}

template <class C, class Mask, class Accum, class A>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  const Csr<A>& source = detail::rows_of(a, desc.transpose_first);
  detail::assign_matrix(
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
  detail::assign_matrix(
      c, mask, accum, rows.size(c.nrows()), ncols,
      [&](Index, auto&& f) {
        for (Index q = 0; q < ncols; ++q) f(q, value);
      },
      rows, cols, desc);
}

}  // namespace grb::cpu
