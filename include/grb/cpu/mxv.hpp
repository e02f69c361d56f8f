// mxv (w = A u) and vxm (w = u' A) on the cpu, by push or pull.
//
// Both are one product  w(i) = ⊕_k M(i, k) ⊗ u(k)  over an effective matrix M (A, A' or their
// transposes); what differs is the operand order handed to the multiply operator and the
// positional indices (mxv: A(i,k) * u(k); vxm: u(k) * A(k,j)).
//   push: for each entry u(k), scatter over row k of M' (the rows of the input's entries), into
//         a dense accumulator; masked-out outputs are skipped. Work ~ edges out of u.
//   pull: for each output i the mask allows, a dot product of row i of M with u (densified),
//         stopping at the monoid's terminal value (lor, any, min of -inf ...). Work ~ edges into
//         the allowed outputs.
// The automatic choice compares those two estimates (direction optimization, as in Beamer's BFS).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu::detail {

/// Whether to push, given the descriptor, the input's entries and the outputs the mask allows.
inline bool choose_push(MxvStrategy strategy, Index input_nvals, Index input_size,
                        Index allowed_outputs, Index output_size, Offset matrix_nvals) {
  if (strategy == MxvStrategy::push) return true;
  if (strategy == MxvStrategy::pull) return false;
  const double nvals = double(matrix_nvals);
  const double push_work = double(input_nvals) * nvals / std::max<double>(1, input_size);
  const double pull_work = double(allowed_outputs) * nvals / std::max<double>(1, output_size);
  return push_work < pull_work;
}

/// T = M ⊕.⊗ u restricted to the outputs `mask` allows. `pull_rows` holds the rows of M (one
/// per output), `push_rows` the rows of M' (one per input entry); only the chosen one is read.
/// product(matrix_value, vector_value, output, k) applies the multiply operator.
template <class Semiring, class A, class U, class GetPullRows, class GetPushRows, class Product>
Vector<typename Semiring::value_type> semiring_product(
    const Semiring& semiring, const Vector<U>& u, Index output_size, Offset matrix_nvals,
    GetPullRows get_pull_rows, GetPushRows get_push_rows, const VectorMask& mask,
    MxvStrategy strategy, Product product) {
  using Z = typename Semiring::value_type;
  const auto& add = semiring.add;
  DenseResult<Z> result(output_size);
  if (mask.allowed_count() == 0 || u.nvals() == 0) return std::move(result).finish();

  if (choose_push(strategy, u.nvals(), u.size(), mask.allowed_count(), output_size,
                  matrix_nvals)) {
    const Csr<A>& rows = get_push_rows();
    for_each_entry(u, [&](Index k, const U& u_value) {
      for (Offset e = rows.row_offsets[k]; e < rows.row_offsets[k + 1]; ++e) {
        const Index i = rows.col_indices[e];
        if (!mask.allows(i)) continue;
        if (!result.has(i)) {
          result.set(i, static_cast<Z>(product(rows.values[e], u_value, i, k)));
        } else if (!grb::detail::is_terminal(add, result[i])) {
          result[i] = static_cast<Z>(add(result[i], static_cast<Z>(product(rows.values[e], u_value, i, k))));
        }
      }
    });
    return std::move(result).finish();
  }

  const Csr<A>& rows = get_pull_rows();
  const DenseView<U> input(u);
  for (Index i = 0; i < output_size; ++i) {
    if (!mask.allows(i)) continue;
    bool found = false;
    Z sum{};
    for (Offset e = rows.row_offsets[i]; e < rows.row_offsets[i + 1]; ++e) {
      const Index k = rows.col_indices[e];
      if (!input.has(k)) continue;
      const Z term = static_cast<Z>(product(rows.values[e], input[k], i, k));
      sum = found ? static_cast<Z>(add(sum, term)) : term;
      found = true;
      if (grb::detail::is_terminal(add, sum)) break;
    }
    if (found) result.set(i, sum);
  }
  return std::move(result).finish();
}

}  // namespace grb::cpu::detail

namespace grb::cpu {

template <class W, class Mask, class Accum, class Semiring, class A, class U>
void mxv(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Vector<U>& u, const Descriptor& desc) {
  const bool transposed = desc.transpose_first;
  const Index nrows = transposed ? a.ncols() : a.nrows();
  const Index ncols = transposed ? a.nrows() : a.ncols();
  if (u.size() != ncols || w.size() != nrows)
    detail::dimension_mismatch("mxv", "w (size " + std::to_string(w.size()) + ") = A (" +
                                          detail::shape(nrows, ncols) + (transposed ? ", transposed" : "") +
                                          ") * u (size " + std::to_string(u.size()) + ")");
  const detail::VectorMask view(mask, desc, w.size(), "mxv");
  auto t = detail::semiring_product<Semiring, A>(
      semiring, u, nrows, a.nvals(), [&]() -> const Csr<A>& { return detail::rows_of(a, transposed); },
      [&]() -> const Csr<A>& { return detail::rows_of(a, !transposed); }, view, desc.strategy,
      [&](const A& a_value, const U& u_value, Index i, Index k) {
        return grb::detail::multiply(semiring.multiply, a_value, u_value, i, k, Index{0});
      });
  detail::write_back(w, view, accum, std::move(t), desc);
}

template <class W, class Mask, class Accum, class Semiring, class U, class A>
void vxm(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Vector<U>& u, const Matrix<A>& a, const Descriptor& desc) {
  const bool transposed = desc.transpose_second;
  const Index nrows = transposed ? a.ncols() : a.nrows();
  const Index ncols = transposed ? a.nrows() : a.ncols();
  if (u.size() != nrows || w.size() != ncols)
    detail::dimension_mismatch("vxm", "w (size " + std::to_string(w.size()) + ") = u (size " +
                                          std::to_string(u.size()) + ") * A (" +
                                          detail::shape(nrows, ncols) + (transposed ? ", transposed" : "") + ")");
  const detail::VectorMask view(mask, desc, w.size(), "vxm");
  // Output j pulls over column j of the effective matrix; input k pushes over its row k.
  auto t = detail::semiring_product<Semiring, A>(
      semiring, u, ncols, a.nvals(), [&]() -> const Csr<A>& { return detail::rows_of(a, !transposed); },
      [&]() -> const Csr<A>& { return detail::rows_of(a, transposed); }, view, desc.strategy,
      [&](const A& a_value, const U& u_value, Index j, Index k) {
        return grb::detail::multiply(semiring.multiply, u_value, a_value, Index{0}, k, j);
      });
  detail::write_back(w, view, accum, std::move(t), desc);
}

}  // namespace grb::cpu
