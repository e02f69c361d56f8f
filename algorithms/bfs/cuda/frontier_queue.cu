// frontier-queue (PMPP fig. 15.12): threads only for the frontier's vertices, read from a queue.
// atomicCAS on a neighbour's level decides which thread discovers it (that thread writes the
// parent), and atomicAdd on the next queue's tail gives it a slot. Work is proportional to the
// frontier's edges; the cost is one global atomic per discovered vertex, all on one address.
#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;

__global__ void __launch_bounds__(block)
    expand_queue(GraphView out, const Index* frontier, Index frontier_size,
                 std::int32_t next_level, std::int32_t* level, Index* parent,
                 Index* next_frontier, Tally* counters) {
  const Index i = blockIdx.x * block + threadIdx.x;
  Tally local;
  if (i < frontier_size) {
    const Index u = frontier[i];
    for (Offset e = out.begin(u); e < out.end(u); ++e) {
      const Index v = out.col_indices[e];
      if (claim(level, v, next_level)) {
        parent[v] = u;
        next_frontier[atomicAdd(&counters->discovered, 1ull)] = v;
        local.discovered_edges += out.degree(v);
      }
    }
  }
  add_block_tally<block>(counters, local);
}

class FrontierQueue final : public DeviceEngine {
 public:
  FrontierQueue() : DeviceEngine("frontier-queue") {}

 private:
  void search(Index source) override {
    push_levels(0, 1, graph_.out_degree(source), [&](std::int32_t depth, Index frontier, Offset) {
      expand_queue<<<blocks_for(frontier, block), block, 0, current_stream()>>>(
          graph_.out(), state_.queue(), frontier, depth + 1, state_.level(), state_.parent(),
          state_.next_queue(), state_.counters());
      GRB_CUDA_CHECK_LAUNCH();
    });
  }
};

}  // namespace

std::unique_ptr<Engine> make_frontier_queue() { return std::make_unique<FrontierQueue>(); }

}  // namespace grb::bfs::kernels
