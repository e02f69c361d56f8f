// The device side of one worklist round, shared by the worklist engines' kernels (worklist.cu,
// light_heavy.cu): distance bits, queue slots, the relaxation of one edge, the far pile's
// minimum and split. See worklist.cuh for the rings of queues these walk.
#pragma once

#include <cooperative_groups.h>

#include <cmath>
#include <cuda/functional>

#include "sssp/cuda/worklist.cuh"

namespace grb::sssp::kernels {

namespace cg = cooperative_groups;

inline constexpr int block = 256;
inline constexpr Offset warp_degree = 32;
inline constexpr Offset hub_degree = 4096;
inline constexpr unsigned max_batch = 64;
inline constexpr unsigned long long infinity_bits = 0x7ff0000000000000ull;

__device__ inline unsigned long long bits_of(double distance) {
  return static_cast<unsigned long long>(__double_as_longlong(distance));
}
__device__ inline double distance_of(unsigned long long bits) {
  return __longlong_as_double(static_cast<long long>(bits));
}

/// A slot at the end of a queue, with one atomicAdd per group of converged lanes (the lanes
/// that reach this call together share it).
__device__ inline unsigned long long queue_slot(unsigned long long* tail) {
  cg::coalesced_group group = cg::coalesced_threads();
  unsigned long long base = 0;
  if (group.thread_rank() == 0)
    base = atomicAdd(tail, static_cast<unsigned long long>(group.size()));
  return group.shfl(base, 0) + group.thread_rank();
}

/// Grid-stride loops: this thread's first item and the whole grid's stride.
__device__ inline unsigned long long first_item() {
  return blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
}
__device__ inline unsigned long long item_stride() {
  return gridDim.x * static_cast<unsigned long long>(blockDim.x);
}

/// slots[i] of a ring of queues, chosen by selects: a run-time index into an array of a kernel
/// parameter would copy the array to local memory, a stack access on every queue append.
template <class T, int N>
__device__ inline T slot(T const (&slots)[N], unsigned i) {
  T chosen = slots[0];
#pragma unroll
  for (int j = 1; j < N; ++j)
    if (i == unsigned(j)) chosen = slots[j];
  return chosen;
}

/// What one round needs besides the graph: rings, flags, the split.
struct Round {
  unsigned long long* distance;
  unsigned* stamp;
  unsigned* in_far;
  Queues queues;
  Counters* counters;
  unsigned number;  // k
  unsigned far_slot;
  double split;

  /// Edge u -> v of length `length`, u at distance `from`. `far_low`, where given, takes the
  /// smallest improvement at or above the split (light-heavy tracks the far minimum with it).
  __device__ void relax(double from, Index v, double length,
                        unsigned long long* far_low = nullptr) const {
    relax_into(from, v, length, far_low,
               [&](Index w, Index* list, unsigned long long* tail) {
                 list[queue_slot(tail)] = w;
               });
  }

  /// relax(), with the queue and pile appends made by `append(v, list, tail)` (light-heavy
  /// stages them in shared memory: one global atomic a block instead of one a warp's group).
  template <class Append>
  __device__ void relax_into(double from, Index v, double length, unsigned long long* far_low,
                             Append&& append) const {
    const double candidate = from + length;
    // A plain read first: most edges do not improve, and a stale (larger) value only costs the
    // atomics, whose answers are authoritative.
    if (!(candidate < distance_of(distance[v]))) return;
    const unsigned long long bits = bits_of(candidate);
    // v's claim on the queue (or the pile) is taken together with the atomicMin, not after it:
    // on grids and roads a round is one chain of dependent accesses, and this takes one link
    // out. A claim beside a lost atomicMin still appends v: v improved in this round anyway
    // (the winner then finds the claim taken), or this thread's read was stale and v is
    // relaxed once more. Either way no improvement goes unqueued.
    if (candidate < split) {
      const unsigned next = number + 1;
      atomicMin(&distance[v], bits);
      if (atomicExch(&stamp[v], next) != next)
        append(v, slot(queues.near, next % 3), &counters->near_tail[next % 3]);
    } else {
      const bool won = bits < atomicMin(&distance[v], bits);
      const bool claimed = atomicExch(&in_far[v], 1u) == 0u;
      if (won && far_low && bits < *far_low) *far_low = bits;
      if (claimed) append(v, slot(queues.far, far_slot), &counters->far_tail[far_slot]);
    }
  }
};

/// Round k's bookkeeping (one thread): clears the tails round k + 1 will fill (see the header
/// comment's rings) and counts the round if it has work.
__device__ inline void begin_round(Counters* counters, unsigned k, unsigned long long work) {
  counters->near_tail[(k + 2) % 3] = 0;
  counters->hub_tail[(k + 1) % 3] = 0;
  if (work > 0) ++counters->iterations;
}

/// Folds the smallest distance at or above `split` among the `size` far vertices into
/// `minimum` (below the split: relaxed since they were piled).
__device__ inline void fold_far_minimum(const unsigned long long* distance, const Index* far,
                                        unsigned long long size, double split,
                                        unsigned long long* minimum) {
  unsigned long long smallest = ~0ull;
  for (unsigned long long i = first_item(); i < size; i += item_stride()) {
    const unsigned long long bits = distance[far[i]];
    if (!(distance_of(bits) < split) && bits < smallest) smallest = bits;
  }
  smallest = warp_reduce(smallest, ::cuda::minimum<>{});
  if (lane_id() == 0 && smallest != ~0ull) atomicMin(minimum, smallest);
}

/// The split after a far minimum of `smallest`: at least one far vertex must fall below it,
/// however large the distances (delta may vanish next to them).
__host__ __device__ inline double next_split_after(double smallest, double delta) {
  return fmax(smallest + delta, nextafter(smallest, HUGE_VAL));
}

/// Moves the `size` vertices of far pile `from_slot` below the new split to the queue of round
/// `next`; keeps the rest in the other pile (the smallest of their distances into `kept_low`,
/// where given); drops those below the old split (relaxed since they were piled). The appends
/// are `append(v, list, tail)`; the loop is block-uniform, and every thread calls
/// `after_stride()` after each stride of the grid (light-heavy publishes its staged appends
/// there).
template <class Append, class AfterStride>
__device__ inline void split_far_pile(const unsigned long long* distance, unsigned* stamp,
                                      unsigned* in_far, const Queues& queues, unsigned from_slot,
                                      unsigned long long size, double old_split, double new_split,
                                      unsigned next, Counters* counters,
                                      unsigned long long* kept_low, Append&& append,
                                      AfterStride&& after_stride) {
  const Index* from = slot(queues.far, from_slot);
  const unsigned to_slot = 1 - from_slot;
  for (unsigned long long stride = first_item() - threadIdx.x; stride < size;
       stride += item_stride()) {
    const unsigned long long i = stride + threadIdx.x;
    if (i < size) {
      const Index v = from[i];
      in_far[v] = 0u;
      const double d = distance_of(distance[v]);
      if (d >= old_split) {  // below it: relaxed since it was piled, and dropped
        if (d < new_split) {
          if (atomicExch(&stamp[v], next) != next)
            append(v, slot(queues.near, next % 3), &counters->near_tail[next % 3]);
        } else {
          in_far[v] = 1u;
          append(v, slot(queues.far, to_slot), &counters->far_tail[to_slot]);
          if (kept_low && bits_of(d) < *kept_low) *kept_low = bits_of(d);
        }
      }
    }
    after_stride();
  }
}

/// split_far_pile with each append a slot of the global list (queue_slot).
__device__ inline void split_far_pile(const unsigned long long* distance, unsigned* stamp,
                                      unsigned* in_far, const Queues& queues, unsigned from_slot,
                                      unsigned long long size, double old_split, double new_split,
                                      unsigned next, Counters* counters) {
  split_far_pile(
      distance, stamp, in_far, queues, from_slot, size, old_split, new_split, next, counters,
      nullptr, [](Index v, Index* list, unsigned long long* tail) { list[queue_slot(tail)] = v; },
      [] {});
}

}  // namespace grb::sssp::kernels
