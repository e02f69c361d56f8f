// frontier-privatized (PMPP fig. 15.14): as frontier-queue, but each block collects its
// discoveries in a shared-memory queue (a shared atomic each, about 20x cheaper than a global
// one under contention), reserves its slice of the global queue with one atomicAdd per block,
// and copies the slice out coalesced. A full block queue overflows to the global queue directly.
#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;
// Four discoveries per thread fit before overflow: 4 KB of shared memory per block.
constexpr unsigned capacity = 4 * block;

__global__ void __launch_bounds__(block)
    expand_queue_privatized(GraphView out, const Index* frontier, Index frontier_size,
                            std::int32_t next_level, std::int32_t* level, Index* parent,
                            Index* next_frontier, Tally* counters) {
  __shared__ StagedList<capacity> discovered;
  discovered.clear();
  __syncthreads();
  const Index i = blockIdx.x * block + threadIdx.x;
  Tally local;
  if (i < frontier_size) {
    const Index u = frontier[i];
    for (Offset e = out.begin(u); e < out.end(u); ++e) {
      const Index v = out.col_indices[e];
      if (claim(level, v, next_level)) {
        parent[v] = u;
        discovered.push(v, next_frontier, &counters->discovered);
        local.discovered_edges += out.degree(v);
      }
    }
  }
  __syncthreads();
  discovered.flush(next_frontier, &counters->discovered);
  add_block_tally<block>(counters, local);
}

class FrontierPrivatized final : public DeviceEngine {
 public:
  FrontierPrivatized() : DeviceEngine("frontier-privatized") {}

 private:
  void search(Index source) override {
    push_levels(0, 1, graph_.out_degree(source), [&](std::int32_t depth, Index frontier, Offset) {
      expand_queue_privatized<<<blocks_for(frontier, block), block, 0, current_stream()>>>(
          graph_.out(), state_.queue(), frontier, depth + 1, state_.level(), state_.parent(),
          state_.next_queue(), state_.counters());
      GRB_CUDA_CHECK_LAUNCH();
    });
  }
};

}  // namespace

std::unique_ptr<Engine> make_frontier_privatized() {
  return std::make_unique<FrontierPrivatized>();
}

}  // namespace grb::bfs::kernels
