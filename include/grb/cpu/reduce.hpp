// reduce on the cpu: a monoid's sum of a vector's or matrix's entries, or of each matrix row.
// Sums stop at the monoid's terminal value (lor at true, any at the first entry).
#pragma once

#include <string>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu {

namespace detail {

/// Folds values into a sum that starts at the first one (so `any` returns an entry, not its
/// identity); the identity only when there is none. add(value) returns false to stop early.
template <class Monoid>
class Fold {
 public:
  using Z = typename Monoid::value_type;
  explicit Fold(const Monoid& monoid) : monoid_(monoid) {}
  template <class X>
  bool add(const X& value) {
    sum_ = found_ ? static_cast<Z>(monoid_(sum_, static_cast<Z>(value))) : static_cast<Z>(value);
    found_ = true;
    return !grb::detail::is_terminal(monoid_, sum_);
  }
  Z result() const { return found_ ? sum_ : monoid_.identity(); }

 private:
  const Monoid& monoid_;
  bool found_ = false;
  Z sum_{};
};

}  // namespace detail

template <class Monoid, class U>
typename Monoid::value_type reduce(const Monoid& monoid, const Vector<U>& u) {
  detail::Fold fold(monoid);
  if (u.format() == VectorFormat::sparse) {
    for (Index e = 0; e < u.nvals() && fold.add(u.values()[e]); ++e) {
    }
  } else {
    for (Index i = 0; i < u.size(); ++i)
      if (u.present()[i] && !fold.add(u.values()[i])) break;
  }
  return fold.result();
}

template <class Monoid, class A>
typename Monoid::value_type reduce(const Monoid& monoid, const Matrix<A>& a) {
  detail::Fold fold(monoid);
  const Csr<A>& csr = a.csr();
  for (Offset e = 0; e < csr.nvals() && fold.add(csr.values[e]); ++e) {
  }
  return fold.result();
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
    detail::Fold fold(monoid);
    for (Offset e = begin; e < end && fold.add(input.values[e]); ++e) {
    }
    t.push(i, fold.result());
  }
  detail::write_back(w, view, accum, std::move(t).finish(), desc);
}

}  // namespace grb::cpu
