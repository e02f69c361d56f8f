// The final step every operation shares:  output<mask, replace> = accum(output, T).
//
// Z = T without an accumulator, else the union of output and T with accum(output, T) where both
// exist. Inside the mask the output becomes Z (so, without accum, positions where T is empty
// become empty); outside it the output keeps its entries, or loses them with desc.replace.
// T is always fresh storage, so the output may alias the mask or any input.
#pragma once

#include <type_traits>
#include <utility>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"

namespace grb::cpu::detail {

template <class Accum>
constexpr bool has_accum = !std::is_same_v<Accum, NoAccum>;

/// The value a position gets inside the mask where the output holds `old` and T holds `t`.
template <class W, class Accum, class Old, class New>
W accumulate(const Accum& accum, const Old& old, const New& t) {
  return static_cast<W>(accum(old, t));
}

template <class W, class Accum, class Z>
void write_back(Vector<W>& w, const VectorMask& mask, const Accum& accum, Vector<Z>&& t,
                const Descriptor& desc) {
  if (mask.allows_everything() && !has_accum<Accum>) {
    w = cast_vector<W>(std::move(t));
    grb::detail::Storage::settle_format(w);
    return;
  }
  const Index n = w.size();
  DenseResult<W> result(n);
  {
    DenseView<W> old(w);
    DenseView<Z> fresh(t);
    for (Index i = 0; i < n; ++i) {
      if (!mask.allows(i)) {
        if (!desc.replace && old.has(i)) result.set(i, old[i]);
        continue;
      }
      if constexpr (has_accum<Accum>) {
        if (old.has(i) && fresh.has(i)) result.set(i, accumulate<W>(accum, old[i], fresh[i]));
        else if (old.has(i)) result.set(i, old[i]);
        else if (fresh.has(i)) result.set(i, static_cast<W>(fresh[i]));
      } else {
        if (fresh.has(i)) result.set(i, static_cast<W>(fresh[i]));
      }
    }
  }
  w = std::move(result).finish();
  grb::detail::Storage::settle_format(w);
}

template <class C, class Accum, class Z>
void write_back(Matrix<C>& c, MatrixMask& mask, const Accum& accum, Csr<Z>&& t,
                const Descriptor& desc) {
  if (mask.allows_everything() && !has_accum<Accum>) {
    grb::detail::Storage::adopt(c, cast_csr<C>(std::move(t)));
    return;
  }
  const Csr<C>& old = c.csr();
  CsrBuilder<C> result(old.nrows, old.ncols);
  for (Index i = 0; i < old.nrows; ++i) {
    mask.select_row(i);
    Offset a = old.row_offsets[i], a_end = old.row_offsets[i + 1];
    Offset b = t.row_offsets[i], b_end = t.row_offsets[i + 1];
    // Merge the row's columns from the output (a) and from T (b).
    while (a < a_end || b < b_end) {
      const Index ja = a < a_end ? old.col_indices[a] : no_index;
      const Index jb = b < b_end ? t.col_indices[b] : no_index;
      const Index j = ja < jb ? ja : jb;
      const bool has_old = ja == j, has_new = jb == j;
      if (!mask.allows(j)) {
        if (!desc.replace && has_old) result.push(j, old.values[a]);
      } else if constexpr (has_accum<Accum>) {
        if (has_old && has_new) result.push(j, accumulate<C>(accum, old.values[a], t.values[b]));
        else if (has_old) result.push(j, old.values[a]);
        else result.push(j, static_cast<C>(t.values[b]));
      } else if (has_new) {
        result.push(j, static_cast<C>(t.values[b]));
      }
      if (has_old) ++a;
      if (has_new) ++b;
    }
    result.end_row(i);
  }
  grb::detail::Storage::adopt(c, std::move(result).finish());
}

}  // namespace grb::cpu::detail
