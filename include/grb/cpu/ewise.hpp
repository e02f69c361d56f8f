// Element-wise operations on the cpu: ewise_add (union of the patterns; op where both exist,
// the present value otherwise) and ewise_mult (intersection; op where both exist).
#pragma once

#include <string>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu::detail {

/// T = u op v over the union (`is_union`) or the intersection of the two patterns.
template <bool is_union, class Op, class U, class V>
auto ewise_vectors(const Op& op, const Vector<U>& u, const Vector<V>& v) {
  using Z = result_t<Op, U, V>;
  const Index n = u.size();
  if (u.format() == VectorFormat::sparse && v.format() == VectorFormat::sparse) {
    SparseResult<Z> result(n);
    Index a = 0, b = 0;
    while (a < u.nvals() || b < v.nvals()) {
      const Index ia = a < u.nvals() ? u.indices()[a] : no_index;
      const Index ib = b < v.nvals() ? v.indices()[b] : no_index;
      const Index i = ia < ib ? ia : ib;
      if (ia == i && ib == i) result.push(i, static_cast<Z>(op(u.values()[a], v.values()[b])));
      else if constexpr (is_union) {
        if (ia == i) result.push(i, static_cast<Z>(u.values()[a]));
        else result.push(i, static_cast<Z>(v.values()[b]));
      }
      if (ia == i) ++a;
      if (ib == i) ++b;
    }
    return std::move(result).finish();
  }
  const DenseView<U> left(u);
  const DenseView<V> right(v);
  DenseResult<Z> result(n);
  for (Index i = 0; i < n; ++i) {
    if (left.has(i) && right.has(i)) result.set(i, static_cast<Z>(op(left[i], right[i])));
    else if constexpr (is_union) {
      if (left.has(i)) result.set(i, static_cast<Z>(left[i]));
      else if (right.has(i)) result.set(i, static_cast<Z>(right[i]));
    }
  }
  return std::move(result).finish();
}

template <bool is_union, class Op, class A, class B>
auto ewise_matrices(const Op& op, const Csr<A>& a, const Csr<B>& b) {
  using Z = result_t<Op, A, B>;
  CsrBuilder<Z> result(a.nrows, a.ncols);
  for (Index i = 0; i < a.nrows; ++i) {
    Offset p = a.row_offsets[i], p_end = a.row_offsets[i + 1];
    Offset q = b.row_offsets[i], q_end = b.row_offsets[i + 1];
    while (p < p_end || q < q_end) {
      const Index ja = p < p_end ? a.col_indices[p] : no_index;
      const Index jb = q < q_end ? b.col_indices[q] : no_index;
      const Index j = ja < jb ? ja : jb;
      if (ja == j && jb == j) result.push(j, static_cast<Z>(op(a.values[p], b.values[q])));
      else if constexpr (is_union) {
        if (ja == j) result.push(j, static_cast<Z>(a.values[p]));
        else result.push(j, static_cast<Z>(b.values[q]));
      }
      if (ja == j) ++p;
      if (jb == j) ++q;
    }
    result.end_row(i);
  }
  return std::move(result).finish();
}

template <bool is_union, class W, class Mask, class Accum, class Op, class U, class V>
void ewise(const char* operation, Vector<W>& w, const Mask& mask, const Accum& accum,
           const Op& op, const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  if (u.size() != v.size() || w.size() != u.size())
    dimension_mismatch(operation, "w (size " + std::to_string(w.size()) + "), u (size " +
                                      std::to_string(u.size()) + ") and v (size " +
                                      std::to_string(v.size()) + ") differ");
  const VectorMask view(mask, desc, w.size(), operation);
  write_back(w, view, accum, ewise_vectors<is_union>(op, u, v), desc);
}

template <bool is_union, class C, class Mask, class Accum, class Op, class A, class B>
void ewise(const char* operation, Matrix<C>& c, const Mask& mask, const Accum& accum,
           const Op& op, const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  const Csr<A>& left = rows_of(a, desc.transpose_first);
  const Csr<B>& right = rows_of(b, desc.transpose_second);
  if (left.nrows != right.nrows || left.ncols != right.ncols || c.nrows() != left.nrows ||
      c.ncols() != left.ncols)
    dimension_mismatch(operation, "C (" + shape(c.nrows(), c.ncols()) + "), A (" +
                                      shape(left.nrows, left.ncols) + ") and B (" +
                                      shape(right.nrows, right.ncols) +
                                      ") differ (after transposes)");
  MatrixMask view(mask, desc, c.nrows(), c.ncols(), operation);
  write_back(c, view, accum, ewise_matrices<is_union>(op, left, right), desc);
}

}  // namespace grb::cpu::detail

namespace grb::cpu {

template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_add(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
               const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  detail::ewise<true>("ewise_add", w, mask, accum, op, u, v, desc);
}
template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_add(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
               const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  detail::ewise<true>("ewise_add", c, mask, accum, op, a, b, desc);
}
template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_mult(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
                const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  detail::ewise<false>("ewise_mult", w, mask, accum, op, u, v, desc);
}
template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_mult(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
                const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  detail::ewise<false>("ewise_mult", c, mask, accum, op, a, b, desc);
}

}  // namespace grb::cpu
