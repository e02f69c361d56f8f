// load-balanced (seed 004): edge-parallel expansion. Per level, the frontier's degrees are
// exclusive-scanned (CUB), then one thread per frontier edge finds the vertex owning its edge
// by binary search in the scan (load_balance.cuh). Perfect balance whatever the degrees, paid
// for with a scan and two extra launches per level and a log-time search per edge; discoveries
// are appended one atomic per warp (ballot + popc).
#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"
#include "bfs/cuda/load_balance.cuh"

namespace grb::bfs::kernels {
namespace {

class LoadBalanced final : public DeviceEngine {
 public:
  LoadBalanced() : DeviceEngine("load-balanced") {}

 private:
  void prepare_engine() override { push_.allocate(graph_.vertices()); }
  std::size_t engine_bytes() const override { return push_.bytes(); }

  void search(Index source) override {
    push_levels(0, 1, graph_.out_degree(source),
                [&](std::int32_t depth, Index frontier, Offset frontier_edges) {
      push_.expand(graph_.out(), state_.queue(), frontier, frontier_edges, depth + 1,
                   state_.level(), state_.parent(), state_.next_queue(), state_.counters());
    });
  }

  EdgeParallelPush push_;
};

}  // namespace

std::unique_ptr<Engine> make_load_balanced() { return std::make_unique<LoadBalanced>(); }

}  // namespace grb::bfs::kernels
