// vertex-push (PMPP fig. 15.6): a thread per vertex; the vertices of the current level write the
// next level into their unvisited out-neighbours. Every writer of a vertex stores the same level
// and any frontier neighbour is a valid parent, so the writes need no atomics; a "something new
// was visited" count decides whether another level runs. Each level reads every vertex's level,
// so it costs O(n) even when the frontier is one vertex.
#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;

__global__ void __launch_bounds__(block)
    push_from_every_vertex(GraphView out, std::int32_t depth, std::int32_t* level, Index* parent,
                           Tally* counters) {
  const Index u = blockIdx.x * block + threadIdx.x;
  Tally local;
  if (u < out.nrows && level[u] == depth) {
    local.frontier = 1;
    local.edges = out.degree(u);
    for (Offset e = out.begin(u); e < out.end(u); ++e) {
      const Index v = out.col_indices[e];
      if (level[v] == unreached) {
        level[v] = depth + 1;
        parent[v] = u;
        local.discovered = 1;
      }
    }
  }
  add_block_tally<block>(counters, local);
}

class VertexPush final : public DeviceEngine {
 public:
  VertexPush() : DeviceEngine("vertex-push") {}

 private:
  void search(Index) override {
    sweep_levels(Direction::push, [&](std::int32_t depth) {
      push_from_every_vertex<<<blocks_for(graph_.vertices(), block), block, 0, current_stream()>>>(
          graph_.out(), depth, state_.level(), state_.parent(), state_.counters());
      GRB_CUDA_CHECK_LAUNCH();
    });
  }
};

}  // namespace

std::unique_ptr<Engine> make_vertex_push() { return std::make_unique<VertexPush>(); }

}  // namespace grb::bfs::kernels
