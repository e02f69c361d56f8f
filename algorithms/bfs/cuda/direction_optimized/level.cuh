// direction-optimized's level kernel (push or pull, decided on the device by the level's last
// block), the search's first kernel, and the masks made once per graph.
#pragma once

#include <cstdint>

#include "bfs/cuda/direction_optimized/pull.cuh"
#include "bfs/cuda/direction_optimized/push.cuh"

namespace grb::bfs::kernels {
namespace {

/// The last block of a level: records the level, chooses the next one's direction (GAP's rule:
/// pull when the next frontier's out-edges exceed unexplored / alpha; stop pulling once the
/// frontier shrinks and is below n / beta) and resets the counters the next level appends to.
__device__ void decide_next_level(const Search& s, bool in_graph) {
  Control& c = *s.control;
  const volatile Tally& tally = c.tally;
  const Index discovered = Index(tally.discovered);
  const Offset discovered_edges = tally.discovered_edges;
  const std::int32_t depth = c.depth;
  s.report->level[depth % report_capacity] = {c.frontier, c.pulling, Offset(tally.edges)};
  if (c.pulling) {
    if (discovered < c.frontier && double(discovered) < double(s.out.nrows) / beta) {
      c.pulling = 0;
      c.from_bitmap = 1;
    }
  } else if (double(discovered_edges) > double(c.unexplored) / alpha) {
    c.pulling = 1;
  } else {
    c.unexplored -= discovered_edges;
    c.from_bitmap = 0;
  }
  c.depth = depth + 1;
  c.frontier = discovered;
  c.tally = Tally{};
  c.blocks_done = 0;
  c.queue_size[depth & 1] = 0;  // level depth + 2 appends there
  c.large[depth & 1] = 0;
  s.report->levels = depth + 1;
  s.report->finished = discovered == 0;
  if (in_graph)
    cudaGraphSetConditional(s.condition,
                            discovered > 0 && (depth + 1) % report_capacity != 0 ? 1u : 0u);
}

__global__ void __launch_bounds__(block) bfs_level(Search s, bool in_graph) {
  __shared__ unsigned found_words[warps_per_block][32];
  __shared__ Index hits[warps_per_block][32];
  __shared__ Staging staging;
  const Control& c = *s.control;
  const std::int32_t depth = c.depth;
  const bool pulling = c.pulling;
  const bool from_bitmap = c.from_bitmap;
  const unsigned long long queue_size = c.queue_size[depth & 1];
  const unsigned long long large = c.large[depth & 1];
  if (threadIdx.x == 0) {
    staging.queue.staged = 0;
    staging.larges = 0;
  }

  // The bitmap two levels ahead held the frontier of the level before this one: nobody reads it.
  unsigned* stale = s.frontier[(depth + 2) % 3];
  for (unsigned long long w = std::uint64_t(blockIdx.x) * block + threadIdx.x; w < s.words;
       w += std::uint64_t(gridDim.x) * block)
    stale[w] = 0;
  __syncthreads();

  Tally local;
  const unsigned warp = threadIdx.x / 32;
  if (pulling) pull_level(s, staging, depth, found_words[warp], hits[warp], local);
  else push_level(s, staging, depth, from_bitmap, queue_size, large, local);
  __syncthreads();
  const unsigned next = (depth + 1) & 1;
  flush(staging, s.queue[next], &s.control->queue_size[next], s.large_list[next],
        &s.control->large[next]);

  add_block_tally<block>(&s.control->tally, local);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's tally before its ticket
    last = atomicAdd(&s.control->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    decide_next_level(s, in_graph);
  }
}

/// Level 0: levels and parents cleared, visited = the vertices without in-edges plus the source,
/// the source alone in frontier 0 (and in queue 0 or large list 0), and the first direction.
__global__ void __launch_bounds__(block) begin_search(Search s, Index source) {
  const unsigned long long stride = std::uint64_t(gridDim.x) * block;
  const unsigned long long first = std::uint64_t(blockIdx.x) * block + threadIdx.x;
  for (unsigned long long v = first; v < s.out.nrows; v += stride) {
    s.level[v] = v == source ? 0 : unreached;
    s.parent[v] = v == source ? source : no_index;
  }
  const Index source_word = source >> 5;
  const unsigned source_bit = 1u << (source & 31u);
  for (unsigned long long w = first; w < s.words; w += stride) {
    const unsigned mine = w == source_word ? source_bit : 0u;
    s.visited[w] = s.no_in_edges[w] | mine;
    s.frontier[0][w] = mine;
    s.frontier[1][w] = 0;
    s.frontier[2][w] = 0;
  }
  if (first == 0) {
    Control c{};
    c.frontier = 1;
    c.unexplored = s.out.nvals;
    const Offset degree = s.out.degree(source);
    if (double(degree) > double(c.unexplored) / alpha) c.pulling = 1;
    else c.unexplored -= degree;
    if (degree > chunk_edges) {
      s.large_list[0][0] = {source, 0};
      c.large[0] = (1ull << 32) | chunks_of(degree);
    } else if (degree > 0) {
      s.queue[0][0] = source;
      c.queue_size[0] = 1;
    }
    *s.control = c;
  }
}
__global__ void __launch_bounds__(block)
    degree_masks(GraphView out, GraphView in, Index words, unsigned* no_in_edges,
                 unsigned* large) {
  const Index w = blockIdx.x * block + threadIdx.x;
  if (w >= words) return;
  unsigned none = 0, big = 0;
  for (unsigned b = 0; b < 32; ++b) {
    const Index v = w * 32 + b;
    if (v >= out.nrows || in.degree(v) == 0) none |= 1u << b;
    if (v < out.nrows && out.degree(v) > chunk_edges) big |= 1u << b;
  }
  no_in_edges[w] = none;
  large[w] = big;
}

}  // namespace
}  // namespace grb::bfs::kernels
