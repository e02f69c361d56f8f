// apply on the cpu: T(i) = op(u(i)) entry by entry, same pattern as the input. The operator is
// unary, op(x), or index-unary, op(x, i, j) (GrB_IndexUnaryOp; j = 0 for vectors), as in
// FastSV's "each vertex's own id" or SSSP's "a path that starts here".
#pragma once

#include <string>
#include <type_traits>

#include "grb/cpu/entries.hpp"
#include "grb/cpu/mask.hpp"
#include "grb/cpu/write_back.hpp"

namespace grb::cpu::detail {

template <class Op, class X>
constexpr bool is_index_unary = std::is_invocable_v<const Op&, const X&, Index, Index>;

template <class Op, class X>
auto apply_result() {
  if constexpr (requires { typename Op::result_type; })
    return std::type_identity<typename Op::result_type>{};
  else if constexpr (is_index_unary<Op, X>)
    return std::type_identity<std::decay_t<std::invoke_result_t<const Op&, const X&, Index, Index>>>{};
  else
    return std::type_identity<std::decay_t<std::invoke_result_t<const Op&, const X&>>>{};
}
template <class Op, class X>
using apply_result_t = typename decltype(apply_result<Op, X>())::type;

template <class Op, class X>
auto apply_one(const Op& op, const X& x, Index i, Index j) {
  if constexpr (is_index_unary<Op, X>) return op(x, i, j);
  else return op(x);
}

}  // namespace grb::cpu::detail

namespace grb::cpu {

template <class W, class Mask, class Accum, class Op, class U>
void apply(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<U>& u,
           const Descriptor& desc) {
  using Z = detail::apply_result_t<Op, U>;
  if (w.size() != u.size())
    detail::dimension_mismatch("apply", "w (size " + std::to_string(w.size()) + ") and u (size " +
                                            std::to_string(u.size()) + ") differ");
  const detail::VectorMask view(mask, desc, w.size(), "apply");
  // T keeps u's format: the same pattern, new values.
  grb::detail::Array<Z> values(u.values().size(), Backend::cpu);
  Vector<Z> t(u.size(), Backend::cpu);
  if (u.format() == VectorFormat::sparse) {
    for (Index e = 0; e < u.nvals(); ++e) values[e] = static_cast<Z>(detail::apply_one(op, u.values()[e], u.indices()[e], Index{0}));
    grb::detail::Storage::adopt_sparse(t, u.indices().clone(), std::move(values));
  } else {
    for (Index i = 0; i < u.size(); ++i)
      if (u.present()[i]) values[i] = static_cast<Z>(detail::apply_one(op, u.values()[i], i, Index{0}));
    grb::detail::Storage::adopt_dense(t, std::move(values), u.present().clone(), u.nvals());
  }
  detail::write_back(w, view, accum, std::move(t), desc);
}

template <class C, class Mask, class Accum, class Op, class A>
void apply(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op, const Matrix<A>& a,
           const Descriptor& desc) {
  using Z = detail::apply_result_t<Op, A>;
  const Csr<A>& input = detail::rows_of(a, desc.transpose_first);
  if (c.nrows() != input.nrows || c.ncols() != input.ncols)
    detail::dimension_mismatch("apply", "C (" + detail::shape(c.nrows(), c.ncols()) + ") and A (" +
                                            detail::shape(input.nrows, input.ncols) +
                                            (desc.transpose_first ? ", transposed" : "") + ") differ");
  detail::MatrixMask view(mask, desc, c.nrows(), c.ncols(), "apply");
  grb::detail::Array<Z> values(input.nvals(), Backend::cpu);
  for (Index i = 0; i < input.nrows; ++i)
    for (Offset e = input.row_offsets[i]; e < input.row_offsets[i + 1]; ++e)
      values[e] = static_cast<Z>(detail::apply_one(op, input.values[e], i, input.col_indices[e]));
  Csr<Z> t{input.nrows, input.ncols, input.row_offsets.clone(), input.col_indices.clone(),
           std::move(values)};
  detail::write_back(c, view, accum, std::move(t), desc);
}

}  // namespace grb::cpu
