// Claiming a vertex for the next level, and appending it to the next frontier: one atomic per
// vertex (frontier-queue), one per warp (ballot + popc), or one per block (a shared-memory queue).
#pragma once

#include <cstdint>

#include "grb/types.hpp"

namespace grb::bfs::frontier {

inline constexpr std::int32_t unreached = -1;

/// True for exactly one caller per vertex: the one whose atomicCAS moved level[v] from
/// unreached to `next_level`. The plain read first skips the atomic for vertices already seen,
/// which on power-law graphs are most of them.
__device__ inline bool claim(std::int32_t* level, Index v, std::int32_t next_level) {
  if (level[v] != unreached) return false;
  return atomicCAS(&level[v], unreached, next_level) == unreached;
}

__device__ inline unsigned lane_id() { return threadIdx.x & 31u; }

/// Appends `value` for every lane with `take`, with one atomicAdd on `tail` per warp: the
/// ballot says who takes, popc how many, and each lane's rank among the takers is the popc of
/// the takers below it. Every lane of the warp must call it.
__device__ inline void warp_enqueue(bool take, Index value, Index* queue, unsigned long long* tail) {
  const unsigned takers = __ballot_sync(0xffffffffu, take);
  if (takers == 0) return;
  const unsigned leader = __ffs(takers) - 1;
  unsigned long long base = 0;
  if (lane_id() == leader) base = atomicAdd(tail, static_cast<unsigned long long>(__popc(takers)));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (take) queue[base + __popc(takers & ((1u << lane_id()) - 1u))] = value;
}

/// A block-private next frontier in shared memory (PMPP 15.6). Pushes go to shared memory with a
/// shared atomic; when it is full they overflow straight to the global queue. flush() reserves
/// the block's slice of the global queue with one atomicAdd and copies it out coalesced.
/// Declare it __shared__; call clear() then __syncthreads() before the first push.
template <unsigned Capacity>
struct BlockQueue {
  Index items[Capacity];
  unsigned count;
  unsigned long long base;

  __device__ void clear() {
    if (threadIdx.x == 0) count = 0;
  }
  __device__ void push(Index v, Index* queue, unsigned long long* tail) {
    const unsigned slot = atomicAdd(&count, 1u);
    if (slot < Capacity) items[slot] = v;
    else queue[atomicAdd(tail, 1ull)] = v;
  }
  /// Every thread of the block calls it, after a __syncthreads that follows the last push.
  __device__ void flush(Index* queue, unsigned long long* tail) {
    const unsigned kept = count < Capacity ? count : Capacity;
    if (threadIdx.x == 0 && kept > 0) base = atomicAdd(tail, static_cast<unsigned long long>(kept));
    __syncthreads();
    for (unsigned i = threadIdx.x; i < kept; i += blockDim.x) queue[base + i] = items[i];
  }
};

}  // namespace grb::bfs::frontier
