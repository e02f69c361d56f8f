// The product term of mxv / vxm, A(o,k) * u(k) or u(k) * A(k,o), as the kernels evaluate it,
// and the warp shuffle of any value that their reductions use.
#pragma once

#include <cstring>
#include <type_traits>

#include "grb/cuda/views.cuh"

namespace grb::cuda::detail {

/// The multiply of mxv (A(o,k) * u(k)) or vxm (u(k) * A(k,o)), positional or not.
template <bool is_vxm, class Multiply>
struct Product {
  /// Whether the product reads u's values: positional operators (a BFS's secondi) and first or
  /// second of the matrix's value do not, so an input made dense for them needs no values.
  static constexpr bool reads_input =
      is_vxm ? grb::detail::uses_first<Multiply>() : grb::detail::uses_second<Multiply>();
  Multiply multiply;
  template <class A, class U>
  __device__ auto operator()(const A& a, const U& u, Index o, Index k) const {
    if constexpr (is_vxm) return grb::detail::multiply(multiply, u, a, Index{0}, k, o);
    else return grb::detail::multiply(multiply, a, u, o, k, Index{0});
  }
};

template <class Prod>
constexpr bool reads_input() {
  if constexpr (requires { Prod::reads_input; }) return Prod::reads_input;
  else return true;
}

/// u(k) as the product's operand: never loaded where the product does not read it (the input may
/// then have no values: DenseInput).
template <class Prod, class U>
__device__ U input_at(const U* u_values, Index k) {
  if constexpr (reads_input<Prod>()) return u_values[k];
  else return U{};
}

/// __shfl_down_sync for any trivially copyable value (user types too), 4 bytes at a time, within
/// aligned groups of `width` lanes; `lanes`: the lanes that take part (all of them call it).
template <class T>
__device__ T shuffle_down(const T& value, unsigned offset, int width = 32,
                          unsigned lanes = 0xffffffffu) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned bits[words] = {};
  memcpy(bits, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w) bits[w] = __shfl_down_sync(lanes, bits[w], offset, width);
  T result;
  memcpy(&result, bits, sizeof(T));
  return result;
}

}  // namespace grb::cuda::detail
