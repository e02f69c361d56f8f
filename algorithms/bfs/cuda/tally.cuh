// What one level's kernels count, summed per block and added to device counters with one
// atomic per field per block (a global atomic per thread would serialize on one address).
#pragma once

#include <cub/block/block_reduce.cuh>

namespace grb::bfs::kernels {

/// Device counters of one level. For queue engines `discovered` is also the next queue's tail.
struct Tally {
  unsigned long long frontier = 0;          // vertices in this level's frontier (where counted)
  unsigned long long discovered = 0;        // vertices given the next level
  unsigned long long edges = 0;             // edges read (where counted in-kernel)
  unsigned long long discovered_edges = 0;  // out-degree sum of the discovered vertices
};

struct TallySum {
  __device__ Tally operator()(const Tally& a, const Tally& b) const {
    return {a.frontier + b.frontier, a.discovered + b.discovered, a.edges + b.edges,
            a.discovered_edges + b.discovered_edges};
  }
};

/// Adds every thread's `local` to `counters`. All threads of the block must call it.
template <int Block>
__device__ void add_block_tally(Tally* counters, const Tally& local) {
  using Reduce = cub::BlockReduce<Tally, Block>;
  __shared__ typename Reduce::TempStorage storage;
  const Tally total = Reduce(storage).Reduce(local, TallySum{});
  if (threadIdx.x == 0) {
    if (total.frontier) atomicAdd(&counters->frontier, total.frontier);
    if (total.discovered) atomicAdd(&counters->discovered, total.discovered);
    if (total.edges) atomicAdd(&counters->edges, total.edges);
    if (total.discovered_edges) atomicAdd(&counters->discovered_edges, total.discovered_edges);
  }
}

}  // namespace grb::bfs::kernels
