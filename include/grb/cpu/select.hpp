// select on the cpu: keeps the entries for which predicate(value, i, j) holds (j = 0 for vectors).
#pragma once

#include <string>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu {

template <class W, class Mask, class Accum, class Predicate, class U>
void select(Vector<W>& w, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Vector<U>& u, const Descriptor& desc) {
  if (w.size() != u.size())
    detail::dimension_mismatch("select", "w (size " + std::to_string(w.size()) + ") and u (size " +
                                             std::to_string(u.size()) + ") differ");
  const detail::VectorMask view(mask, desc, w.size(), "select");
  detail::SparseResult<U> t(u.size());
  detail::for_each_entry(u, [&](Index i, const U& value) {
    if (predicate(value, i, Index{0})) t.push(i, value);
  });
  detail::write_back(w, view, accum, std::move(t).finish(), desc);
}

template <class C, class Mask, class Accum, class Predicate, class A>
void select(Matrix<C>& c, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Matrix<A>& a, const Descriptor& desc) {
  const Csr<A>& input = detail::rows_of(a, desc.transpose_first);
  if (c.nrows() != input.nrows || c.ncols() != input.ncols)
    detail::dimension_mismatch("select", "C (" + detail::shape(c.nrows(), c.ncols()) + ") and A (" +
                                             detail::shape(input.nrows, input.ncols) +
                                             (desc.transpose_first ? ", transposed" : "") + ") differ");
  detail::MatrixMask view(mask, desc, c.nrows(), c.ncols(), "select");
  detail::CsrBuilder<A> t(input.nrows, input.ncols);
  for (Index i = 0; i < input.nrows; ++i) {
    for (Offset e = input.row_offsets[i]; e < input.row_offsets[i + 1]; ++e)
      if (predicate(input.values[e], i, input.col_indices[e]))
        t.push(input.col_indices[e], input.values[e]);
    t.end_row(i);
  }
  detail::write_back(c, view, accum, std::move(t).finish(), desc);
}

}  // namespace grb::cpu
