// vertex-pull (PMPP fig. 15.8): a thread per unvisited vertex walks its in-edges (the CSC) and
// stops at the first neighbour on the current level, which becomes its parent. Only a vertex's
// own thread writes it, so no atomics; the early exit makes late levels (most vertices found,
// most in-neighbours already on the frontier) cheap, and early levels (tiny frontier, every
// unvisited vertex scanning all its in-edges) expensive. Directed graphs pull along in-edges.
#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;

__global__ void __launch_bounds__(block)
    pull_into_every_vertex(GraphView in, std::int32_t depth, std::int32_t* level, Index* parent,
                           Tally* counters) {
  const Index v = blockIdx.x * block + threadIdx.x;
  Tally local;
  if (v < in.nrows) {
    const std::int32_t mine = level[v];
    if (mine == depth) {
      local.frontier = 1;
    } else if (mine == unreached) {
      for (Offset e = in.begin(v); e < in.end(v); ++e) {
        ++local.edges;
        const Index u = in.col_indices[e];
        if (level[u] == depth) {
          level[v] = depth + 1;
          parent[v] = u;
          local.discovered = 1;
          break;
        }
      }
    }
  }
  add_block_tally<block>(counters, local);
}

class VertexPull final : public DeviceEngine {
 public:
  VertexPull() : DeviceEngine("vertex-pull", DeviceGraph::Edges::out_and_in) {}

 private:
  void search(Index) override {
    sweep_levels(Direction::pull, [&](std::int32_t depth) {
      pull_into_every_vertex<<<blocks_for(graph_.vertices(), block), block, 0, current_stream()>>>(
          graph_.in(), depth, state_.level(), state_.parent(), state_.counters());
      GRB_CUDA_CHECK_LAUNCH();
    });
  }
};

}  // namespace

std::unique_ptr<Engine> make_vertex_pull() { return std::make_unique<VertexPull>(); }

}  // namespace grb::bfs::kernels
