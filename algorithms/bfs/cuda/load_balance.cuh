// Edge-parallel work mapping (seed 004): with `starts` the exclusive scan of the frontier's
// degrees, work item t (the t-th frontier edge) belongs to the last segment whose start is <= t
// (owner_of, primitives/search.cuh): every thread gets exactly one edge, whatever the degrees.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "bfs/cuda/device_graph.cuh"
#include "bfs/cuda/tally.cuh"
#include "bfs/cuda/visit.cuh"
#include "grb/array.hpp"
#include "grb/types.hpp"

namespace grb::bfs::kernels {

inline constexpr int load_balance_block = 256;

template <int Block = load_balance_block>
__global__ void __launch_bounds__(Block)
    frontier_degrees(GraphView out, const Index* frontier, Index frontier_size, Offset* degrees) {
  const Index i = blockIdx.x * Block + threadIdx.x;
  if (i < frontier_size) degrees[i] = out.degree(frontier[i]);
}

template <int Block = load_balance_block>
__global__ void __launch_bounds__(Block)
    expand_edge_per_thread(GraphView out, const Index* frontier, Index frontier_size,
                           const Offset* starts, Offset frontier_edges, std::int32_t next_level,
                           std::int32_t* level, Index* parent, Index* next_frontier,
                           Tally* counters) {
  Tally local;
  // A block-uniform loop, so that every lane reaches warp_enqueue each round.
  for (Offset tile = Offset(blockIdx.x) * Block; tile < frontier_edges;
       tile += Offset(gridDim.x) * Block) {
    const Offset item = tile + threadIdx.x;
    Index v = 0;
    bool found = false;
    if (item < frontier_edges) {
      const Index segment = owner_of(starts, frontier_size, item);
      const Index u = frontier[segment];
      v = out.col_indices[out.begin(u) + (item - starts[segment])];
      found = claim(level, v, next_level);
      if (found) {
        parent[v] = u;
        local.discovered_edges += out.degree(v);
      }
    }
    warp_append(found, v, next_frontier, &counters->discovered);
  }
  add_block_tally<Block>(counters, local);
}

/// Edge-parallel push levels: the scan buffers (allocated once) and the per-level launches.
class EdgeParallelPush {
 public:
  void allocate(Index vertices) {
    degrees_ = detail::Array<Offset>(vertices, Backend::cuda);
    starts_ = detail::Array<Offset>(vertices, Backend::cuda);
    std::size_t bytes = 0;
    GRB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, degrees_.data(), starts_.data(),
                                                 vertices, current_stream()));
    scan_storage_ = detail::Array<unsigned char>(std::max<std::size_t>(bytes, 1), Backend::cuda);
  }
  std::size_t bytes() const {
    return (degrees_.size() + starts_.size()) * sizeof(Offset) + scan_storage_.size();
  }

  /// One push level: scan of the frontier's degrees, then a thread per frontier edge.
  void expand(GraphView out, const Index* frontier, Index frontier_size, Offset frontier_edges,
              std::int32_t next_level, std::int32_t* level, Index* parent, Index* next_frontier,
              Tally* counters) {
    if (frontier_edges == 0) return;  // nothing to expand: the counters stay zero
    constexpr int block = load_balance_block;
    constexpr unsigned max_blocks = 1u << 20;
    frontier_degrees<<<blocks_for(frontier_size, block), block, 0, current_stream()>>>(
        out, frontier, frontier_size, degrees_.data());
    GRB_CUDA_CHECK_LAUNCH();
    std::size_t bytes = scan_storage_.size();
    GRB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_storage_.data(), bytes, degrees_.data(),
                                                 starts_.data(), frontier_size, current_stream()));
    const unsigned blocks = std::min(blocks_for(frontier_edges, block), max_blocks);
    expand_edge_per_thread<<<blocks, block, 0, current_stream()>>>(
        out, frontier, frontier_size, starts_.data(), frontier_edges, next_level, level, parent,
        next_frontier, counters);
    GRB_CUDA_CHECK_LAUNCH();
  }

 private:
  detail::Array<Offset> degrees_, starts_;
  detail::Array<unsigned char> scan_storage_;
};

}  // namespace grb::bfs::kernels
