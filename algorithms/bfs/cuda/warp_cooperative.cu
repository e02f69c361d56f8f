// warp-cooperative (seed 001): a warp expands one frontier vertex, its 32 lanes reading 32
// consecutive neighbours at once (coalesced), so a high-degree vertex no longer stalls one
// thread. Discoveries are compacted with ballot + popc and appended with one atomicAdd per warp
// per 32 neighbours. Low-degree vertices leave most lanes idle: a warp per vertex wastes up to
// 31/32 of the lanes on a mesh.
#include <algorithm>

#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;
constexpr unsigned warps_per_block = block / 32;
constexpr unsigned max_blocks = 1u << 16;

__global__ void __launch_bounds__(block)
    expand_warp_per_vertex(GraphView out, const Index* frontier, Index frontier_size,
                           std::int32_t next_level, std::int32_t* level, Index* parent,
                           Index* next_frontier, Tally* counters) {
  const unsigned lane = lane_id();
  const unsigned warps = gridDim.x * warps_per_block;
  Tally local;
  // Loop bounds are the same for every lane of a warp, as warp_enqueue needs.
  for (Index i = blockIdx.x * warps_per_block + threadIdx.x / 32; i < frontier_size; i += warps) {
    const Index u = frontier[i];
    const Offset begin = out.begin(u), end = out.end(u);
    for (Offset base = begin; base < end; base += 32) {
      const Offset e = base + lane;
      Index v = 0;
      bool found = false;
      if (e < end) {
        v = out.col_indices[e];
        found = claim(level, v, next_level);
        if (found) {
          parent[v] = u;
          local.discovered_edges += out.degree(v);
        }
      }
      warp_append(found, v, next_frontier, &counters->discovered);
    }
  }
  add_block_tally<block>(counters, local);
}

class WarpCooperative final : public DeviceEngine {
 public:
  WarpCooperative() : DeviceEngine("warp-cooperative") {}

 private:
  void search(Index source) override {
    push_levels(0, 1, graph_.out_degree(source), [&](std::int32_t depth, Index frontier, Offset) {
      const unsigned blocks = std::min(blocks_for(frontier, warps_per_block), max_blocks);
      expand_warp_per_vertex<<<blocks, block, 0, current_stream()>>>(
          graph_.out(), state_.queue(), frontier, depth + 1, state_.level(), state_.parent(),
          state_.next_queue(), state_.counters());
      GRB_CUDA_CHECK_LAUNCH();
    });
  }
};

}  // namespace

std::unique_ptr<Engine> make_warp_cooperative() { return std::make_unique<WarpCooperative>(); }

}  // namespace grb::bfs::kernels
