// reduce on the cpu: a monoid's sum of a vector's or matrix's entries, or of each matrix row.
// Sums stop at the monoid's terminal value (lor at true, any at the first entry).
#pragma once

#include <string>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu {

template <class Monoid, class U>
typename Monoid::value_type reduce(const Monoid& monoid, const Vector<U>& u) {
  using Z = typename Monoid::value_type;
  Z sum = monoid.identity();
  if (u.format() == VectorFormat::sparse) {
    for (Index e = 0; e < u.nvals(); ++e) {
      sum = static_cast<Z>(monoid(sum, static_cast<Z>(u.values()[e])));
      if (grb::detail::is_terminal(monoid, sum)) break;
    }
  } else {
    for (Index i = 0; i < u.size(); ++i) {
      if (!u.present()[i]) continue;
      sum = static_cast<Z>(monoid(sum, static_cast<Z>(u.values()[i])));
      if (grb::detail::is_terminal(monoid, sum)) break;
    }
  }
  return sum;
}

template <class Monoid, class A>
typename Monoid::value_type reduce(const Monoid& monoid, const Matrix<A>& a) {
  using Z = typename Monoid::value_type;
  Z sum = monoid.identity();
  const Csr<A>& csr = a.csr();
  for (Offset e = 0; e < csr.nvals(); ++e) {
    sum = static_cast<Z>(monoid(sum, static_cast<Z>(csr.values[e])));
    if (grb::detail::is_terminal(monoid, sum)) break;
  }
  return sum;
}

template <class W, class Mask, class Accum, class Monoid, class A>
void reduce(Vector<W>& w, const Mask& mask, const Accum& accum, const Monoid& monoid,
            const Matrix<A>& a, const Descriptor& desc) {
  using Z = typename Monoid::value_type;
  const Csr<A>& input = detail::rows_of(a, desc.transpose_first);
  if (w.size() != input.nrows)
    detail::dimension_mismatch("reduce", "w (size " + std::to_string(w.size()) + ") for A (" +
                                             detail::shape(input.nrows, input.ncols) +
                                             (desc.transpose_first ? ", transposed" : "") + ")");
  const detail::VectorMask view(mask, desc, w.size(), "reduce");
  // Rows without entries have no sum (not the identity), as GrB_Matrix_reduce specifies.
  detail::SparseResult<Z> t(input.nrows);
  for (Index i = 0; i < input.nrows; ++i) {
    const Offset begin = input.row_offsets[i], end = input.row_offsets[i + 1];
    if (begin == end || !view.allows(i)) continue;
    Z sum = static_cast<Z>(input.values[begin]);
    for (Offset e = begin + 1; e < end && !grb::detail::is_terminal(monoid, sum); ++e)
      sum = static_cast<Z>(monoid(sum, static_cast<Z>(input.values[e])));
    t.push(i, sum);
  }
  detail::write_back(w, view, accum, std::move(t).finish(), desc);
}

}  // namespace grb::cpu
