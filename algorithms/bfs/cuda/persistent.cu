// persistent: the whole search in one cooperative launch. Every block stays resident; a level
// is a warp per frontier vertex (lanes stride its out-edges, claims appended with one atomic
// per warp), and a grid-wide barrier (cooperative groups) separates levels. No kernel launch and
// no host round trip per level: on high-diameter graphs (grids, roads), where thousands of
// levels each hold a few thousand vertices, a level costs a barrier plus a chain of dependent
// memory reads instead of a launch plus a read-back (~20 µs on the H100).
//
// The chain is kept short, since on a grid it is the level's whole cost (grid2000, H100, 8
// roots, the same run: 11.8 ms before these three, 9.6 ms after; docs/bfs.md):
// - 512-thread blocks, two per SM: the barrier has 264 arrivals instead of 792;
// - the queue holds each vertex with its out-edge range, read by the level that claimed it
//   together with the claim, and a warp reads its first vertex together with the frontier size;
// - the claim is the atomicCAS alone (on a grid most targets are new, so a plain read first
//   only adds a step).
//
// The next frontier's tail rotates through three counters: level d reads the size of its
// frontier from sizes[(d-1) % 3], appends to sizes[d % 3], and clears sizes[(d+1) % 3], which
// nobody touches during level d (it was read at level d-1 and is next written at level d+1,
// after the barrier). Per-level statistics (frontier size, edges read) are written to device
// arrays and read once at the end.
#include <cooperative_groups.h>

#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned block = 512;

/// A frontier vertex's out-edges, stored beside it in the queue: the level that claims v reads
/// offsets[v] and offsets[v + 1] together with its claim, so the next level's warp gets them
/// with the vertex instead of one dependent read later.
struct Edges {
  Offset begin, end;
};

struct Buffers {
  GraphView out;
  std::int32_t* level;
  Index* parent;
  Index* queues[2];
  Edges* edges[2];  // beside queues[0] and queues[1]
  unsigned long long* sizes;  // 3 rotating tails
  Index* level_frontier;            // per level: frontier size
  unsigned long long* level_edges;  // per level: out-edges of the frontier
  Index* level_count;               // levels with a non-empty frontier, written at the end
};

__global__ void __launch_bounds__(block) persistent_search(Buffers buffers) {
  const cg::grid_group grid = cg::this_grid();
  const std::uint64_t warp = (std::uint64_t(blockIdx.x) * block + threadIdx.x) / 32;
  const std::uint64_t warps = std::uint64_t(gridDim.x) * (block / 32);
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;
  const GraphView out = buffers.out;
  for (std::int32_t depth = 1;; ++depth) {
    const Index* frontier = buffers.queues[(depth - 1) & 1];
    const Edges* frontier_edges = buffers.edges[(depth - 1) & 1];
    Index* next = buffers.queues[depth & 1];
    Edges* next_edges = buffers.edges[depth & 1];
    // The warp's first vertex is read together with the frontier's size (a stale entry past
    // the size is read and dropped): one dependent read fewer per level.
    const bool mine = warp < out.nrows;
    Index u = mine ? frontier[warp] : 0;
    Edges range = mine ? frontier_edges[warp] : Edges{};
    const unsigned long long frontier_size = buffers.sizes[(depth - 1) % 3];
    if (frontier_size == 0) {  // the same value on every thread: all leave together
      if (first_thread) *buffers.level_count = static_cast<Index>(depth - 1);
      return;
    }
    unsigned long long* tail = buffers.sizes + depth % 3;
    if (first_thread) {
      buffers.sizes[(depth + 1) % 3] = 0;
      buffers.level_frontier[depth - 1] = static_cast<Index>(frontier_size);
      buffers.level_edges[depth] = 0;  // the next level's sum, added to after the barrier
    }
    unsigned long long edges = 0;
    for (std::uint64_t f = warp; f < frontier_size; f += warps) {
      if (f != warp) {
        u = frontier[f];
        range = frontier_edges[f];
      }
      edges += range.end - range.begin;
      for (Offset base = range.begin; base < range.end; base += 32) {
        const Offset e = base + lane_id();
        bool take = false;
        Index v = 0;
        Edges v_edges{};
        if (e < range.end) {
          v = out.col_indices[e];
          v_edges = {out.begin(v), out.end(v)};
          take = atomicCAS(&buffers.level[v], unreached, depth) == unreached;
          if (take) buffers.parent[v] = u;
        }
        const unsigned long long slot = warp_take_slot(take, tail);
        if (take) {
          next[slot] = v;
          next_edges[slot] = v_edges;
        }
      }
    }
    // Every lane of a warp walked the same vertices: lane 0 adds their degrees once.
    if (lane_id() == 0 && edges > 0) atomicAdd(buffers.level_edges + depth - 1, edges);
    grid.sync();
  }
}

class Persistent final : public DeviceEngine {
 public:
  Persistent() : DeviceEngine("persistent") {}

 private:
  void prepare_engine() override {
    if (!cooperative_launch_supported())
      throw BackendUnavailable("bfs engine persistent: the GPU cannot launch cooperative kernels");
    // Every block must be resident at once for the grid barrier.
    blocks_ = resident_blocks(persistent_search, block);
    const Index vertices = graph_.vertices();
    sizes_ = detail::Array<unsigned long long>(3, Backend::cuda);
    level_count_ = detail::Array<Index>(1, Backend::cuda);
    // A search has at most `vertices` levels (a path), so per-level arrays of that length
    // always suffice.
    level_frontier_ = detail::Array<Index>(std::size_t(vertices) + 1, Backend::cuda);
    level_edges_ = detail::Array<unsigned long long>(std::size_t(vertices) + 1, Backend::cuda);
    for (auto& edges : edges_) {
      edges = detail::Array<Edges>(vertices, Backend::cuda);
      GRB_CUDA_CHECK(
          cudaMemsetAsync(edges.data(), 0, edges.size() * sizeof(Edges), current_stream()));
    }
    // A warp reads its first queue entry before it knows the frontier's size (the entry may be
    // past it, and dropped): every entry is initialized once, so that read is never of
    // uninitialized memory (compute-sanitizer's initcheck).
    for (Index* queue : {state_.queue(), state_.next_queue()})
      GRB_CUDA_CHECK(
          cudaMemsetAsync(queue, 0, std::size_t(vertices) * sizeof(Index), current_stream()));
  }

  std::size_t engine_bytes() const override {
    return level_frontier_.size() * sizeof(Index) +
           level_edges_.size() * sizeof(unsigned long long) + 3 * sizeof(unsigned long long) +
           sizeof(Index) + (edges_[0].size() + edges_[1].size()) * sizeof(Edges);
  }

  void search(Index source) override {
    // The source is in the queue: sizes = {1, 0, 0}; level 1's edge sum starts at zero.
    const unsigned long long start[3] = {1, 0, 0};
    GRB_CUDA_CHECK(cudaMemcpyAsync(sizes_.data(), start, sizeof start, cudaMemcpyHostToDevice,
                                   current_stream()));
    GRB_CUDA_CHECK(
        cudaMemsetAsync(level_edges_.data(), 0, sizeof(unsigned long long), current_stream()));
    Buffers buffers{graph_.out(),
                    state_.level(),
                    state_.parent(),
                    {state_.queue(), state_.next_queue()},
                    {edges_[0].data(), edges_[1].data()},
                    sizes_.data(),
                    level_frontier_.data(),
                    level_edges_.data(),
                    level_count_.data()};
    // The source's edges, beside it in the first queue: offsets[source] and offsets[source + 1].
    GRB_CUDA_CHECK(cudaMemcpyAsync(edges_[0].data(), graph_.out().row_offsets + source,
                                   sizeof(Edges), cudaMemcpyDeviceToDevice, current_stream()));
    void* arguments[] = {&buffers};
    log_.begin_level();
    GRB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent_search),
                                               blocks_, block, arguments, 0, current_stream()));
    const std::size_t count = read_scalar(level_count_.data());
    std::vector<Index> frontier(count);
    std::vector<unsigned long long> edges(count);
    GRB_CUDA_CHECK(cudaMemcpyAsync(frontier.data(), level_frontier_.data(), count * sizeof(Index),
                                   cudaMemcpyDeviceToHost, current_stream()));
    GRB_CUDA_CHECK(cudaMemcpyAsync(edges.data(), level_edges_.data(),
                                   count * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                   current_stream()));
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    std::vector<LevelStats> stats(count);
    for (std::size_t d = 0; d < count; ++d)
      stats[d] = {frontier[d], static_cast<Offset>(edges[d]), Direction::push, 0.0};
    log_.end_levels(stats);
  }

  detail::Array<Edges> edges_[2];
  unsigned blocks_ = 0;
  detail::Array<unsigned long long> sizes_;
  detail::Array<Index> level_count_;
  detail::Array<Index> level_frontier_;
  detail::Array<unsigned long long> level_edges_;
};

}  // namespace

std::unique_ptr<Engine> make_persistent() { return std::make_unique<Persistent>(); }

}  // namespace grb::bfs::kernels
