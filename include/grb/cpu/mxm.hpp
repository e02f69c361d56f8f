// mxm on the cpu: C<M> = accum(C, A ⊕.⊗ B), by one of two methods.
//   Gustavson: row i of A times B, accumulated in a dense row of ncols slots (stamped by row,
//     so nothing is cleared between rows); columns the mask forbids are never accumulated.
//     Work ~ flops = Σ over A(i,k) of |B(k,:)|.
//   dot: for each entry the mask allows, the sorted intersection of row i of A and column j of
//     B (early exit at the monoid's terminal). Work ~ Σ over M(i,j) of |A(i,:)| + |B(:,j)|.
//     This is the masked product of triangle counting, C<L> = L plus.pair L'.
// The dot method needs a mask that lists its entries (given, not complemented); the cheaper
// estimate wins.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu::detail {

template <class Semiring, class A, class B>
Csr<typename Semiring::value_type> gustavson(const Semiring& semiring, const Csr<A>& a,
                                             const Csr<B>& b, MatrixMask& mask) {
  using Z = typename Semiring::value_type;
  CsrBuilder<Z> result(a.nrows, b.ncols);
  Array<Z> sum(b.ncols, Backend::cpu);
  Array<Index> stamp(b.ncols, Backend::cpu);
  std::fill(stamp.begin(), stamp.end(), no_index);
  std::vector<Index> touched;
  for (Index i = 0; i < a.nrows; ++i) {
    touched.clear();
    if (!mask.allows_nothing()) {
      mask.select_row(i);
      for (Offset p = a.row_offsets[i]; p < a.row_offsets[i + 1]; ++p) {
        const Index k = a.col_indices[p];
        for (Offset q = b.row_offsets[k]; q < b.row_offsets[k + 1]; ++q) {
          const Index j = b.col_indices[q];
          if (!mask.allows(j)) continue;
          if (stamp[j] != i) {
            stamp[j] = i;
            sum[j] = static_cast<Z>(
                grb::detail::multiply(semiring.multiply, a.values[p], b.values[q], i, k, j));
            touched.push_back(j);
          } else if (!grb::detail::is_terminal(semiring.add, sum[j])) {
            sum[j] = static_cast<Z>(semiring.add(
                sum[j], static_cast<Z>(grb::detail::multiply(semiring.multiply, a.values[p],
                                                             b.values[q], i, k, j))));
          }
        }
      }
      std::sort(touched.begin(), touched.end());
    }
    for (Index j : touched) result.push(j, sum[j]);
    result.end_row(i);
  }
  return std::move(result).finish();
}

/// `b_columns` holds the columns of B as rows (B' in CSR form).
template <class Semiring, class A, class B>
Csr<typename Semiring::value_type> masked_dot(const Semiring& semiring, const Csr<A>& a,
                                              const Csr<B>& b_columns, const MatrixMask& mask) {
  using Z = typename Semiring::value_type;
  CsrBuilder<Z> result(a.nrows, b_columns.nrows);
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index j : mask.allowed_columns(i)) {
      Offset p = a.row_offsets[i], p_end = a.row_offsets[i + 1];
      Offset q = b_columns.row_offsets[j], q_end = b_columns.row_offsets[j + 1];
      bool found = false;
      Z sum{};
      while (p < p_end && q < q_end) {
        const Index ka = a.col_indices[p], kb = b_columns.col_indices[q];
        if (ka < kb) {
          ++p;
        } else if (kb < ka) {
          ++q;
        } else {
          const Z term = static_cast<Z>(
              grb::detail::multiply(semiring.multiply, a.values[p], b_columns.values[q], i, ka, j));
          sum = found ? static_cast<Z>(semiring.add(sum, term)) : term;
          found = true;
          if (grb::detail::is_terminal(semiring.add, sum)) break;
          ++p, ++q;
        }
      }
      if (found) result.push(j, sum);
    }
    result.end_row(i);
  }
  return std::move(result).finish();
}

}  // namespace grb::cpu::detail

namespace grb::cpu {

template <class C, class Mask, class Accum, class Semiring, class A, class B>
void mxm(Matrix<C>& c, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  const Index a_rows = desc.transpose_first ? a.ncols() : a.nrows();
  const Index a_cols = desc.transpose_first ? a.nrows() : a.ncols();
  const Index b_rows = desc.transpose_second ? b.ncols() : b.nrows();
  const Index b_cols = desc.transpose_second ? b.nrows() : b.ncols();
  if (a_cols != b_rows || c.nrows() != a_rows || c.ncols() != b_cols)
    detail::dimension_mismatch("mxm", "C (" + detail::shape(c.nrows(), c.ncols()) + ") = A (" +
                                          detail::shape(a_rows, a_cols) + ") * B (" +
                                          detail::shape(b_rows, b_cols) + ") (after transposes)");
  detail::MatrixMask view(mask, desc, c.nrows(), c.ncols(), "mxm");
  const Csr<A>& left = detail::rows_of(a, desc.transpose_first);
  const Csr<B>& right = detail::rows_of(b, desc.transpose_second);

  bool use_dot = false;
  if (view.lists_allowed()) {
    double flops = 0;
    for (Offset p = 0; p < left.nvals(); ++p) {
      const Index k = left.col_indices[p];
      flops += double(right.row_offsets[k + 1] - right.row_offsets[k]);
    }
    const double column_length = double(right.nvals()) / std::max<double>(1, b_cols);
    double dots = 0;
    for (Index i = 0; i < left.nrows; ++i)
      dots += double(view.allowed_columns(i).size()) *
              (double(left.row_offsets[i + 1] - left.row_offsets[i]) + column_length);
    use_dot = dots < flops;
  }
  auto t = use_dot ? detail::masked_dot(semiring, left, detail::rows_of(b, !desc.transpose_second), view)
                   : detail::gustavson(semiring, left, right, view);
  detail::write_back(c, view, accum, std::move(t), desc);
}

}  // namespace grb::cpu
