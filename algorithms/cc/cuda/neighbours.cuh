// Walking the neighbour lists of the vertices a warp holds, one vertex per lane, with the long
// lists (power-law hubs) walked by the whole warp together so that one hub does not stall its
// lane's warp for its whole degree (the warp-cooperative expansion of seed 001).
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "cc/cuda/undirected_graph.cuh"

namespace grb::cc::kernels {

/// A list at least this long is walked by the whole warp, 32 neighbours at a time.
inline constexpr Offset warp_list = 32;
inline constexpr unsigned all_lanes = 0xffffffffu;

/// Calls visit(u, v) for each neighbour v of the lane's vertex u past its first `skip`
/// neighbours, for the lanes with `active`. Every lane of the warp must call it.
template <class Visit>
__device__ void visit_neighbours(const GraphView& graph, bool active, Index u, Offset skip,
                                 Visit&& visit) {
  const unsigned lane = threadIdx.x & 31u;
  Offset begin = 0, end = 0;
  if (active) {
    end = graph.end(u);
    begin = graph.begin(u) + skip < end ? graph.begin(u) + skip : end;
  }
  const bool long_list = end - begin >= warp_list;
  for (unsigned pending = __ballot_sync(all_lanes, long_list); pending != 0;
       pending &= pending - 1) {
    const int leader = __ffs(pending) - 1;
    const Index w = __shfl_sync(all_lanes, u, leader);
    const Offset list_begin = __shfl_sync(all_lanes, begin, leader);
    const Offset list_end = __shfl_sync(all_lanes, end, leader);
    for (Offset k = list_begin + lane; k < list_end; k += 32) visit(w, graph.col_indices[k]);
  }
  if (!long_list)
    for (Offset k = begin; k < end; ++k) visit(u, graph.col_indices[k]);
}

/// Appends v to queue[*tail ...] with one atomicAdd per group of lanes that arrive together
/// (callable from divergent code).
__device__ inline void enqueue(Index v, Index* queue, unsigned* tail) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group arrived = cg::coalesced_threads();
  unsigned base = 0;
  if (arrived.thread_rank() == 0) base = atomicAdd(tail, arrived.size());
  base = arrived.shfl(base, 0);
  queue[base + arrived.thread_rank()] = v;
}

}  // namespace grb::cc::kernels
