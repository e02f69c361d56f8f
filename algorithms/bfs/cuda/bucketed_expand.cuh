// Degree-bucketed expansion of a frontier queue (Merrill, Garland & Grimshaw, "Scalable GPU
// graph traversal", 2012): each block takes a tile of frontier vertices and expands
//   large lists  (degree >= Block) with the whole block, one list at a time;
//   medium lists (degree >= 32)    with a warp, one list at a time per warp;
//   small lists                    with their own thread.
// So a celebrity vertex is spread over a block instead of stalling one thread, and a mesh's
// degree-4 vertices do not leave 28 lanes idle. Discoveries go through a block-private queue.
// Used by the bucketed engine, by single-block for the levels too large for one block, and by
// direction-optimized for its push levels.
#pragma once

#include <cstdint>

#include "bfs/cuda/device_graph.cuh"
#include "bfs/cuda/tally.cuh"
#include "bfs/cuda/visit.cuh"

namespace grb::bfs::kernels {

inline constexpr int bucketed_block = 256;

template <int Block = bucketed_block>
__global__ void __launch_bounds__(Block)
    expand_bucketed(GraphView out, const Index* frontier, Index frontier_size,
                    std::int32_t next_level, std::int32_t* level, Index* parent,
                    Index* next_frontier, Tally* counters) {
  __shared__ StagedList<4 * Block> discovered;
  __shared__ Index block_owner;  // the thread whose large list the whole block expands
  __shared__ Index owner_vertex;
  __shared__ Offset owner_begin, owner_end;

  discovered.clear();
  Tally local;
  auto visit = [&](Index v, Index from) {
    if (claim(level, v, next_level)) {
      parent[v] = from;
      local.discovered_edges += out.degree(v);
      discovered.push(v, next_frontier, &counters->discovered);
    }
  };

  const Index i = blockIdx.x * Block + threadIdx.x;
  Index u = 0;
  Offset begin = 0, end = 0;
  if (i < frontier_size) {
    u = frontier[i];
    begin = out.begin(u);
    end = out.end(u);
  }

  // Large lists: threads bid for the block; the lowest bidder's list is expanded by all.
  while (true) {
    if (threadIdx.x == 0) block_owner = no_index;
    __syncthreads();
    if (end - begin >= Offset(Block)) atomicMin(&block_owner, Index(threadIdx.x));
    __syncthreads();
    const Index owner = block_owner;
    if (owner == no_index) break;
    if (threadIdx.x == owner) {
      owner_vertex = u;
      owner_begin = begin;
      owner_end = end;
      begin = end;
    }
    __syncthreads();
    for (Offset e = owner_begin + threadIdx.x; e < owner_end; e += Block)
      visit(out.col_indices[e], owner_vertex);
    __syncthreads();
  }

  // Medium lists: the lanes of a warp bid; the lowest bidding lane's list is expanded by all 32.
  const unsigned lane = lane_id();
  while (true) {
    const unsigned bidders = __ballot_sync(0xffffffffu, end - begin >= 32);
    if (bidders == 0) break;
    const unsigned leader = __ffs(bidders) - 1;
    const Index from = __shfl_sync(0xffffffffu, u, leader);
    const Offset list_begin = __shfl_sync(0xffffffffu, begin, leader);
    const Offset list_end = __shfl_sync(0xffffffffu, end, leader);
    if (lane == leader) begin = end;
    for (Offset e = list_begin + lane; e < list_end; e += 32) visit(out.col_indices[e], from);
  }

  // Small lists: each thread its own.
  for (Offset e = begin; e < end; ++e) visit(out.col_indices[e], u);

  __syncthreads();
  discovered.flush(next_frontier, &counters->discovered);
  add_block_tally<Block>(counters, local);
}

/// One push level over the queue `frontier` (frontier_size > 0).
inline void launch_expand_bucketed(GraphView out, const Index* frontier, Index frontier_size,
                                   std::int32_t next_level, std::int32_t* level, Index* parent,
                                   Index* next_frontier, Tally* counters) {
  expand_bucketed<<<blocks_for(frontier_size, bucketed_block), bucketed_block, 0,
                    current_stream()>>>(out, frontier, frontier_size, next_level, level, parent,
                                        next_frontier, counters);
  GRB_CUDA_CHECK_LAUNCH();
}

}  // namespace grb::bfs::kernels
