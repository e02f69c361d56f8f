// Block collectives the kernels share: a block's appends to a global list with one global atomic
// per block, either staged in shared memory (StagedList) or by a block-wide scan of what each
// thread takes (block_take_slots).
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "grb/cuda/primitives/warp.cuh"
#include "grb/types.hpp"

namespace grb::cuda::detail {

/// A block's staged append to a global list (PMPP 15.6): items collect in shared memory, and
/// flush() reserves the block's slice of the global list with one atomicAdd and copies it out
/// coalesced. Items that do not fit go straight to the global list. Two ways in: push(), for a
/// thread on its own (one shared atomic an item, divergent callers allowed), and append(), for
/// a whole warp with N items a lane (one shared atomic a warp, every lane calls).
/// Declare it __shared__; clear() then __syncthreads() before the first item.
template <unsigned Capacity, class T = Index>
struct StagedList {
  T items[Capacity];
  unsigned staged;  // may pass Capacity: the items past it went to the global list
  unsigned long long base;

  __device__ void clear() {
    if (threadIdx.x == 0) staged = 0;
  }
  __device__ void push(const T& value, T* list, unsigned long long* tail) {
    const unsigned slot = atomicAdd(&staged, 1u);
    if (slot < Capacity) items[slot] = value;
    else list[atomicAdd(tail, 1ull)] = value;
  }
  template <int N>
  __device__ void append(const T (&values)[N], const bool (&take)[N], T* list,
                         unsigned long long* tail) {
    const Reservation r = warp_reserve(take, staged, Capacity);
    if (r.total == 0) return;
    unsigned long long overflow = 0;
    if (r.fit < r.total && lane_id() == 0)
      overflow = atomicAdd(tail, static_cast<unsigned long long>(r.total - r.fit));
    overflow = __shfl_sync(full_warp, overflow, 0);
    unsigned k = r.rank;
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (take[i]) {
        if (k < r.fit) items[r.first + k] = values[i];
        else list[overflow + (k - r.fit)] = values[i];
        ++k;
      }
  }
  /// Every thread of the block calls it, after a __syncthreads that follows the last item.
  __device__ void flush(T* list, unsigned long long* tail) {
    const unsigned kept = staged < Capacity ? staged : Capacity;
    if (threadIdx.x == 0 && kept > 0) base = atomicAdd(tail, static_cast<unsigned long long>(kept));
    __syncthreads();
    for (unsigned i = threadIdx.x; i < kept; i += blockDim.x) list[base + i] = items[i];
  }
};

/// `takes` slots of a global list for each thread of the block, with one call of
/// `take(total)` (which returns the first of `total` slots, typically by one atomicAdd) for the
/// whole block: the thread's first slot. Every thread of the block (Threads of them) calls it,
/// as a step of whole-block strides. `block_end` (if given): the slot after the block's last,
/// for every thread (0 when the block took none).
template <unsigned Threads, class Take>
__device__ unsigned long long block_take_slots(unsigned takes, Take take,
                                               unsigned long long* block_end = nullptr) {
  using Scan = cub::BlockScan<unsigned, Threads>;
  __shared__ typename Scan::TempStorage storage;
  __shared__ unsigned long long first;
  unsigned rank = 0, total = 0;
  Scan(storage).ExclusiveSum(takes, rank, total);
  if (threadIdx.x == 0 && total > 0) first = take(total);
  __syncthreads();
  const unsigned long long slot = first + rank;
  if (block_end) *block_end = total > 0 ? first + total : 0;
  __syncthreads();  // `storage` and `first` are the next step's
  return slot;
}

}  // namespace grb::cuda::detail
