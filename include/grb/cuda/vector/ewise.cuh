// ewise_add, ewise_mult, apply and select on vectors: T is computed densely (one thread per
// position: vectors are at most 2^32 entries, and a dense pass is a few microseconds even at
// millions of entries) and ends in the shared write-back. Semantics are the cpu backend's
// (grb/cpu/*.hpp).
#pragma once

#include <type_traits>

#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

template <bool is_union, class Z, class U, class V, class Op>
__global__ void ewise_vector_kernel(Index size, const U* u_values, const std::uint8_t* u_present,
                                    const V* v_values, const std::uint8_t* v_present, Op op,
                                    Z* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(i, size) {
    const bool has_u = u_present[i] != 0, has_v = v_present[i] != 0;
    bool has = false;
    Z value{};
    if (has_u && has_v) has = true, value = static_cast<Z>(op(u_values[i], v_values[i]));
    else if constexpr (is_union) {
      if (has_u) has = true, value = static_cast<Z>(u_values[i]);
      else if (has_v) has = true, value = static_cast<Z>(v_values[i]);
    }
    t_present[i] = has ? 1 : 0;
    t_values[i] = value;
  }
}

template <bool is_union, class W, class Mask, class Accum, class Op, class U, class V>
void ewise(const char* operation, Vector<W>& w, const Mask& mask, const Accum& accum,
           const Op& op, const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  using Z = result_t<Op, U, V>;
  if (u.size() != v.size() || w.size() != u.size())
    dimension_mismatch(operation, "w (size " + std::to_string(w.size()) + "), u (size " +
                                      std::to_string(u.size()) + ") and v (size " +
                                      std::to_string(v.size()) + ") differ");
  const auto mask_view = vector_mask(mask, desc, w.size(), operation);
  const Index n = w.size();
  DenseResult<Z> t(n);
  if (n > 0) {
    const DenseInput<U> left(u);
    const DenseInput<V> right(v);
    ewise_vector_kernel<is_union, Z><<<blocks_for(n), block_threads, 0, current_stream()>>>(
        n, left.values(), left.present(), right.values(), right.present(), op, t.values.data(),
        t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  write_back(w, mask_view, accum, std::move(t), desc);
}

template <class Z, class U, class Op>
__global__ void apply_vector_kernel(Index size, const U* u_values, const std::uint8_t* u_present,
                                    Op op, Z* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(i, size) {
    const bool has = u_present[i] != 0;
    t_present[i] = has ? 1 : 0;
    t_values[i] = has ? static_cast<Z>(apply_one(op, u_values[i], static_cast<Index>(i), Index{0}))
                      : Z{};
  }
}

template <class U, class Predicate>
__global__ void select_vector_kernel(Index size, const U* u_values, const std::uint8_t* u_present,
                                     Predicate predicate, U* t_values, std::uint8_t* t_present) {
  GRB_GRID_STRIDE_LOOP(i, size) {
    const bool has =
        u_present[i] != 0 && predicate(u_values[i], static_cast<Index>(i), Index{0});
    t_present[i] = has ? 1 : 0;
    t_values[i] = has ? u_values[i] : U{};
  }
}

}  // namespace grb::cuda::detail

namespace grb::cuda {

template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_add(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
               const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  detail::ewise<true>("ewise_add", w, mask, accum, op, u, v, desc);
}

template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_mult(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
                const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  detail::ewise<false>("ewise_mult", w, mask, accum, op, u, v, desc);
}

template <class W, class Mask, class Accum, class Op, class U>
void apply(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<U>& u,
           const Descriptor& desc) {
  using Z = detail::apply_result_t<Op, U>;
  if (w.size() != u.size())
    detail::dimension_mismatch("apply", "w (size " + std::to_string(w.size()) + ") and u (size " +
                                            std::to_string(u.size()) + ") differ");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "apply");
  detail::DenseResult<Z> t(u.size());
  if (u.size() > 0) {
    const detail::DenseInput<U> input(u);
    detail::apply_vector_kernel<Z>
        <<<detail::blocks_for(u.size()), detail::block_threads, 0, detail::current_stream()>>>(
            u.size(), input.values(), input.present(), op, t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  detail::write_back(w, mask_view, accum, std::move(t), desc);
}

template <class W, class Mask, class Accum, class Predicate, class U>
void select(Vector<W>& w, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Vector<U>& u, const Descriptor& desc) {
  if (w.size() != u.size())
    detail::dimension_mismatch("select", "w (size " + std::to_string(w.size()) + ") and u (size " +
                                             std::to_string(u.size()) + ") differ");
  const auto mask_view = detail::vector_mask(mask, desc, w.size(), "select");
  detail::DenseResult<U> t(u.size());
  if (u.size() > 0) {
    const detail::DenseInput<U> input(u);
    detail::select_vector_kernel<<<detail::blocks_for(u.size()), detail::block_threads, 0,
                                   detail::current_stream()>>>(
        u.size(), input.values(), input.present(), predicate, t.values.data(), t.present.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  detail::write_back(w, mask_view, accum, std::move(t), desc);
}

}  // namespace grb::cuda
