// bucketed: the frontier's lists split by degree into small, medium and large, expanded by a
// thread, a warp and a whole block (Merrill & Garland; see bucketed_expand.cuh). Balanced on
// both power-law and mesh graphs at the price of a few barriers per tile.
#include "bfs/cuda/bucketed_expand.cuh"
#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

class Bucketed final : public DeviceEngine {
 public:
  Bucketed() : DeviceEngine("bucketed") {}

 private:
  void search(Index source) override {
    push_levels(0, 1, graph_.out_degree(source), [&](std::int32_t depth, Index frontier, Offset) {
      launch_expand_bucketed(graph_.out(), state_.queue(), frontier, depth + 1, state_.level(),
                             state_.parent(), state_.next_queue(), state_.counters());
    });
  }
};

}  // namespace

std::unique_ptr<Engine> make_bucketed() { return std::make_unique<Bucketed>(); }

}  // namespace grb::bfs::kernels
