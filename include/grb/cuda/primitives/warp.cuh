// Warp collectives the kernels share: lane numbering, scans and reductions by shuffles, and
// appends to a list with one atomic per warp. Every lane of the warp calls each of them.
#pragma once

#include <cstdint>

#include "grb/types.hpp"

namespace grb::cuda::detail {

inline constexpr unsigned full_warp = 0xffffffffu;  // a mask of all 32 lanes

__device__ inline unsigned lane_id() { return threadIdx.x & 31u; }

/// The warp's number in the grid, and how many warps the grid has.
__device__ inline std::uint64_t global_warp() {
  return (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
}
__device__ inline std::uint64_t warp_count() {
  return std::uint64_t(gridDim.x) * blockDim.x / 32;
}

/// The sum of `value` over this lane and the lanes below it.
template <class T>
__device__ inline T warp_inclusive_sum(T value) {
#pragma unroll
  for (unsigned distance = 1; distance < 32; distance *= 2) {
    const T below = __shfl_up_sync(full_warp, value, distance);
    if (lane_id() >= distance) value += below;
  }
  return value;
}

/// `value` combined over the warp with `op` (associative and commutative), in lane 0.
template <class T, class Op>
__device__ inline T warp_reduce(T value, Op op) {
#pragma unroll
  for (unsigned offset = 16; offset > 0; offset /= 2)
    value = op(value, __shfl_down_sync(full_warp, value, offset));
  return value;
}

/// This lane's slot in a global list, for every lane with `take` (any value for the others),
/// with one atomicAdd on `tail` per warp: the ballot says who takes, popc how many, and each
/// lane's rank among the takers is the popc of the takers below it.
__device__ inline unsigned long long warp_take_slot(bool take, unsigned long long* tail) {
  const unsigned takers = __ballot_sync(full_warp, take);
  if (takers == 0) return 0;
  const unsigned leader = __ffs(takers) - 1;
  unsigned long long base = 0;
  if (lane_id() == leader) base = atomicAdd(tail, static_cast<unsigned long long>(__popc(takers)));
  return __shfl_sync(full_warp, base, leader) + __popc(takers & ((1u << lane_id()) - 1u));
}

/// Appends `value` for every lane with `take` to `list` (warp_take_slot).
template <class T>
__device__ inline void warp_append(bool take, const T& value, T* list, unsigned long long* tail) {
  const unsigned long long slot = warp_take_slot(take, tail);
  if (take) list[slot] = value;
}

/// A warp's share of a block's staged list (StagedList): the items with take[i], of every lane,
/// numbered in lane order (`total`, and this lane's first number `rank`), and the slots one
/// shared atomic on `staged` reserved for them from `first`: the first `fit` numbers have a
/// staged slot below `capacity`, the rest overflow.
struct Reservation {
  unsigned total = 0, rank = 0, first = 0, fit = 0;
};

template <int N>
__device__ Reservation warp_reserve(const bool (&take)[N], unsigned& staged, unsigned capacity) {
  Reservation r;
  unsigned count = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) count += take[i];
  const unsigned inclusive = warp_inclusive_sum(count);
  r.total = __shfl_sync(full_warp, inclusive, 31);
  r.rank = inclusive - count;
  if (r.total == 0) return r;
  if (lane_id() == 0) r.first = atomicAdd(&staged, r.total);
  r.first = __shfl_sync(full_warp, r.first, 0);
  r.fit = r.first < capacity ? (r.total < capacity - r.first ? r.total : capacity - r.first) : 0u;
  return r;
}

}  // namespace grb::cuda::detail
